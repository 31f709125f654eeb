/* stat_eval.h - the value of a derived statistic (stats.h) from the
 * cache's last poll (stat_eval.c). */
#ifndef HWR10K_STAT_EVAL_H
#define HWR10K_STAT_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "cache/cache.h"

/*
 * Statistic `stat` over the last poll interval (or, after polls where an
 * input had no reading, since the last poll where all had one), for the
 * sum (cpu < 0) or one CPU: SAMPLE_OK with *value; SAMPLE_NONE when an
 * input is not counted, the denominator is zero or the rule excludes
 * this CPU revision; SAMPLE_UNREAD when an input has no reading at this
 * poll (or a difference, a count per poll interval, would cover more
 * than one); SAMPLE_DISCONTINUITY when a delta spans one (or before the
 * second poll).
 */
enum sample_status cache_stat_value(const struct cache *c, size_t stat,
				    long cpu, uint64_t *value);
/* The revision rule: false for an R10000 cpurev "MAJOR.MINOR", MAJOR < 3. */
int cache_stat_rev3_applies(const char *cpurev);

#endif
