/*
 * stats.h - the derived statistics of lib/tables/stats.def (stats.c): what the
 * generator writes into the MIB and what the agent computes (stat_eval.c).
 */
#ifndef HWR10K_STATS_H
#define HWR10K_STATS_H

#include <stddef.h>
#include <stdint.h>

enum stat_rule {
	STAT_ANY,
	STAT_REV3, /* not for an R10000 revision below 3 */
};

struct stat_def {
	unsigned arc;
	const char *name;	/* "ipc"; alarm lines say "stat.ipc" */
	const char *descriptor; /* "Ipc" */
	/* counter names after METRIC_PREFIX; "" = none */
	const char *num, *minus, *den, *plus;
	uint64_t scale; /* 0: a difference, no ratio */
	enum stat_rule rule;
	const char *syntax, *units, *summary, *cite;
};

extern const struct stat_def meta_stat_defs[];
/* At most this many rows (the cache tracks each as a group of inputs). */
#define STAT_MAX 8
extern const size_t meta_stat_count;

#define STAT_PREFIX "stat."

/* The counter index of each input (num, minus, den, plus; -1 = none). */
struct meta_stat_inputs {
	int num, minus, den, plus;
};
/* Resolved from the counter names; -1 when a name is no counter (the
 * generator refuses such a row). */
int meta_stat_inputs(size_t stat, struct meta_stat_inputs *in);
/* "stat.NAME" -> index, or -1. */
long meta_stat_index_by_name(const char *name);

#endif
