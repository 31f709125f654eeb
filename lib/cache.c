/* cache.c - folds backend samples into monotonic 64-bit counters. */
#include "cache.h"

#include <limits.h>

#include "sorted.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cache_init(struct cache *c)
{
	memset(c, 0, sizeof(*c));
	c->state = -1;
	snprintf(c->cpurev, sizeof(c->cpurev), "unknown");
}

void cache_free(struct cache *c)
{
	free(c->rows);
	free(c->offset);
	c->rows = NULL;
	c->offset = NULL;
	c->nrows = 0;
}

static long long row_key(const void *e)
{
	return ((const struct cpu_row *)e)->cpu;
}

size_t cache_row_after(const struct cache *c, unsigned long cpu)
{
	if (cpu >= UINT_MAX) /* CPU numbers are unsigned: none after it */
		return c->nrows;
	return sorted_lower_bound(c->rows, c->nrows, sizeof(*c->rows), row_key,
				  (long long)cpu + 1);
}

const struct cpu_row *cache_row(const struct cache *c, unsigned cpu)
{
	size_t i = cache_row_after(c, cpu);
	if (i > 0 && c->rows[i - 1].cpu == cpu)
		return &c->rows[i - 1];
	return NULL;
}

/* Record why (every reason of this pass, as far as the buffer goes). */
#define NOTE(...)                                                              \
	do {                                                                   \
		size_t used_ = disc ? strlen(c->last_discontinuity) : 0;       \
		if (used_ + 3 < sizeof(c->last_discontinuity))                 \
			snprintf(c->last_discontinuity + used_,                \
				 sizeof(c->last_discontinuity) - used_, "%s",  \
				 disc ? "; " : "");                            \
		used_ = strlen(c->last_discontinuity);                         \
		snprintf(c->last_discontinuity + used_,                        \
			 sizeof(c->last_discontinuity) - used_, __VA_ARGS__);  \
		disc = true;                                                   \
	} while (0)

#define ALL_COUNTERS ((counter_mask)((UINT64_C(1) << COUNTER_COUNT) - 1))

static uint64_t advance(uint64_t *raw, uint64_t now, bool restarted)
{
	uint64_t d = restarted || now < *raw ? now : now - *raw;
	*raw = now;
	return d;
}

enum fold_event {
	FOLD_STEADY,
	FOLD_STOPPED,
	FOLD_RESUMED,
	FOLD_RESTARTED,
	FOLD_RESET
};

/* One mask word per counter: all ones when it is counted per CPU. */
static void counter_masks(counter_mask counted, uint64_t *mask)
{
	for (int i = 0; i < COUNTER_COUNT; i++)
		mask[i] = counted & COUNTER_BIT(i) ? UINT64_MAX : 0;
}

/*
 * The counter loop of a CPU (most of the agent's idle cost: 4096 CPUs x 31
 * counters every second).  The delta is the reading itself after a
 * restart (restarted, inlined as a constant) or a drop, else the
 * difference; then the reading before it moves into the offset, so that
 * the value goes on from where it was.  A steady poll touches only raw
 * and delta.  A counter that is not counted (mask 0) adds nothing;
 * fold_cpu puts its raw reading and last delta back.  Returns whether a
 * counted reading dropped.
 */
static inline __attribute__((always_inline)) bool
fold_counters(struct cpu_row *r, uint64_t *offset, const uint64_t *now,
	      const uint64_t *mask, uint64_t *sum, bool restarted)
{
	uint64_t lower = 0;

	for (int i = 0; i < COUNTER_COUNT; i++) {
		uint64_t raw = r->raw[i], d;
		if (restarted) {
			d = now[i] & mask[i];
			offset[i] += raw & mask[i];
		} else {
			bool below = now[i] < raw;
			d = (below ? now[i] : now[i] - raw) & mask[i];
			if (below && mask[i]) { /* rare: a reset */
				lower = 1;
				offset[i] += raw;
			}
		}
		r->raw[i] = now[i];
		r->delta[i] = d;
		sum[i] += d;
	}
	return lower != 0;
}

