/*
 * mibmodel_stats.c - the derived statistics of lib/tables/stats.def as objects
 * of the model: each one's SYNTAX, UNITS, summary, what it is in words
 * (made from its row: a difference, or a ratio and its scale) and its
 * hw.help citation.
 */
#include <stdio.h>

#include "mibmodel.h"
#include "mibmodel_int.h"
#include "meta/stats.h"
#include "util/strbuf.h"

/* What the statistic is, in words made from its stats.def row. */
static void stat_definition(struct strbuf *d, const struct stat_def *st)
{
	if (st->scale == 0)
		util_strbuf_addf(
		    d,
		    "The interval's delta of\n%s%s minus that of\n"
		    "%s%s, taken per CPU and 0 when\n"
		    "negative (the counters are incremented on different\n"
		    "cycles); the summed value is the sum of the CPUs'\n"
		    "values.",
		    METRIC_PREFIX, st->num, METRIC_PREFIX, st->minus);
	else
		util_strbuf_addf(
		    d,
		    "%llu times the interval's delta of\n%s%s%s%s\n"
		    "over that of\n%s%s%s%s%s, truncated; the\n"
		    "summed value divides the summed deltas.  No "
		    "instance\nwhen the denominator is zero in the "
		    "interval.",
		    (unsigned long long)st->scale, METRIC_PREFIX, st->num,
		    st->minus[0] ? " minus " : "", st->minus, METRIC_PREFIX,
		    st->den, st->plus[0] ? " +\n" : "",
		    st->plus[0] ? METRIC_PREFIX : "", st->plus);
	if (st->rule == STAT_REV3)
		util_strbuf_addf(d,
				 "\nNot served for an R10000 revision below 3\n"
				 "(hwR10kEvCtrCpurev 2.x).");
}

/* One object per statistic of stats.def: its SYNTAX, UNITS, summary
 * and hw.help citation, then the row's paragraph. */
int mib_model_add_stats(struct mibmodel *mm, const struct row *r, FILE *err)
{
	int errors = 0;

	for (size_t i = 0; i < meta_stat_count; i++) {
		const struct stat_def *st = &meta_stat_defs[i];
		struct meta_stat_inputs in;
		char name[METRIC_DESCRIPTOR_MAX + 1];
		struct strbuf d = STRBUF_INIT;
		struct row sr = *r;

		if (meta_stat_inputs(i, &in) != 0) {
			fprintf(err,
				"lib/tables/stats.def: %s: an input is not a "
				"counter of metrics.def\n",
				st->name);
			errors++;
			continue;
		}
		sr.syntax = st->syntax;
		sr.units = st->units;
		sr.csyn = st->scale ? SYN_UNSIGNED32 : SYN_COUNTER64;
		snprintf(name, sizeof(name), "%s%s", r->name, st->descriptor);
		util_strbuf_addf(&d, "%s\n\n", st->summary);
		stat_definition(&d, st);
		util_strbuf_addf(&d, "\n\n%s\n\n%s", st->cite, r->descr);
		mib_model_leaf(mm, &sr, name, st->arc, d.buf)->stat = (int)i;
		util_strbuf_release(&d);
	}
	return errors;
}
