/*
 * cache_fold.c - one CPU's row folded into the cache at a poll: each
 * counted cell advanced from its last raw reading (a wrap, a restart, a
 * reset seen), its enabled and running times, and what became of the
 * row (steady, stopped, resumed, restarted, a cell reset).  cache.c runs
 * it over the rows and sums.
 */
#include "cache/cache_fold.h"

#include <string.h>

uint64_t cache_advance(uint64_t *raw, uint64_t now, bool restarted)
{
	uint64_t d = restarted || now < *raw ? now : now - *raw;
	*raw = now;
	return d;
}


/* One mask word per counter: all ones when it is counted per CPU. */
void cache_counter_masks(counter_mask counted, uint64_t *mask)
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
 * cache_fold_cpu puts its raw reading and last delta back.  Returns the counted
 * readings that dropped.
 */
static inline __attribute__((always_inline)) counter_mask
fold_counters(struct cpu_row *r, uint64_t *offset, const uint64_t *now,
	      const uint64_t *mask, uint64_t *sum, bool restarted)
{
	counter_mask lower = 0;

	for (int i = 0; i < COUNTER_COUNT; i++) {
		uint64_t raw = r->raw[i], d;
		if (restarted) {
			d = now[i] & mask[i];
			offset[i] += raw & mask[i];
		} else {
			bool below = now[i] < raw;
			d = (below ? now[i] : now[i] - raw) & mask[i];
			if (below && mask[i]) { /* rare: a reset */
				lower |= COUNTER_BIT(i);
				offset[i] += raw;
			}
		}
		r->raw[i] = now[i];
		r->delta[i] = d;
		sum[i] += d;
	}
	return lower;
}

/* Fold one CPU's reading into its row; says what happened to it, and
 * in *reset the cells that restarted (FOLD_RESET). */
/* A CPU whose recording ended, or that does not count: its row says so;
 * true when that was the case, with its event in *ev. */
static bool fold_quiet(struct cpu_row *r, const struct cpu_sample *s,
		       bool ended, enum fold_event *ev)
{
	if (ended && s->counting && r->have_raw) {
		/* the recording ended: the values stand, time stands */
		r->status = CPU_ENDED;
		*ev = FOLD_STEADY;
	} else if (!s->counting) {
		*ev = r->status == CPU_COUNTING && r->have_raw ? FOLD_STOPPED
							      : FOLD_STEADY;
		r->status = CPU_STOPPED;
		r->have_raw = false;
	} else {
		return false;
	}
	r->delta_valid = false;
	r->duty_cycle = 0;
	return true;
}

/* The times enabled and running since the last reading, the duty cycle. */
static void fold_times(struct cpu_row *r, const struct cpu_sample *s,
		       bool restarted)
{
	uint64_t de = cache_advance(&r->raw_enabled, s->time_enabled, restarted);
	uint64_t dr = cache_advance(&r->raw_running, s->time_running, restarted);
	r->time_enabled += de;
	r->time_running += dr;
	r->duty_cycle = dr >= de ? 100 : (unsigned)(dr * 100 / de);
}

enum fold_event cache_fold_cpu(struct cpu_row *r, uint64_t *offset,
				const struct cpu_sample *s, const uint64_t *mask,
				counter_mask skip, uint64_t *sum, bool ended,
				counter_mask *reset)
{
	enum fold_event ev = FOLD_STEADY;
	uint64_t kept_raw[COUNTER_COUNT], kept_delta[COUNTER_COUNT];

	if (fold_quiet(r, s, ended, &ev))
		return ev;
	bool restarted = !r->have_raw || r->epoch != s->epoch;
	if (r->status != CPU_COUNTING)
		ev = FOLD_RESUMED;
	else if (restarted)
		ev = FOLD_RESTARTED; /* counts since the last read are lost */
	for (counter_mask b = skip; b; b &= b - 1) {
		int i = __builtin_ctzll(b);
		kept_raw[i] = r->raw[i];
		kept_delta[i] = r->delta[i];
	}
	*reset = 0;
	if (restarted)
		fold_counters(r, offset, s->value, mask, sum, true);
	else {
		counter_mask lowered =
		    fold_counters(r, offset, s->value, mask, sum, false);
		if (ev == FOLD_STEADY && (lowered | (s->reset & ~skip))) {
			*reset = lowered | (s->reset & ~skip);
			ev = FOLD_RESET; /* its cells only: the others count */
		}
	}
	for (counter_mask b = skip; b; b &= b - 1) {
		int i = __builtin_ctzll(b);
		r->raw[i] = kept_raw[i];
		r->delta[i] = kept_delta[i];
	}
	fold_times(r, s, restarted);
	r->delta_valid = ev == FOLD_STEADY || ev == FOLD_RESET;
	r->epoch = s->epoch;
	r->have_raw = true;
	r->status = CPU_COUNTING;
	return ev;
}

/* The deltas of the system-wide counters into sum; true when their
 * reading restarted (new epoch) after one before; *reset: the counters
 * whose reading went backwards or that the backend says were reset. */
bool cache_fold_system_wide(struct cache *c, const struct sample *s,
			     uint64_t *sum, counter_mask *reset)
{
	*reset = 0;
	if (s->ended && c->have_total_raw)
		return false; /* held: nothing counted, nothing lost */
	if (!s->system_wide || s->system_wide_stopped) {
		c->have_total_raw = false;
		return false;
	}
	bool restarted = !c->have_total_raw || c->total_epoch != s->total_epoch;
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (!(s->system_wide & COUNTER_BIT(i)))
			continue;
		if (!restarted && s->total[i] < c->total_raw[i])
			*reset |= COUNTER_BIT(i);
		sum[i] = cache_advance(&c->total_raw[i], s->total[i], restarted);
	}
	if (!restarted)
		*reset |= s->total_reset & s->system_wide;
	bool had = c->have_total_raw;
	c->total_epoch = s->total_epoch;
	c->have_total_raw = true;
	return had && restarted;
}

/* The counters whose sum had a live source in this poll. */
counter_mask cache_live_counters(const struct sample *s,
				  const struct cpu_row *rows)
{
	counter_mask live = 0;
	counter_mask per_cpu = s->counted & ~s->system_wide;

	for (size_t i = 0; i < s->ncpus; i++)
		if (rows[i].status == CPU_COUNTING) {
			live |= per_cpu;
			break;
		}
	if (!s->ended && !s->system_wide_stopped)
		live |= s->system_wide & s->counted;
	return live;
}
