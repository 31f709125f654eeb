/*
 * cache_read.c - what the cache serves: its rows by CPU, and each cell's
 * value, delta and rate over the last poll (or over the time since its
 * last reading), with why there is none (cache.h's sample_status).  The
 * folding of samples is cache.c's.
 */
#include "cache/cache.h"

#include <limits.h>

#include "cache/cache_span.h"
#include "util/sorted.h"

static long long row_key(const void *e)
{
	return ((const struct cpu_row *)e)->cpu;
}

size_t cache_row_after(const struct cache *c, unsigned long cpu)
{
	if (cpu >= UINT_MAX) /* CPU numbers are unsigned: none after it */
		return c->nrows;
	return util_sorted_lower_bound(c->rows, c->nrows, sizeof(*c->rows), row_key,
				  (long long)cpu + 1);
}

const struct cpu_row *cache_row(const struct cache *c, unsigned cpu)
{
	size_t i = cache_row_after(c, cpu);
	if (i > 0 && c->rows[i - 1].cpu == cpu)
		return &c->rows[i - 1];
	return NULL;
}

const struct span_set *cache_row_span(const struct cache *c, long cpu)
{
	if (CACHE_IS_GROUP(cpu))
		return CACHE_GROUP_OF(cpu) < c->groups.n
			   ? &c->gsum[CACHE_GROUP_OF(cpu)].span
			   : NULL;
	if (cpu < 0)
		return &c->total_span;
	const struct cpu_row *r = cache_row(c, (unsigned)cpu);
	return r ? &r->span : NULL;
}

/* What the span set says of a cell whose row or sum has valid deltas. */
static enum sample_status cell_status(const struct span_set *sp, int k)
{
	counter_mask bit = COUNTER_BIT(k);
	if (!(sp->bad & bit))
		return SAMPLE_OK;
	return sp->reset & bit ? SAMPLE_DISCONTINUITY : SAMPLE_UNREAD;
}

/* delta (and its validity) of a group's sum */
static enum sample_status group_delta(const struct cache *c, int counter,
				      size_t g, uint64_t *delta,
				      uint64_t *value,
				      const struct span_set **span)
{
	if (g >= c->groups.n || !cache_counted_per_cpu(c, counter))
		return SAMPLE_NONE;
	const struct group_sum *gs = &c->gsum[g];
	if (!(gs->live & COUNTER_BIT(counter)))
		return SAMPLE_NONE; /* no CPU of it counting: unknown */
	*delta = gs->delta[counter];
	*value = gs->total[counter];
	*span = &gs->span;
	if (!gs->delta_valid)
		return SAMPLE_DISCONTINUITY;
	return cell_status(*span, counter);
}

/* delta (and its validity) of the sum, a group or one CPU's row; *value
 * the value as stored whenever the status is not SAMPLE_NONE */
static enum sample_status last_delta(const struct cache *c, int counter,
				     long cpu, uint64_t *delta, uint64_t *value,
				     const struct span_set **span)
{
	if (counter < 0 || counter >= COUNTER_COUNT ||
	    !cache_counted(c, counter) || c->polls < 2)
		return SAMPLE_NONE;
	if (CACHE_IS_GROUP(cpu))
		return group_delta(c, counter, CACHE_GROUP_OF(cpu), delta,
				   value, span);
	if (cpu < 0) {
		if (!(c->total_live & COUNTER_BIT(counter)))
			return SAMPLE_NONE; /* nothing counted it: unknown */
		*delta = c->total_delta[counter];
		*value = c->total[counter];
		*span = &c->total_span;
		if (!c->total_delta_valid)
			return SAMPLE_DISCONTINUITY;
		return cell_status(*span, counter);
	}
	if (!cache_counted_per_cpu(c, counter))
		return SAMPLE_NONE;
	const struct cpu_row *r = cache_row(c, (unsigned)cpu);
	if (!r || r->status == CPU_ENDED)
		return SAMPLE_NONE; /* no such CPU, or no data any more */
	*value = cache_cpu_row_value(c, r, counter); /* stored: it stands */
	if (r->status != CPU_COUNTING)
		return SAMPLE_DISCONTINUITY;
	*delta = r->delta[counter];
	*span = &r->span;
	if (!r->delta_valid)
		return SAMPLE_DISCONTINUITY;
	return cell_status(*span, counter);
}

enum sample_status cache_rate(const struct cache *c, int counter, long cpu,
			      uint64_t *rate)
{
	uint64_t delta, value, d, ns;
	const struct span_set *sp;
	enum sample_status st =
	    last_delta(c, counter, cpu, &delta, &value, &sp);
	if (st != SAMPLE_OK)
		return st;
	if (!cache_span_cell(sp, counter, value, delta, c->interval_ns,
			     c->sample_time_ns, &d, &ns))
		return SAMPLE_DISCONTINUITY; /* no time between the polls */
	unsigned __int128 r = (unsigned __int128)d * 1000000000u / ns;
	*rate = r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
	return SAMPLE_OK;
}

enum sample_status cache_delta(const struct cache *c, int counter, long cpu,
			       uint64_t *delta)
{
	uint64_t value;
	const struct span_set *sp;
	enum sample_status st =
	    last_delta(c, counter, cpu, delta, &value, &sp);
	if (st == SAMPLE_OK && (sp->long_span & COUNTER_BIT(counter)))
		return SAMPLE_UNREAD; /* more than the last interval */
	return st;
}

enum sample_status cache_value(const struct cache *c, int counter, long cpu,
			       uint64_t *value)
{
	uint64_t delta;
	const struct span_set *sp;
	return last_delta(c, counter, cpu, &delta, value, &sp);
}
