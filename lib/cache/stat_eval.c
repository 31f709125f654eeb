/*
 * stat_eval.c - a derived statistic from one poll's deltas: numerator and
 * denominator come from the same two readings, so they agree; after polls
 * where an input had no reading, from the values at the last poll where
 * all had one (cache_span.h).
 */
#include "cache/stat_eval.h"

#include "cache/cache_span.h"
#include "meta/metrics.h"
#include "meta/stats.h"

int cache_stat_rev3_applies(const char *cpurev)
{
	unsigned major, minor;

	if (meta_cpurev_parse(cpurev, &major, &minor) != 0)
		return 1; /* not an R10000 revision (perf, "unknown") */
	return major >= 3;
}

/*
 * One input's delta over the statistic's span: the last poll interval
 * (mode DELTAS), or since the last poll where all its inputs were read
 * (ANCHOR: the value now less the one kept then).  A missing input (-1)
 * adds 0.
 */
static enum sample_status input(const struct cache *c, size_t stat,
				enum span_group_status mode, int counter,
				long cpu, uint64_t *d)
{
	*d = 0;
	if (counter < 0)
		return SAMPLE_OK;
	if (mode != SPAN_GROUP_ANCHOR)
		return cache_delta(c, counter, cpu, d);
	uint64_t v;
	enum sample_status st = cache_value(c, counter, cpu, &v);
	if (st == SAMPLE_OK)
		*d = v - cache_span_anchor(cache_row_span(c, cpu),
					   (unsigned)stat, counter);
	return st;
}

/*
 * A difference (scale 0) is floored at 0 on each CPU; its sum is the sum
 * of the CPUs' values, so that the summed object always equals its rows.
 * Inputs counted system-wide only have no CPUs: their floored difference
 * of the sums (sums_num) is all there is.
 */
static uint64_t summed_difference(const struct cache *c,
				  const struct meta_stat_inputs *in,
				  uint64_t sums_num, long where)
{
	long group = CACHE_IS_GROUP(where) ? (long)CACHE_GROUP_OF(where) : -1;
	if (!cache_counted_per_cpu(c, in->num) ||
	    (in->minus >= 0 && !cache_counted_per_cpu(c, in->minus)))
		return sums_num;
	uint64_t sum = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cpu_row *r = &c->rows[i];
		uint64_t n, m = 0;
		if ((group >= 0 && r->group != group) ||
		    r->status != CPU_COUNTING ||
		    cache_delta(c, in->num, r->cpu, &n) != SAMPLE_OK ||
		    (in->minus >= 0 &&
		     cache_delta(c, in->minus, r->cpu, &m) != SAMPLE_OK))
			continue; /* stopped: it added nothing to the sums */
		sum += n > m ? n - m : 0;
	}
	return sum;
}

enum sample_status cache_stat_value(const struct cache *c, size_t stat,
				    long cpu, uint64_t *value)
{
	const struct stat_def *s = &meta_stat_defs[stat];
	struct meta_stat_inputs in;
	uint64_t d[4];
	enum sample_status st = SAMPLE_OK;

	if (meta_stat_inputs(stat, &in) != 0)
		return SAMPLE_NONE;
	if (s->rule == STAT_REV3 && !cache_stat_rev3_applies(c->cpurev))
		return SAMPLE_NONE;
	const struct span_set *sp = cache_row_span(c, cpu);
	enum span_group_status mode =
	    sp ? cache_span_group(sp, (unsigned)stat) : SPAN_GROUP_DELTAS;
	const int which[4] = {in.num, in.minus, in.den, in.plus};
	for (int k = 0; k < 4; k++) {
		enum sample_status e = input(c, stat, mode, which[k], cpu, &d[k]);
		if (e == SAMPLE_NONE)
			return SAMPLE_NONE; /* not counted: no instance */
		if (e != SAMPLE_OK && st == SAMPLE_OK)
			st = e;
	}
	if (st != SAMPLE_OK)
		return st;
	if (mode == SPAN_GROUP_NONE)
		return SAMPLE_UNREAD; /* an input had no reading */
	uint64_t num = d[0] > d[1] ? d[0] - d[1] : 0;
	if (s->scale == 0) {
		/* a count in the last poll interval: not over a longer one */
		if (mode == SPAN_GROUP_ANCHOR)
			return SAMPLE_UNREAD;
		*value = cpu < 0 ? summed_difference(c, &in, num, cpu) : num;
		return SAMPLE_OK;
	}
	uint64_t den = d[2] + d[3];
	if (den < d[2] || den == 0)
		return SAMPLE_NONE; /* no denominator this interval */
	unsigned __int128 r = (unsigned __int128)num * s->scale / den;
	*value = r > UINT32_MAX ? UINT32_MAX : (uint64_t)r;
	return SAMPLE_OK;
}
