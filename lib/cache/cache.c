/* cache.c - folds backend samples into monotonic 64-bit counters. */
#include "cache/cache.h"

#include <limits.h>

#include "cache/cache_fold.h"
#include "cache/cache_gone.h"
#include "util/sorted.h"

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
	for (size_t i = 0; i < c->nrows; i++)
		cache_span_free(&c->rows[i].span);
	for (size_t i = 0; i < c->ngone; i++)
		cache_span_free(&c->gone[i].row.span);
	cache_span_free(&c->total_span);
	cache_groups_free(c);
	free(c->rows);
	free(c->offset);
	free(c->gone);
	c->rows = NULL;
	c->offset = NULL;
	c->gone = NULL;
	c->nrows = c->ngone = c->gone_cap = 0;
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

/* What one pass over the rows found, for the sums. */
struct pass {
	bool first;
	bool whole;		     /* a CPU event: every sum's delta void */
	bool all; /* every row's and group's deltas void (counted set) */
	uint32_t now;
	/* a counting CPU's cells, for their sums: unread, reset, or read
	 * with no base (a first reading) */
	counter_mask unread, reset, no_base;
	bool quiet; /* every row's span set was quiet before this pass */
	bool busy;  /* ... and one is not after it */
	uint64_t prev_ns;	     /* the poll before (first: none) */
};

/* Name the restarted cells of a row (the first, and how many more). */
static bool note_reset(struct cache *c, bool disc, unsigned cpu,
		       counter_mask reset)
{
	int k = __builtin_ctzll(reset);
	int more = __builtin_popcountll(reset) - 1;
	if (more > 0)
		NOTE("CPU %u %s and %d more went backwards (reset)", cpu,
		     meta_counters[k].fullname, more);
	else
		NOTE("CPU %u %s went backwards (reset)", cpu,
		     meta_counters[k].fullname);
	return disc;
}

/* The row's cells at this poll: which have a delta, over what time. */
static void fold_span(struct cpu_row *r, const uint64_t *offset,
		      const struct cpu_sample *cs, counter_mask per_cpu,
		      counter_mask reset, bool invalid, struct pass *ps)
{
	if (r->status != CPU_COUNTING) {
		cache_span_clear(&r->span);
		return;
	}
	if (ps->quiet && !invalid && !reset && !(cs->unread & per_cpu))
		return; /* quiet, and nothing happened to it */
	struct span_poll p = {
	    .counted = per_cpu,
	    .unread = cs->unread,
	    .reset = reset,
	    .invalid = invalid,
	    .raw = r->raw,
	    .offset = offset,
	    .delta = r->delta,
	    .prev_ns = ps->prev_ns,
	};
	cache_span_fold(&r->span, &p);
	ps->unread |= r->span.unread;
	ps->reset |= r->span.reset;
	ps->no_base |= r->span.bad & ~r->span.unread & ~r->span.reset;
	if (!cache_span_quiet(&r->span))
		ps->busy = true;
}

/* Fold every CPU of s into rows and offset (c's own, or new arrays
 * matched against c's by CPU number); disc: a reason was noted in this
 * pass already.  Returns disc, or true when a discontinuity was noted. */
/* Say what became of a CPU's row at this pass (a discontinuity). */
static bool note_event(struct cache *c, bool disc, unsigned cpu,
		       enum fold_event ev, counter_mask reset)
{
	if (ev == FOLD_STOPPED)
		NOTE("CPU %u stopped counting", cpu);
	else if (ev == FOLD_RESUMED)
		NOTE("CPU %u resumed counting", cpu);
	else if (ev == FOLD_RESTARTED)
		NOTE("CPU %u restarted counting", cpu);
	else if (ev == FOLD_RESET)
		disc = note_reset(c, disc, cpu, reset);
	return disc;
}

/* The rows of the table before CPU cpu (every one left: cpu UINT_MAX)
 * leave it: into the gone list, the pass whole, a discontinuity
 * (*noted, NOTE's disc). */
static void rows_left(struct cache *c, size_t *old, unsigned long cpu,
		      struct pass *ps, bool *noted)
{
	bool disc = *noted;
	for (; *old < c->nrows && c->rows[*old].cpu < cpu; (*old)++) {
		NOTE("CPU %u left the table", c->rows[*old].cpu);
		ps->whole = true;
		cache_group_event(c, c->rows[*old].group, true);
		cache_gone_add(c, &c->rows[*old], c->offset[*old]);
	}
	*noted = disc;
}

/* CPU cs's row into *row and *offset: the table's (old moves on), a
 * departed one's come back (*returned), or a new one; true when it was
 * not in the table. */
static bool row_of(struct cache *c, const struct cpu_sample *cs, size_t *old,
		   struct cpu_row *row, uint64_t *offset, bool first,
		   bool *returned, bool *noted)
{
	bool disc = *noted;
	*returned = false;
	if (*old < c->nrows && c->rows[*old].cpu == cs->cpu) {
		if (row != &c->rows[*old]) {
			*row = c->rows[*old];
			memcpy(offset, c->offset[*old],
			       sizeof(c->offset[*old]));
		}
		(*old)++;
		return false;
	}
	if (cache_gone_take(c, cs->cpu, row, offset)) {
		*returned = true;
		NOTE("CPU %u returned to the table", cs->cpu);
	} else {
		row->cpu = cs->cpu;
		row->status = CPU_STOPPED;
		if (!first)
			NOTE("CPU %u joined the table", cs->cpu);
	}
	*noted = disc;
	return true;
}

