/*
 * mibmodel.c - builds the model of HW-R10KEVCTR-MIB from lib/tables/objects.def
 * (every object, in the order of the MIB text), expanding its METRICS rows
 * with lib/tables/metrics.def and the DESCRIPTIONs of mib/hw.help.
 *
 * Layout below the module root (hwR10kEvCtrMIB):
 *   .0        hwR10kEvCtrNotifications
 *   .1        hwR10kEvCtrObjects
 *   .1.1        hwR10kEvCtrMetrics     scalars, arc = metrics.def ARC
 *   .1.2        hwR10kEvCtrCpuTable    per-CPU counters, column = ARC
 *   .1.3        hwR10kEvCtrCpuStatusTable (AUGMENTS the CPU table)
 *   .1.4        hwR10kEvCtrAgent       the agent's own objects
 *   .1.5        hwR10kEvCtrRates       rate scalars, arc = metrics.def ARC
 *   .1.6        hwR10kEvCtrCpuRateTable (AUGMENTS), column = ARC
 *   .1.7        hwR10kEvCtrAlarmTable  threshold alarms of the config
 *   .1.8        hwR10kEvCtrStats       derived statistics, arc = stats.def
 *   .1.9        hwR10kEvCtrCpuStatTable (AUGMENTS), column = stats.def
 *   .1.10       hwR10kEvCtrAlarmNextIndex
 *   .1.11       hwR10kEvCtrGroupTable  CPU groups: name, CPUs, counting
 *   .1.12       hwR10kEvCtrGroupCounterTable (AUGMENTS), column = ARC
 *   .1.13       hwR10kEvCtrGroupRateTable (AUGMENTS), column = ARC
 *   .1.14       hwR10kEvCtrGroupStatTable (AUGMENTS), column = stats.def
 *   .2        hwR10kEvCtrConformance
 */
#include "mibmodel.h"
#include "mibmodel_int.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "meta/describe.h"
#include "meta/metrics.h"
#include "rows.h"
#include "meta/stats.h"
#include "util/strbuf.h"

/*
 * A last paragraph that says where the value comes from: the PCP metric,
 * the R10000 event(s) and the Linux perf mapping of metrics.def.
 */
/* The AGENT_NOTE of a metric, NULL if none. */
static const char *agent_note(const char *metric)
{
	for (size_t i = 0; i < mib_model_nrows; i++)
		if (mib_model_rows[i].kind == R_NOTE &&
		    strcmp(mib_model_rows[i].name, metric) == 0)
			return mib_model_rows[i].descr;
	return NULL;
}

static char *with_trailer(char *descr, const struct metric *m)
{
	struct strbuf sb = STRBUF_INIT;
	const char *note = agent_note(m->name);
	static const char *const match[] = {[MATCH_NONE] = "",
					    [MATCH_EXACT] = "exact",
					    [MATCH_APPROX] = "approximate"};

	util_strbuf_addf(&sb, "%s\n\n", descr);
	if (note)
		util_strbuf_addf(&sb, "%s\n\n", note);
	util_strbuf_addf(&sb, "PCP metric hw.r10kevctr.%s", m->name);
	if (m->event0 >= 0 && m->event1 >= 0)
		util_strbuf_addf(
		    &sb,
		    "; R10000 event %d or %d\n(one event, counted on "
		    "either hardware counter)",
		    m->event0, m->event1);
	else if (m->event0 >= 0)
		util_strbuf_addf(&sb, "; R10000 event %d", m->event0);
	if (m->rev == REV_BEFORE_3_1)
		util_strbuf_addf(&sb,
				 " (CPU revisions before 3.1:\nPCP's "
				 "IRIX PMDA served it while major*100+minor "
				 "< 301)");
	else if (m->rev == REV_FROM_3_1)
		util_strbuf_addf(&sb,
				 " (CPU revision 3.1 and later:\nPCP's "
				 "IRIX PMDA served it from major*100+minor >= "
				 "301,\nthe 'rev 3.x' of the text above)");
	if (m->kind == METRIC_COUNTER && m->perf[0])
		util_strbuf_addf(&sb, ";\nLinux perf default: %s (%s)", m->perf,
				 match[m->match]);
	else if (m->kind == METRIC_COUNTER)
		util_strbuf_addf(&sb, ";\nno Linux perf default");
	util_strbuf_addf(&sb, ".");
	free(descr);
	return util_strbuf_take(&sb);
}

