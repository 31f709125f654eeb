/*
 * cache_data.h - the cache's data: each CPU's row, the CPUs that left,
 * the CPU groups' sums and the totals, as cache.c and cache_group.c fold
 * a poll into them and requests read them (cache.h: what is done with
 * it).  Both halves of the fold include it; neither includes the other's
 * header for it.
 */
#ifndef HWR10K_CACHE_DATA_H
#define HWR10K_CACHE_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache_span.h"
#include "cache/sample.h"
#include "util/cpugroups.h"

struct group_sum {
	uint64_t total[COUNTER_COUNT];
	uint64_t delta[COUNTER_COUNT];
	bool delta_valid;
	struct span_set span;
	counter_mask live; /* a CPU of it counting: its sums are known */
	unsigned counting; /* its CPUs counting at the last poll */
	uint32_t disc_time;
};

/* One pass's findings for a group. */
struct group_pass {
	uint64_t sum[COUNTER_COUNT];
	bool whole; /* a CPU event: every delta of the group void */
	bool event; /* a discontinuity of the group (whole, or a reset) */
	counter_mask unread, reset, no_base;
};

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
	 * A row's served value is raw + offset (cache_cpu_row_value), the
	 * offset kept apart from the rows: a steady poll (every second,
	 * thousands of CPUs, memory-bound) then streams only raw and delta; the
	 * offset changes when a CPU's counting restarts.
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
#define CACHE_SUM	  (-1L)
#define CACHE_GROUP(g)	  (-2L - (long)(g))
#define CACHE_IS_GROUP(w) ((w) <= -2L)
#define CACHE_GROUP_OF(w) ((size_t)(-2L - (w)))

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