static bool fold_rows(struct cache *c, const struct sample *s,
		      struct cpu_row *rows, uint64_t (*offset)[COUNTER_COUNT],
		      uint64_t *sum, struct pass *ps, bool disc)
{
	size_t old = 0;
	uint64_t mask[COUNTER_COUNT];
	counter_mask per_cpu = s->counted & ~s->system_wide;
	bool first = ps->first, returned;

	cache_counter_masks(per_cpu, mask);
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct cpu_sample *cs = &s->cpus[i];
		rows_left(c, &old, cs->cpu, ps, &disc);
		bool joined = row_of(c, cs, &old, &rows[i], offset[i], first,
				     &returned, &disc);
		if (joined)
			rows[i].group =
			    util_cpu_groups_find(&c->groups, cs->cpu);
		long g = rows[i].group;
		counter_mask reset = 0;
		enum fold_event ev = cache_fold_cpu(
		    &rows[i], offset[i], cs, mask, ~per_cpu & ALL_COUNTERS,
		    g >= 0 ? c->gpass[g].sum : sum, s->ended, &reset);
		if (returned) /* its delta spans its absence: no rate */
			rows[i].delta_valid = false;
		fold_span(&rows[i], offset[i], cs, per_cpu, reset,
			  !rows[i].delta_valid || first, ps);
		cache_group_row(c, &rows[i]);
		if (first || ps->all || joined || ev != FOLD_STEADY)
			rows[i].disc_time = ps->now;
		if (first)
			continue;
		bool whole = joined || returned ||
			     (ev != FOLD_STEADY && ev != FOLD_RESET);
		if (whole)
			ps->whole = true;
		if (whole || ev == FOLD_RESET)
			cache_group_event(c, g, whole);
		if (!joined)
			disc = note_event(c, disc, cs->cpu, ev, reset);
	}
	rows_left(c, &old, UINT_MAX, ps, &disc);
	return disc;
}

/* The sums of this pass into the totals, and their span set. */
static void fold_totals(struct cache *c, const struct sample *s,
			const uint64_t *sum, const struct pass *ps,
			counter_mask sw_reset, bool first)
{
	for (int i = 0; i < COUNTER_COUNT; i++) {
		c->total[i] += sum[i];
		c->total_delta[i] = sum[i];
	}
	c->total_delta_valid = !first && !ps->whole;
	struct span_poll tp = {
	    .counted = s->counted,
	    .unread = ps->unread | (s->total_unread & s->system_wide),
	    .reset = ps->reset | sw_reset,
	    .no_base = ps->no_base,
	    .invalid = !c->total_delta_valid,
	    .raw = c->total,
	    .delta = c->total_delta,
	    .prev_ns = ps->prev_ns,
	};
	cache_span_fold(&c->total_span, &tp);
}

void cache_timestamps_reset(struct cache *c)
{
	cache_restamp(c, c->discontinuity_time, 0);
	c->last_poll_time = 0;
	c->discontinuity_time = 0;
}

void cache_clock_restart(struct cache *c)
{
	c->clock_restarted = true;
}

/* The new rows and the sample's facts become the table's. */
static void adopt(struct cache *c, const struct sample *s,
		  struct cpu_row *rows, uint64_t (*offset)[COUNTER_COUNT],
		  uint32_t now, bool disc)
{
	bool first = c->polls == 0;
	if (rows != c->rows) {
		free(c->rows);
		free(c->offset);
		c->rows = rows;
		c->offset = offset;
	}
	c->nrows = s->ncpus;
	c->counted = s->counted;
	c->system_wide = s->system_wide;
	c->interval_ns =
	    !first && !c->clock_restarted && s->time_ns > c->sample_time_ns
		? s->time_ns - c->sample_time_ns
		: 0;
	c->clock_restarted = false;
	c->counting_ns += c->interval_ns;
	c->sample_time_ns = s->time_ns;
	c->state = s->state;
	snprintf(c->cpurev, sizeof(c->cpurev), "%s", s->cpurev);
	c->polls++;
	c->last_poll_time = now;
	if (disc)
		c->discontinuity_time = now;
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

	if (!rows || !offset || cache_gone_reserve(c) != 0) {
		if (!same) {
			free(rows);
			free(offset);
		}
		return -1;
	}
	struct pass ps = {.first = first,
			  .prev_ns = first ? 0 : c->sample_time_ns,
			  .quiet = c->spans_quiet,
			  .now = now};
	if (!first &&
	    (s->counted != c->counted || s->system_wide != c->system_wide)) {
		NOTE("the set of counted events changed");
		ps.whole = ps.all = true;
	}
	if (c->groups_changed && !first)
		NOTE("the CPU groups changed");
	cache_groups_begin(c);
	disc = fold_rows(c, s, rows, offset, sum, &ps, disc);
	c->spans_quiet = !ps.busy;
	struct group_end ge = {s, rows, sum, first, ps.all, ps.prev_ns, now};
	cache_groups_end(c, &ge);
	counter_mask sw_reset;
	if (cache_fold_system_wide(c, s, sum, &sw_reset) && !first) {
		NOTE("the system-wide counts restarted");
		ps.whole = true;
	}
	if (sw_reset && !first)
		NOTE("the system-wide counts went backwards (reset)");

	fold_totals(c, s, sum, &ps, sw_reset, first);
	c->total_live = cache_live_counters(s, rows);
	adopt(c, s, rows, offset, now, disc);
	return disc;
}