/* The summed objects: state and cpurev as they are, the counters. */
static int add_totals(struct mibmodel *mm, const struct row *r,
		      const struct helpfile *hf, FILE *err)
{
	char full[128], name[METRIC_DESCRIPTOR_MAX + 1];
	int errors = 0;

	for (size_t i = 0; i < meta_metrics_count; i++) {
		const struct metric *m = &meta_metrics[i];
		meta_metric_fullname(m, full, sizeof(full));
		const struct help_entry *e = meta_helpfile_find(hf, full);
		if (!e) {
			fprintf(err, "%s: no entry for %s\n", hf->filename,
				full);
			errors++;
			continue;
		}
		meta_metric_descriptor(m, r->name, name, sizeof(name));
		char *d = with_trailer(meta_metric_description(e, 0), m);
		struct row mr = *r; /* a counter, unless: */
		mr.csyn = SYN_COUNTER64;
		if (m->kind == METRIC_STATE) {
			mr =
			    (struct row){.kind = R_SCALAR,
					 .parent = r->parent,
					 .syntax = "Integer32 (-1..2147483647)",
					 .csyn = SYN_INTEGER32,
					 .tag = TAG_STATE,
					 .group = r->group};
		} else if (m->kind == METRIC_CPUREV) {
			mr = (struct row){.kind = R_SCALAR,
					  .parent = r->parent,
					  .syntax =
					      "DisplayString (SIZE (0..32))",
					  .csyn = SYN_OCTETS,
					  .tag = TAG_CPUREV,
					  .group = r->group};
		}
		struct node *n = mib_model_leaf(mm, &mr, name, m->arc, d);
		if (m->kind == METRIC_COUNTER)
			n->counter = meta_counter_index_of(m);
		free(d);
	}
	return errors;
}

/* A METRICS row's DESCR with its one %s replaced by the metric's name. */
static char *from_template(const char *tpl, const char *full)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at = strstr(tpl, "%s");

	if (!at) {
		util_strbuf_addf(&sb, "%s", tpl);
	} else {
		util_strbuf_addf(&sb, "%.*s%s%s", (int)(at - tpl), tpl, full,
				 at + 2);
	}
	return util_strbuf_take(&sb);
}

/* One object per counter: its hw.help text (per CPU) or the template. */
static int add_per_counter(struct mibmodel *mm, const struct row *r,
			   const struct helpfile *hf, FILE *err)
{
	char full[128], name[METRIC_DESCRIPTOR_MAX + 1];
	int errors = 0;
	struct row cr = *r;

	cr.csyn = SYN_COUNTER64;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		const struct metric *m = &meta_counters[c];
		meta_metric_fullname(m, full, sizeof(full));
		char *d;
		if (r->what == CPU_COUNTERS) {
			const struct help_entry *e =
			    meta_helpfile_find(hf, full);
			d = e ? meta_metric_description(e, 1) : NULL;
			if (!d) {
				fprintf(err,
					"%s:%u: long text of %s does not say "
					"\"%s %s\", so its per-CPU "
					"DESCRIPTION cannot be derived\n",
					hf->filename, e ? e->line : 0, full,
					full, DESCRIBE_TOTAL_PHRASE);
				errors++;
				continue;
			}
		} else {
			d = from_template(r->descr, full);
		}
		meta_metric_descriptor(m, r->name, name, sizeof(name));
		mib_model_leaf(mm, &cr, name, m->arc, d)->counter = c;
		free(d);
	}
	return errors;
}

/* A table and its conceptual row; the row's type is r->type. */
static void add_table(struct mibmodel *mm, const struct row *r)
{
	struct node *n =
	    mib_model_add(mm, NK_TABLE, r->name, "hwR10kEvCtrObjects", r->arc);
	n->syntax = r->type; /* written as SEQUENCE OF type */
	mib_model_descr(n, r->descr);
	n = mib_model_add(mm, NK_ENTRY, r->entry, r->name, 1);
	n->syntax = r->type;
	n->index = r->index;
	mib_model_descr(n, r->descr2);
}

