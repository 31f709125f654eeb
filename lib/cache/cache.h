/*
 * cache.h - the values the agent serves: per-CPU and summed Counter64s.
 *
 * Only the poll fills it (cache_update); requests only read it, so every
 * request sees one consistent poll.  Counters are the cache's own 64-bit
 * accumulators of the backend's deltas, so they never go backwards:
 *  - a CPU row accumulates its deltas while it is counting; a stopped CPU
 *    keeps its values;
 *  - a total accumulates the deltas of all CPUs in the same pass, so it
 *    always equals what the CPUs counted: the sum of the rows plus the
 *    last values of the CPUs that left the table;
 *  - a CPU that leaves the table is remembered (its row and offset); when
 *    it comes back in the same counting epoch its row resumes from its
 *    last value and adds what the backend says it counted meanwhile, so
 *    nothing is counted twice; in a new epoch it adds the new epoch's
 *    counts, so its value still never goes backwards;
 *  - a counter counted system-wide only (no per-CPU values) accumulates
 *    the deltas of the backend's system-wide reading;
 *  - a reading that restarted from zero (new epoch, or a value lower than
 *    the last one, or one the backend says was reset) adds the new
 *    reading as the delta;
 *  - a cell with no reading in a sample (sample.h: unread) holds its
 *    value; its next delta covers the time since its last reading.
 * Every such event but the last (CPU set change, restart, stop/resume,
 * change of the counted set, a reset) sets the discontinuity time, and
 * the deltas it voids become invalid, so rates, statistics and alarms
 * skip that interval: a CPU event voids the row and every sum, a reset
 * only its cell and the sum of its counter.  A cell without a reading
 * has no rate at that poll, nor has its sum or any statistic that needs
 * it (cache_span.h).  A sum that had no reading when one of its CPUs
 * reset (another CPU had none) has no rate or statistic at its next
 * reading either: its span holds the reset.
 */
#ifndef HWR10K_CACHE_H
#define HWR10K_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache_data.h"
#include "cache/cache_group.h"

struct alarm_set;

/* The backend changed (a reload): the next poll's clock is another
 * one, so its interval is unknown (no rate, no counting time). */
void cache_clock_restart(struct cache *c);

/* What a sample of a counter is worth at this poll. */
enum sample_status {
	SAMPLE_OK,
	SAMPLE_NONE,	      /* not counted, no such CPU, or no delta yet */
	SAMPLE_DISCONTINUITY, /* the delta spans a discontinuity */
	/* No reading at this poll (the value is held from the last), or
	 * the first since readings went missing: no delta, nothing lost. */
	SAMPLE_UNREAD,
};

/*
 * The rate per second of counter, for the sum (cpu CACHE_SUM), a group
 * (CACHE_GROUP(g)) or one CPU: over
 * the last poll interval, or, after polls without a reading, over the
 * time since the last reading.
 */
enum sample_status cache_rate(const struct cache *c, int counter, long cpu,
			      uint64_t *rate);
/* The counter's value, for the sum (cpu < 0), a group or one CPU; an
 * absolute value is valid only when the last delta was (no
 * discontinuity).  Whatever the status but SAMPLE_NONE, *value is the
 * value as stored (--dump prints it; the MIB serves only a valid one). */
enum sample_status cache_value(const struct cache *c, int counter, long cpu,
			       uint64_t *value);

/* The counter's delta over the last poll interval, for the sum (cpu < 0)
 * or one CPU; valid as cache_rate's, and SAMPLE_UNREAD when it covers
 * more than that interval (polls without a reading before it). */
enum sample_status cache_delta(const struct cache *c, int counter, long cpu,
			       uint64_t *delta);
/* The span set of the sum (cpu < 0) or of one CPU's row; NULL if none. */
const struct span_set *cache_row_span(const struct cache *c, long cpu);

void cache_init(struct cache *c);
void cache_free(struct cache *c);

/*
 * Fold one backend sample (sorted by CPU) into the cache at uptime `now`
 * (TimeTicks).  Returns true when a discontinuity was recorded, with the
 * reason in c->last_discontinuity.  Returns -1 only when out of memory, in
 * which case the cache is unchanged.
 */
int cache_update(struct cache *c, const struct sample *s, uint32_t now);
/*
 * The clock the TimeStamps (last poll, discontinuity) were taken on
 * restarted (a new master's sysUpTime): they read 0, "before the last
 * re-initialization" (RFC 2579), until the next event.
 */
void cache_timestamps_reset(struct cache *c);

/* Row of a CPU, by binary search; NULL if absent. */
const struct cpu_row *cache_row(const struct cache *c, unsigned cpu);
/* Index of the first row whose CPU number is > cpu (== nrows if none). */
size_t cache_row_after(const struct cache *c, unsigned long cpu);

#endif