/* Fold one CPU's reading into its row; says what happened to it. */
static enum fold_event fold_cpu(struct cpu_row *r, uint64_t *offset,
				const struct cpu_sample *s, const uint64_t *mask,
				counter_mask skip, uint64_t *sum)
{
	enum fold_event ev = FOLD_STEADY;
	uint64_t kept_raw[COUNTER_COUNT], kept_delta[COUNTER_COUNT];

	if (!s->counting) {
		if (r->status == CPU_COUNTING && r->have_raw)
			ev = FOLD_STOPPED;
		r->status = CPU_STOPPED;
		r->have_raw = false;
		r->delta_valid = false;
		r->duty_cycle = 0;
		return ev;
	}
	bool restarted = !r->have_raw || r->epoch != s->epoch;
	if (r->status == CPU_STOPPED)
		ev = FOLD_RESUMED;
	else if (restarted)
		ev = FOLD_RESTARTED; /* counts since the last read are lost */
	for (counter_mask b = skip; b; b &= b - 1) {
		int i = __builtin_ctzll(b);
		kept_raw[i] = r->raw[i];
		kept_delta[i] = r->delta[i];
	}
	if (restarted)
		fold_counters(r, offset, s->value, mask, sum, true);
	else if (fold_counters(r, offset, s->value, mask, sum, false))
		ev = FOLD_RESET; /* the backend reset without saying so */
	for (counter_mask b = skip; b; b &= b - 1) {
		int i = __builtin_ctzll(b);
		r->raw[i] = kept_raw[i];
		r->delta[i] = kept_delta[i];
	}
	uint64_t de = advance(&r->raw_enabled, s->time_enabled, restarted);
	uint64_t dr = advance(&r->raw_running, s->time_running, restarted);
	r->time_enabled += de;
	r->time_running += dr;
	r->duty_cycle = dr >= de ? 100 : (unsigned)(dr * 100 / de);
	r->delta_valid = ev == FOLD_STEADY;
	r->epoch = s->epoch;
	r->have_raw = true;
	r->status = CPU_COUNTING;
	return ev;
}

/* The deltas of the system-wide counters into sum; true when their
 * reading restarted (new epoch, or lower than the last) after one before. */
static bool fold_system_wide(struct cache *c, const struct sample *s,
			     uint64_t *sum)
{
	if (!s->system_wide) {
		c->have_total_raw = false;
		return false;
	}
	bool restarted = !c->have_total_raw || c->total_epoch != s->total_epoch;
	bool reset = false;
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (!(s->system_wide & COUNTER_BIT(i)))
			continue;
		if (!restarted && s->total[i] < c->total_raw[i])
			reset = true;
		sum[i] = advance(&c->total_raw[i], s->total[i], restarted);
	}
	bool had = c->have_total_raw;
	c->total_epoch = s->total_epoch;
	c->have_total_raw = true;
	return had && (restarted || reset);
}

/* The sample has exactly the cache's CPUs, the usual poll: the rows are
 * folded in place, with no allocation or copy. */
static bool same_cpus(const struct cache *c, const struct sample *s)
{
	if (s->ncpus == 0 || s->ncpus != c->nrows)
		return false;
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i].cpu != c->rows[i].cpu)
			return false;
	return true;
}

/* Fold every CPU of s into rows and offset (c's own, or new arrays
 * matched against c's by CPU number); disc: a reason was noted in this
 * pass already.  Returns disc, or true when a discontinuity was noted. */
static bool fold_rows(struct cache *c, const struct sample *s,
		      struct cpu_row *rows, uint64_t (*offset)[COUNTER_COUNT],
		      uint64_t *sum, bool first, bool disc)
{
	size_t old = 0;
	uint64_t mask[COUNTER_COUNT];
	counter_mask per_cpu = s->counted & ~s->system_wide;

	counter_masks(per_cpu, mask);
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct cpu_sample *cs = &s->cpus[i];
		while (old < c->nrows && c->rows[old].cpu < cs->cpu) {
			NOTE("CPU %u left the table", c->rows[old].cpu);
			old++;
		}
		bool joined = !(old < c->nrows && c->rows[old].cpu == cs->cpu);
		if (!joined) {
			if (rows != c->rows) {
				rows[i] = c->rows[old];
				memcpy(offset[i], c->offset[old],
				       sizeof(offset[i]));
			}
			old++;
		} else {
			rows[i].cpu = cs->cpu;
			rows[i].status = CPU_STOPPED;
			if (!first)
				NOTE("CPU %u joined the table", cs->cpu);
		}
		enum fold_event ev =
		    fold_cpu(&rows[i], offset[i], cs, mask,
			     ~per_cpu & ALL_COUNTERS, sum);
		if (first || joined)
			continue;
		if (ev == FOLD_STOPPED)
			NOTE("CPU %u stopped counting", cs->cpu);
		else if (ev == FOLD_RESUMED)
			NOTE("CPU %u resumed counting", cs->cpu);
		else if (ev == FOLD_RESTARTED)
			NOTE("CPU %u restarted counting", cs->cpu);
		else if (ev == FOLD_RESET)
			NOTE("CPU %u counts went backwards (reset)", cs->cpu);
	}
	for (; old < c->nrows; old++)
		NOTE("CPU %u left the table", c->rows[old].cpu);
	return disc;
}