/* Members of a group: every node naming it, as "a, b,\n c". */
static char *group_members(const struct mibmodel *mm, const char *group)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k = 0;

	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (!n->group || strcmp(n->group, group) != 0)
			continue;
		util_strbuf_addf(&sb, "%s%s", k ? ",\n" : "", n->name);
		k++;
	}
	return util_strbuf_take(&sb);
}

static const char *notification_group(void)
{
	for (size_t i = 0; i < mib_model_nrows; i++)
		if (mib_model_rows[i].kind == R_GROUP &&
		    mib_model_rows[i].what == NOTIFICATIONS)
			return mib_model_rows[i].name;
	return NULL;
}

static void add_group(struct mibmodel *mm, const struct row *r, unsigned arc,
		      struct strbuf *all)
{
	char *members = group_members(mm, r->name);
	struct node *n =
	    mib_model_add(mm, r->what == OBJECTS ? NK_OGROUP : NK_NGROUP,
			  r->name, "hwR10kEvCtrGroups", arc);
	n->members = members;
	mib_model_descr(n, r->descr);
	util_strbuf_addf(all, "%s%s", arc > 1 ? ",\n" : "", r->name);
}

static int add_row(struct mibmodel *mm, const struct row *r,
		   const struct helpfile *hf, FILE *err, unsigned *groups,
		   struct strbuf *all)
{
	struct node *n;

	switch (r->kind) {
	case R_TC:
		n = mib_model_add(mm, NK_TC, r->name, NULL, 0);
		n->len = 0;
		n->syntax = r->syntax;
		n->hint = r->hint;
		mib_model_descr(n, r->descr);
		break;
	case R_BRANCH:
		mib_model_add(mm, NK_BRANCH, r->name, r->parent, r->arc);
		break;
	case R_TABLE:
		add_table(mm, r);
		break;
	case R_INDEX:
		n = mib_model_add(mm, NK_INDEX, r->name, r->entry, 1);
		n->syntax = r->syntax;
		n->seqtype = r->seqtype;
		mib_model_descr(n, r->descr);
		break;
	case R_SCALAR:
	case R_COLUMN:
		mib_model_leaf(mm, r, r->name, r->arc, r->descr);
		break;
	case R_NOTE:
		break; /* read by with_trailer() */
	case R_METRICS:
		if (r->what == STATS || r->what == CPU_STATS ||
		    r->what == GROUP_STATS)
			return mib_model_add_stats(mm, r, err);
		return r->what == TOTALS ? add_totals(mm, r, hf, err)
					 : add_per_counter(mm, r, hf, err);
	case R_NOTIFICATION:
		n = mib_model_add(mm, NK_NOTIF, r->name,
				  "hwR10kEvCtrNotifications", r->arc);
		n->members = strdup(r->objects);
		n->group = notification_group();
		n->table = r->what == ALARM ? TBL_ALARM : TBL_SCALAR;
		mib_model_descr(n, r->descr);
		break;
	case R_GROUP:
		add_group(mm, r, ++*groups, all);
		break;
	case R_COMPLIANCE:
		n = mib_model_add(mm, NK_COMPLIANCE, r->name,
				  "hwR10kEvCtrCompliances", 1);
		n->members = util_strbuf_take(all);
		mib_model_descr(n, r->descr);
		break;
	}
	return 0;
}

int mib_model_build(struct mibmodel *mm, const struct helpfile *hf, FILE *err)
{
	struct strbuf all = STRBUF_INIT;
	unsigned groups = 0;
	int errors = 0;

	memset(mm, 0, sizeof(*mm));
	for (size_t i = 0; i < mib_model_nrows; i++)
		errors +=
		    add_row(mm, &mib_model_rows[i], hf, err, &groups, &all);
	free(util_strbuf_take(&all));
	return errors;
}

void mib_model_free(struct mibmodel *mm)
{
	for (size_t i = 0; i < mm->count; i++) {
		free(mm->nodes[i].descr);
		free(mm->nodes[i].members);
	}
	free(mm->nodes);
	memset(mm, 0, sizeof(*mm));
}
