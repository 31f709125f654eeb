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

#include "cache/cache_group.h"
#include "cache/cache_span.h"
#include "cache/sample.h"

struct alarm_set;

/* CPU_ENDED: the recording ended (replay, pcp archive): values held. */
enum cpu_status { CPU_COUNTING = 1, CPU_STOPPED = 2, CPU_ENDED = 3 };

struct cpu_row {
	unsigned cpu;
	enum cpu_status status;
	uint32_t epoch;
	bool have_raw;
	uint64_t raw[COUNTER_COUNT];   /* last backend reading */
	uint64_t delta[COUNTER_COUNT]; /* last interval's delta */
	bool delta_valid; /* no event voided the whole row's deltas */
	/* Cells with no reading or restarted at this poll, and the time
	 * each cell's and statistic's delta covers (cache_span.h). */
	struct span_set span;
	uint64_t time_enabled, time_running; /* served, accumulated */
	uint64_t raw_enabled, raw_running;
	unsigned duty_cycle; /* percent, last interval */
	long group;	     /* its CPU group's position, -1: none */
	uint32_t disc_time;  /* TimeTicks of its last discontinuity */
};

/* A CPU that left the table, as it was: its row and offset come back
 * with it. */
struct gone_row {
	struct cpu_row row;
	uint64_t offset[COUNTER_COUNT];
};

struct cache {
	struct cpu_row *rows; /* sorted by cpu */
	size_t nrows;
	struct gone_row *gone; /* the CPUs that left, sorted by cpu */
	size_t ngone, gone_cap;
	/*
	 * A row's served value is raw + offset (cache_cpu_row_value), the offset
	 * kept apart from the rows: a steady poll (every second, thousands
	 * of CPUs, memory-bound) then streams only raw and delta; the offset
	 * changes when a CPU's counting restarts.
	 */
	uint64_t (*offset)[COUNTER_COUNT]; /* nrows, parallel to rows */
	uint64_t total[COUNTER_COUNT];
	uint64_t total_delta[COUNTER_COUNT];
	bool total_delta_valid; /* no event voided every sum's delta */
	/* A sum has no reading when one of its CPUs (or the system-wide
	 * source) has none, restarted when one of them did. */
	struct span_set total_span;
	/* No row's span set carried anything after the last poll: a poll
	 * with nothing unread, reset or restarted skips them (the 4096-CPU
	 * poll then reads no span field). */
	bool spans_quiet;
	/* Counters whose sum had a live source in the last poll: a CPU
	 * counting, or a current system-wide reading.  Without one (pmcd
	 * lost, every CPU stopped, the recording ended) the summed rate and
	 * delta are unknown: no instance, never a zero. */
	counter_mask total_live;
	counter_mask counted;
	counter_mask system_wide; /* counted, but with no per-CPU values */
	uint64_t total_raw[COUNTER_COUNT]; /* last system-wide reading */
	uint32_t total_epoch;
	bool have_total_raw;
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
	uint32_t last_poll_time; /* TimeTicks; 0 = never */
	uint32_t discontinuity_time;
	uint32_t polls;		      /* readings folded in */
	char last_discontinuity[256]; /* why, for the log (truncated) */
	uint64_t sample_time_ns;      /* backend clock of the last poll */
	uint64_t interval_ns;	      /* since the poll before; 0 = unknown */
	/* The time the counters cover: the sum of the known intervals
	 * (hwR10kEvCtrCountingTime). */
	uint64_t counting_ns;
	/* The next poll reads another clock (a new backend): its interval
	 * is unknown. */
	bool clock_restarted;
	/* The CPU groups (cache_group.h): as the last poll folded them,
	 * their sums (groups.n), and the pass's scratch. */
	struct cpu_groups groups;
	struct group_sum *gsum;
	struct group_pass *gpass;
	bool groups_changed; /* since the last pass: every group restarts */
};

/* Where a value is read: a CPU (>= 0), the sum, or a group's sum. */
#define CACHE_SUM	    (-1L)
#define CACHE_GROUP(g)	    (-2L - (long)(g))
#define CACHE_IS_GROUP(w)   ((w) <= -2L)
#define CACHE_GROUP_OF(w)   ((size_t)(-2L - (w)))

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
/*
 * The module's discontinuity time moved from old_disc to new_disc (put
 * on another master's sysUpTime, agent/stamps.c): every CPU's and
 * group's moves with it, keeping its distance before it (0 when that
 * falls before the new master's re-initialization, or was 0).
 */
void cache_restamp(struct cache *c, uint32_t old_disc, uint32_t new_disc);

/* Row of a CPU, by binary search; NULL if absent. */
const struct cpu_row *cache_row(const struct cache *c, unsigned cpu);
/* Index of the first row whose CPU number is > cpu (== nrows if none). */
size_t cache_row_after(const struct cache *c, unsigned long cpu);

/* The value served for counter k of row r of c (wraps as a Counter64). */
static inline uint64_t cache_cpu_row_value(const struct cache *c,
				     const struct cpu_row *r, int k)
{
	return r->raw[k] + c->offset[r - c->rows][k];
}

static inline bool cache_counted(const struct cache *c, int counter)
{
	return (c->counted & COUNTER_BIT(counter)) != 0;
}
/* Counted with a value per CPU (not system-wide only). */
static inline bool cache_counted_per_cpu(const struct cache *c, int counter)
{
	return ((c->counted & ~c->system_wide) & COUNTER_BIT(counter)) != 0;
}

#endif