int cache_update(struct cache *c, const struct sample *s, uint32_t now)
{
	bool same = same_cpus(c, s);
	size_t n = s->ncpus ? s->ncpus : 1;
	struct cpu_row *rows = same ? c->rows : calloc(n, sizeof(*rows));
	uint64_t(*offset)[COUNTER_COUNT] =
	    same ? c->offset : calloc(n, sizeof(*offset));
	uint64_t sum[COUNTER_COUNT] = {0};
	bool first = c->polls == 0, disc = false;

	if (!rows || !offset) {
		if (!same) {
			free(rows);
			free(offset);
		}
		return -1;
	}
	if (!first &&
	    (s->counted != c->counted || s->system_wide != c->system_wide))
		NOTE("the set of counted events changed");
	disc = fold_rows(c, s, rows, offset, sum, first, disc);
	if (fold_system_wide(c, s, sum) && !first)
		NOTE("the system-wide counts restarted");

	for (int i = 0; i < COUNTER_COUNT; i++) {
		c->total[i] += sum[i];
		c->total_delta[i] = sum[i];
	}
	c->total_delta_valid = !first && !disc;
	if (rows != c->rows) {
		free(c->rows);
		free(c->offset);
		c->rows = rows;
		c->offset = offset;
	}
	c->nrows = s->ncpus;
	c->counted = s->counted;
	c->system_wide = s->system_wide;
	c->interval_ns = !first && s->time_ns > c->sample_time_ns
			     ? s->time_ns - c->sample_time_ns
			     : 0;
	c->sample_time_ns = s->time_ns;
	c->state = s->state;
	snprintf(c->cpurev, sizeof(c->cpurev), "%s", s->cpurev);
	c->polls++;
	c->last_poll_time = now;
	if (disc)
		c->discontinuity_time = now;
	return disc;
}

/* delta (and its validity) of the sum or of one CPU's row */
static enum sample_status last_delta(const struct cache *c, int counter,
				     long cpu, uint64_t *delta, uint64_t *value)
{
	if (counter < 0 || counter >= COUNTER_COUNT ||
	    !cache_counted(c, counter) || c->polls < 2)
		return SAMPLE_NONE;
	if (cpu < 0) {
		*delta = c->total_delta[counter];
		*value = c->total[counter];
		return c->total_delta_valid ? SAMPLE_OK : SAMPLE_DISCONTINUITY;
	}
	if (!cache_counted_per_cpu(c, counter))
		return SAMPLE_NONE;
	const struct cpu_row *r = cache_row(c, (unsigned)cpu);
	if (!r || r->status != CPU_COUNTING)
		return r ? SAMPLE_DISCONTINUITY : SAMPLE_NONE;
	*delta = r->delta[counter];
	*value = cpu_row_value(c, r, counter);
	return r->delta_valid ? SAMPLE_OK : SAMPLE_DISCONTINUITY;
}

enum sample_status cache_rate(const struct cache *c, int counter, long cpu,
			      uint64_t *rate)
{
	uint64_t delta, value;
	enum sample_status st = last_delta(c, counter, cpu, &delta, &value);
	if (st != SAMPLE_OK)
		return st;
	if (c->interval_ns == 0)
		return SAMPLE_DISCONTINUITY;
	unsigned __int128 r =
	    (unsigned __int128)delta * 1000000000u / c->interval_ns;
	*rate = r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
	return SAMPLE_OK;
}

enum sample_status cache_delta(const struct cache *c, int counter, long cpu,
			       uint64_t *delta)
{
	uint64_t value;
	return last_delta(c, counter, cpu, delta, &value);
}

enum sample_status cache_value(const struct cache *c, int counter, long cpu,
			       uint64_t *value)
{
	uint64_t delta;
	return last_delta(c, counter, cpu, &delta, value);
}
