/* cache_gone.h - cache.c's rows of CPUs that left (cache_gone.c). */
#ifndef HWR10K_CACHE_GONE_H
#define HWR10K_CACHE_GONE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache.h"

/* Room for every row to leave at once; -1 when out of memory. */
int cache_gone_reserve(struct cache *c);
/* Remember a row that left (room reserved). */
void cache_gone_add(struct cache *c, const struct cpu_row *r,
		    const uint64_t *offset);
/* A CPU joins: its row and offsets as it left, if it was here before. */
bool cache_gone_take(struct cache *c, unsigned cpu, struct cpu_row *r,
		     uint64_t *offset);

#endif
