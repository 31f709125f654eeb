/* cache_fold.h - one CPU's row folded at a poll (cache_fold.c). */
#ifndef HWR10K_CACHE_FOLD_H
#define HWR10K_CACHE_FOLD_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache.h"

enum fold_event {
	FOLD_STEADY,
	FOLD_STOPPED,
	FOLD_RESUMED,
	FOLD_RESTARTED,
	FOLD_RESET
};

/* The delta from *raw to now (now itself after a restart, or when now is
 * lower: a restart from zero), and now kept in *raw. */
uint64_t cache_advance(uint64_t *raw, uint64_t now, bool restarted);
/* One mask word per counter: all ones when it is counted per CPU. */
void cache_counter_masks(counter_mask counted, uint64_t *mask);
/* Fold one CPU's reading into its row; says what happened to it, and
 * in *reset the cells that restarted (FOLD_RESET). */
enum fold_event cache_fold_cpu(struct cpu_row *r, uint64_t *offset,
				const struct cpu_sample *s, const uint64_t *mask,
				counter_mask skip, uint64_t *sum, bool ended,
				counter_mask *reset);

/* The deltas of the system-wide counters into sum; true when their
 * reading restarted (new epoch) after one before; *reset: the counters
 * whose reading went backwards or that the backend says were reset. */
bool cache_fold_system_wide(struct cache *c, const struct sample *s,
			    uint64_t *sum, counter_mask *reset);
/* The counters whose sum had a live source in this poll. */
counter_mask cache_live_counters(const struct sample *s,
				 const struct cpu_row *rows);

#endif
