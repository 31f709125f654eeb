/*
 * mibmodel.c - builds the model of HW-R10KEVCTR-MIB.
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
 *   .2        hwR10kEvCtrConformance
 * The arcs of the fixed objects are written here, once, like metrics.def's.
 */
#include "mibmodel.h"

#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "metrics.h"
#include "strbuf.h"

#define ROOT_NAME "hwR10kEvCtrMIB"

static struct node *add(struct mibmodel *mm, enum node_kind kind,
			const char *name, const char *parent, unsigned arc)
{
	struct node *n = realloc(mm->nodes, (mm->count + 1) * sizeof(*n));
	if (!n) {
		perror("genmib");
		exit(2);
	}
	mm->nodes = n;
	n = &mm->nodes[mm->count++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->parent = parent;
	n->arc = arc;
	n->counter = -1;
	n->acc = ACC_READ_ONLY;
	if (parent) {
		for (size_t i = 0; i + 1 < mm->count; i++) {
			if (strcmp(mm->nodes[i].name, parent) == 0) {
				memcpy(n->arcs, mm->nodes[i].arcs,
				       sizeof(n->arcs));
				n->len = mm->nodes[i].len;
				break;
			}
		}
	}
	n->arcs[n->len++] = arc;
	return n;
}

static void set_descr(struct node *n, const char *text)
{
	n->descr = strdup(text);
}

static struct node *leaf(struct mibmodel *mm, enum node_kind kind,
			 const char *name, const char *parent, unsigned arc,
			 const char *syntax, enum obj_syntax csyn,
			 enum obj_tag tag, const char *group, const char *descr)
{
	struct node *n = add(mm, kind, name, parent, arc);
	n->syntax = syntax;
	n->seqtype = syntax;
	n->csyn = csyn;
	n->tag = tag;
	n->group = group;
	n->table = kind == NK_COLUMN ? TBL_CPU : TBL_SCALAR;
	set_descr(n, descr);
	return n;
}

/*
 * A last paragraph that says where the value comes from: the PCP metric,
 * the R10000 event(s) and the Linux perf mapping of metrics.def.
 */
static char *with_trailer(char *descr, const struct metric *m)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const match[] = {[MATCH_NONE] = "",
					    [MATCH_EXACT] = "exact",
					    [MATCH_APPROX] = "approximate"};

	strbuf_addf(&sb, "%s\n\nPCP metric hw.r10kevctr.%s", descr, m->name);
	if (m->event0 >= 0 && m->event1 >= 0)
		strbuf_addf(&sb, "; R10000 events %d and %d", m->event0,
			    m->event1);
	else if (m->event0 >= 0)
		strbuf_addf(&sb, "; R10000 event %d", m->event0);
	if (m->rev == REV_BEFORE_3_1)
		strbuf_addf(&sb, " (CPU revisions before 3.1)");
	else if (m->rev == REV_FROM_3_1)
		strbuf_addf(&sb, " (CPU revision 3.1 and later)");
	if (m->kind == METRIC_COUNTER && m->perf[0])
		strbuf_addf(&sb, ";\nLinux perf default: %s (%s)", m->perf,
			    match[m->match]);
	else if (m->kind == METRIC_COUNTER)
		strbuf_addf(&sb, ";\nno Linux perf default");
	strbuf_addf(&sb, ".");
	free(descr);
	return strbuf_take(&sb);
}

/* A table and its conceptual row; the row's type is `type`. */
static void add_table(struct mibmodel *mm, const char *table, const char *entry,
		      const char *type, unsigned arc, const char *index,
		      const char *table_descr, const char *entry_descr)
{
	struct node *n = add(mm, NK_TABLE, table, "hwR10kEvCtrObjects", arc);
	n->syntax = type; /* written as SEQUENCE OF type */
	set_descr(n, table_descr);
	n = add(mm, NK_ENTRY, entry, table, 1);
	n->syntax = type;
	n->index = index;
	set_descr(n, entry_descr);
}

static int add_metrics(struct mibmodel *mm, const struct helpfile *hf,
		       FILE *err)
{
	char full[128];
	int errors = 0;

	for (size_t i = 0; i < metrics_count; i++) {
		const struct metric *m = &metrics[i];
		char name[METRIC_DESCRIPTOR_MAX + 1];
		metric_fullname(m, full, sizeof(full));
		const struct help_entry *e = helpfile_find(hf, full);
		if (!e) {
			fprintf(err, "%s: no entry for %s\n", hf->filename,
				full);
			errors++;
			continue;
		}
		metric_descriptor(m, METRIC_DESCRIPTOR_PREFIX, name,
				  sizeof(name));
		struct node *n;
		char *d = with_trailer(metric_description(e, 0), m);
		switch (m->kind) {
		case METRIC_STATE:
			n = leaf(mm, NK_SCALAR, name, "hwR10kEvCtrMetrics",
				 m->arc, "Integer32 (-1..2147483647)",
				 SYN_INTEGER32, TAG_STATE,
				 "hwR10kEvCtrMetricGroup", d);
			break;
		case METRIC_CPUREV:
			n = leaf(mm, NK_SCALAR, name, "hwR10kEvCtrMetrics",
				 m->arc, "DisplayString (SIZE (0..32))",
				 SYN_OCTETS, TAG_CPUREV,
				 "hwR10kEvCtrMetricGroup", d);
			break;
		default:
			n = leaf(mm, NK_SCALAR, name, "hwR10kEvCtrMetrics",
				 m->arc, "Counter64", SYN_COUNTER64, TAG_TOTAL,
				 "hwR10kEvCtrMetricGroup", d);
			n->units = "events";
			n->counter = counter_index_of(m);
			break;
		}
		free(d);
	}
	return errors;
}

static int add_cpu_columns(struct mibmodel *mm, const struct helpfile *hf,
			   FILE *err)
{
	char full[128], name[METRIC_DESCRIPTOR_MAX + 1];
	int errors = 0;

	for (int c = 0; c < COUNTER_COUNT; c++) {
		const struct metric *m = &counters[c];
		metric_fullname(m, full, sizeof(full));
		const struct help_entry *e = helpfile_find(hf, full);
		char *d = e ? metric_description(e, 1) : NULL;
		if (!d) {
			fprintf(
			    err,
			    "%s:%u: long text of %s does not say \"%s\", "
			    "so its per-CPU DESCRIPTION cannot be derived\n",
			    hf->filename, e ? e->line : 0, full,
			    DESCRIBE_TOTAL_PHRASE);
			errors++;
			continue;
		}
		metric_descriptor(m, METRIC_CPU_DESCRIPTOR_PREFIX, name,
				  sizeof(name));
		struct node *n =
		    leaf(mm, NK_COLUMN, name, "hwR10kEvCtrCpuEntry", m->arc,
			 "Counter64", SYN_COUNTER64, TAG_CPU_COUNTER,
			 "hwR10kEvCtrCpuGroup", d);
		n->units = "events";
		n->counter = c;
		free(d);
	}
	return errors;
}

#define GAUGE64 "HwR10kEvCtrGauge64"

static void add_module(struct mibmodel *mm)
{
	struct node *tc = add(mm, NK_TC, GAUGE64, NULL, 0);
	tc->len = 0;
	tc->syntax = "Counter64";
	set_descr(tc,
		  "A 64-bit gauge: a value that may go up and down, such as\n"
		  "a rate or a threshold, as CounterBasedGauge64 of HCNUM-TC\n"
		  "(RFC 2856), defined here so that the module does not\n"
		  "depend on HCNUM-TC.  Its value is never a counter: it has\n"
		  "no discontinuities and is not to be differenced.");
	add(mm, NK_BRANCH, "hwR10kEvCtrNotifications", NULL, 0);
	add(mm, NK_BRANCH, "hwR10kEvCtrObjects", NULL, 1);
	add(mm, NK_BRANCH, "hwR10kEvCtrMetrics", "hwR10kEvCtrObjects", 1);
}

static void add_cpu_table(struct mibmodel *mm)
{
	struct node *n;

	add_table(mm, "hwR10kEvCtrCpuTable", "hwR10kEvCtrCpuEntry",
		  "HwR10kEvCtrCpuEntry", 2, "INDEX { hwR10kEvCtrCpuIndex }",
		  "Event counters per CPU.  One row per CPU that the\n"
		  "backend reports, indexed by the operating system's CPU\n"
		  "number.  A counter the backend does not count has no\n"
		  "instance in any row.",
		  "The event counters of one CPU.");
	n = add(mm, NK_INDEX, "hwR10kEvCtrCpuIndex", "hwR10kEvCtrCpuEntry", 1);
	n->syntax = "Unsigned32 (0..65535)";
	n->seqtype = "Unsigned32";
	set_descr(n, "The operating system's number of this CPU (0 for the\n"
		     "first CPU, as in /sys/devices/system/cpu/cpuN on Linux\n"
		     "or the IRIX CPU number PCP reported).");
}

static void add_cpu_status_table(struct mibmodel *mm)
{
	struct node *n;
	const char *p = "hwR10kEvCtrCpuStatusEntry";
	const char *g = "hwR10kEvCtrCpuStatusGroup";

	add_table(mm, "hwR10kEvCtrCpuStatusTable", p,
		  "HwR10kEvCtrCpuStatusEntry", 3,
		  "AUGMENTS { hwR10kEvCtrCpuEntry }",
		  "Counting status per CPU, so that an operator can see\n"
		  "whether a CPU is counting and how much of the time its\n"
		  "events were really on the hardware (multiplexing).",
		  "The counting status of one CPU.");
	n = leaf(mm, NK_COLUMN, "hwR10kEvCtrCpuStatus", p, 1,
		 "INTEGER { counting(1), stopped(2) }", SYN_INTEGER32,
		 TAG_CPU_STATUS, g,
		 "counting(1): the backend read this CPU's counters at the\n"
		 "last poll.  stopped(2): it could not (the CPU went offline\n"
		 "or its counters stopped); the CPU's counter values are\n"
		 "frozen until it counts again, after a counter\n"
		 "discontinuity (hwR10kEvCtrDiscontinuityTime).");
	n->seqtype = "INTEGER";
	n = leaf(mm, NK_COLUMN, "hwR10kEvCtrCpuTimeEnabled", p, 2, "Counter64",
		 SYN_COUNTER64, TAG_CPU_TIME_ENABLED, g,
		 "Total time this CPU's events were enabled, summed over the\n"
		 "CPU's event groups, as the kernel reports it\n"
		 "(PERF_FORMAT_TOTAL_TIME_ENABLED).  Backends without such\n"
		 "times (sim, replay) report their elapsed time here and in\n"
		 "hwR10kEvCtrCpuTimeRunning.");
	n->units = "nanoseconds";
	n = leaf(mm, NK_COLUMN, "hwR10kEvCtrCpuTimeRunning", p, 3, "Counter64",
		 SYN_COUNTER64, TAG_CPU_TIME_RUNNING, g,
		 "Total time this CPU's events were really counting on the\n"
		 "hardware (PERF_FORMAT_TOTAL_TIME_RUNNING).  Less than\n"
		 "hwR10kEvCtrCpuTimeEnabled when the kernel multiplexes more\n"
		 "events than the PMU has counters; the agent then scales the\n"
		 "counts up by enabled/running.");
	n->units = "nanoseconds";
	n = leaf(mm, NK_COLUMN, "hwR10kEvCtrCpuDutyCycle", p, 4,
		 "Unsigned32 (0..100)", SYN_UNSIGNED32, TAG_CPU_DUTY_CYCLE, g,
		 "The share of the last poll interval during which this\n"
		 "CPU's events were really counting: 100 * (delta time\n"
		 "running) / (delta time enabled).  100 means no\n"
		 "multiplexing, no estimate.");
	n->units = "percent";
	n->seqtype = "Unsigned32";
}

static void add_agent(struct mibmodel *mm)
{
	const char *p = "hwR10kEvCtrAgent";
	const char *g = "hwR10kEvCtrAgentGroup";
	struct node *n;

	add(mm, NK_BRANCH, p, "hwR10kEvCtrObjects", 4);
	n = leaf(mm, NK_SCALAR, "hwR10kEvCtrPollInterval", p, 1,
		 "Unsigned32 (1..3600)", SYN_UNSIGNED32, TAG_POLL_INTERVAL, g,
		 "How often the agent reads the counter backend.  Every\n"
		 "value in this module comes from the cache that the last\n"
		 "poll filled; requests never read the backend.");
	n->units = "seconds";
	n->seqtype = "Unsigned32";
	leaf(mm, NK_SCALAR, "hwR10kEvCtrLastPollTime", p, 2, "TimeStamp",
	     SYN_TIMETICKS, TAG_LAST_POLL_TIME, g,
	     "The value of sysUpTime when the cache was last filled; 0 if\n"
	     "the backend has not been read yet.");
	n = leaf(mm, NK_SCALAR, "hwR10kEvCtrBackend", p, 3,
		 "DisplayString (SIZE (0..32))", SYN_OCTETS, TAG_BACKEND, g,
		 "The counter backend in use: 'sim' (deterministic\n"
		 "simulation), 'perf' (Linux perf_event_open) or 'replay'\n"
		 "(recorded samples).");
	n->seqtype = "DisplayString";
	n = leaf(mm, NK_SCALAR, "hwR10kEvCtrNumCpus", p, 4,
		 "Unsigned32 (0..65536)", SYN_UNSIGNED32, TAG_NUM_CPUS, g,
		 "The number of rows in hwR10kEvCtrCpuTable.");
	n->seqtype = "Unsigned32";
	leaf(mm, NK_SCALAR, "hwR10kEvCtrDiscontinuityTime", p, 5, "TimeStamp",
	     SYN_TIMETICKS, TAG_DISCONTINUITY_TIME, g,
	     "The value of sysUpTime on the most recent occasion at which\n"
	     "any Counter64 in this module suffered a discontinuity: the\n"
	     "backend was (re)started or reset its counts, the set of CPUs\n"
	     "changed, or a CPU stopped or resumed counting.  A manager\n"
	     "computing rates must discard a delta across a change of this\n"
	     "value, as for ifCounterDiscontinuityTime.  0 if there was\n"
	     "none since the agent started.");
	leaf(mm, NK_SCALAR, "hwR10kEvCtrPolls", p, 6, "Counter32",
	     SYN_COUNTER32, TAG_POLLS, g,
	     "The number of times the agent polled the backend.");
	leaf(mm, NK_SCALAR, "hwR10kEvCtrPollErrors", p, 7, "Counter32",
	     SYN_COUNTER32, TAG_POLL_ERRORS, g,
	     "The number of failed backend reads and skipped bad input\n"
	     "records (for example bad replay file lines); each is logged\n"
	     "with its cause.");
	n = leaf(mm, NK_SCALAR, "hwR10kEvCtrDiscontinuityReason", p, 8,
		 "DisplayString (SIZE (0..255))", SYN_OCTETS,
		 TAG_DISCONTINUITY_REASON, g,
		 "In hwR10kEvCtrCounterDiscontinuity: why the counters\n"
		 "suffered the discontinuity, in words, for example 'CPU 2\n"
		 "joined the table' or 'CPU 0 restarted counting'; several\n"
		 "reasons of one poll are separated by '; ' (cut at 255\n"
		 "characters).");
	n->acc = ACC_FOR_NOTIFY;
}

static void add_rates(struct mibmodel *mm)
{
	char name[METRIC_DESCRIPTOR_MAX + 1], full[128], d[512];
	struct node *n;

	add(mm, NK_BRANCH, "hwR10kEvCtrRates", "hwR10kEvCtrObjects", 5);
	for (int c = 0; c < COUNTER_COUNT; c++) {
		const struct metric *m = &counters[c];
		metric_descriptor(m, "hwR10kEvCtrRate", name, sizeof(name));
		metric_fullname(m, full, sizeof(full));
		snprintf(
		    d, sizeof(d),
		    "The rate of %s (summed over all CPUs) per\n"
		    "second over the last poll interval, for managers that\n"
		    "can only threshold gauges.  No instance before the\n"
		    "second poll, after a counter discontinuity, or when the\n"
		    "counter is not counted.",
		    full);
		n = leaf(mm, NK_SCALAR, name, "hwR10kEvCtrRates", m->arc,
			 GAUGE64, SYN_COUNTER64, TAG_RATE,
			 "hwR10kEvCtrRateGroup", d);
		n->units = "events per second";
		n->counter = c;
	}
	add_table(mm, "hwR10kEvCtrCpuRateTable", "hwR10kEvCtrCpuRateEntry",
		  "HwR10kEvCtrCpuRateEntry", 6,
		  "AUGMENTS { hwR10kEvCtrCpuEntry }",
		  "Event rates per CPU over the last poll interval.",
		  "The event rates of one CPU.");
	for (int c = 0; c < COUNTER_COUNT; c++) {
		const struct metric *m = &counters[c];
		metric_descriptor(m, "hwR10kEvCtrCpuRate", name, sizeof(name));
		metric_fullname(m, full, sizeof(full));
		snprintf(
		    d, sizeof(d),
		    "The rate of %s on this CPU per second\n"
		    "over the last poll interval.  No instance when it is\n"
		    "not known (see hwR10kEvCtrRates).",
		    full);
		n = leaf(mm, NK_COLUMN, name, "hwR10kEvCtrCpuRateEntry", m->arc,
			 GAUGE64, SYN_COUNTER64, TAG_CPU_RATE,
			 "hwR10kEvCtrRateGroup", d);
		n->units = "events per second";
		n->counter = c;
	}
}

static struct node *alarm_col(struct mibmodel *mm, const char *name,
			      unsigned arc, const char *syntax,
			      const char *seqtype, enum obj_syntax csyn,
			      enum obj_tag tag, const char *descr)
{
	struct node *n =
	    leaf(mm, NK_COLUMN, name, "hwR10kEvCtrAlarmEntry", arc, syntax,
		 csyn, tag, "hwR10kEvCtrAlarmGroup", descr);
	n->seqtype = seqtype;
	n->table = TBL_ALARM;
	return n;
}

static void add_alarm_table(struct mibmodel *mm)
{
	struct node *n;

	add_table(mm, "hwR10kEvCtrAlarmTable", "hwR10kEvCtrAlarmEntry",
		  "HwR10kEvCtrAlarmEntry", 7, "INDEX { hwR10kEvCtrAlarmIndex }",
		  "The threshold alarms of the agent's configuration\n"
		  "('alarm' lines), with RMON alarmTable semantics (RFC\n"
		  "2819) on 64-bit values: one notification per crossing,\n"
		  "re-armed only by the opposite crossing.  The table is\n"
		  "read-only: alarms are configured in hw-r10kevctr.conf.",
		  "One configured alarm.");
	n = add(mm, NK_INDEX, "hwR10kEvCtrAlarmIndex", "hwR10kEvCtrAlarmEntry",
		1);
	n->syntax = "Unsigned32 (1..1024)";
	n->seqtype = "Unsigned32";
	set_descr(n, "The alarm's position in the configuration, from 1.");
	alarm_col(mm, "hwR10kEvCtrAlarmName", 2, "DisplayString (SIZE (1..32))",
		  "DisplayString", SYN_OCTETS, TAG_ALARM_NAME,
		  "The alarm's name in the configuration.");
	alarm_col(mm, "hwR10kEvCtrAlarmMetric", 3,
		  "DisplayString (SIZE (1..64))", "DisplayString", SYN_OCTETS,
		  TAG_ALARM_METRIC,
		  "The watched metric, by its PCP name (hw.r10kevctr.*).");
	alarm_col(mm, "hwR10kEvCtrAlarmScope", 4,
		  "INTEGER { sum(1), cpu(2), eachCpu(3) }", "INTEGER",
		  SYN_INTEGER32, TAG_ALARM_SCOPE,
		  "sum(1): the metric summed over all CPUs; cpu(2): the CPU\n"
		  "hwR10kEvCtrAlarmCpu; eachCpu(3): every CPU of\n"
		  "hwR10kEvCtrCpuTable, each with its own alarm state.");
	alarm_col(mm, "hwR10kEvCtrAlarmCpu", 5, "Integer32 (-1..65535)",
		  "Integer32", SYN_INTEGER32, TAG_ALARM_CPU,
		  "The watched CPU for scope cpu(2); -1 otherwise.");
	alarm_col(mm, "hwR10kEvCtrAlarmSampleType", 6,
		  "INTEGER { absoluteValue(1), ratePerSecond(2) }", "INTEGER",
		  SYN_INTEGER32, TAG_ALARM_SAMPLE_TYPE,
		  "absoluteValue(1): the counter's value is compared with the\n"
		  "thresholds; ratePerSecond(2): its rate per second over the\n"
		  "poll interval (hwR10kEvCtrRates).");
	alarm_col(mm, "hwR10kEvCtrAlarmRisingThreshold", 7, GAUGE64, GAUGE64,
		  SYN_COUNTER64, TAG_ALARM_RISING,
		  "A sample >= this value raises hwR10kEvCtrRisingAlarm, once\n"
		  "until a sample <= hwR10kEvCtrAlarmFallingThreshold.");
	alarm_col(
	    mm, "hwR10kEvCtrAlarmFallingThreshold", 8, GAUGE64, GAUGE64,
	    SYN_COUNTER64, TAG_ALARM_FALLING,
	    "A sample <= this value raises hwR10kEvCtrFallingAlarm, once\n"
	    "until a sample >= hwR10kEvCtrAlarmRisingThreshold.  Always\n"
	    "below the rising threshold.");
	alarm_col(mm, "hwR10kEvCtrAlarmStartupAlarm", 9,
		  "INTEGER { risingAlarm(1), fallingAlarm(2),\n"
		  "          risingOrFallingAlarm(3) }",
		  "INTEGER", SYN_INTEGER32, TAG_ALARM_STARTUP,
		  "Which alarm the first valid sample may raise, as\n"
		  "alarmStartupAlarm of RFC 2819.");
	alarm_col(mm, "hwR10kEvCtrAlarmValue", 10, GAUGE64, GAUGE64,
		  SYN_COUNTER64, TAG_ALARM_VALUE,
		  "The last valid sample (for eachCpu(3) the highest over the\n"
		  "CPUs).  No instance before the first valid sample.");
	alarm_col(
	    mm, "hwR10kEvCtrAlarmStatus", 11,
	    "INTEGER { waiting(1), armed(2), risen(3), fallen(4) }", "INTEGER",
	    SYN_INTEGER32, TAG_ALARM_STATUS,
	    "waiting(1): no valid sample yet; armed(2): sampled, no alarm\n"
	    "raised yet; risen(3): the last alarm was a rising one (for\n"
	    "eachCpu(3): on any CPU); fallen(4): the last alarm was a\n"
	    "falling one.");
	alarm_col(mm, "hwR10kEvCtrAlarmEvents", 12, "Counter32", "Counter32",
		  SYN_COUNTER32, TAG_ALARM_EVENTS,
		  "The notifications this alarm raised.");
	alarm_col(mm, "hwR10kEvCtrAlarmDropped", 13, "Counter32", "Counter32",
		  SYN_COUNTER32, TAG_ALARM_DROPPED,
		  "Samples dropped because they spanned a counter\n"
		  "discontinuity; they never raise an alarm.");
	struct node *c;
	c = alarm_col(mm, "hwR10kEvCtrAlarmEventCpu", 14,
		      "Integer32 (-1..65535)", "Integer32", SYN_INTEGER32,
		      TAG_ALARM_EVENT_CPU,
		      "In a notification: the CPU whose sample crossed the\n"
		      "threshold; -1 for the sum.");
	c->acc = ACC_FOR_NOTIFY;
	c = alarm_col(
	    mm, "hwR10kEvCtrAlarmEventValue", 15, GAUGE64, GAUGE64,
	    SYN_COUNTER64, TAG_ALARM_EVENT_VALUE,
	    "In a notification: the sample that crossed the threshold.");
	c->acc = ACC_FOR_NOTIFY;
	c = alarm_col(mm, "hwR10kEvCtrAlarmEventThreshold", 16, GAUGE64,
		      GAUGE64, SYN_COUNTER64, TAG_ALARM_EVENT_THRESHOLD,
		      "In a notification: the threshold that was crossed.");
	c->acc = ACC_FOR_NOTIFY;
}

static void add_notifications(struct mibmodel *mm)
{
	struct node *n = add(mm, NK_NOTIF, "hwR10kEvCtrCounterDiscontinuity",
			     "hwR10kEvCtrNotifications", 1);
	n->members =
	    strdup("hwR10kEvCtrDiscontinuityTime, hwR10kEvCtrNumCpus,\n"
		   "hwR10kEvCtrBackend, hwR10kEvCtrDiscontinuityReason");
	n->group = "hwR10kEvCtrNotificationGroup";
	set_descr(n, "Sent when the counters suffered a discontinuity (see\n"
		     "hwR10kEvCtrDiscontinuityTime) after the first poll, so\n"
		     "that a manager can restart its rate computations;\n"
		     "hwR10kEvCtrDiscontinuityReason says why.");
	static const char *const objs =
	    "hwR10kEvCtrAlarmName, hwR10kEvCtrAlarmMetric,\n"
	    "hwR10kEvCtrAlarmSampleType, hwR10kEvCtrAlarmEventCpu,\n"
	    "hwR10kEvCtrAlarmEventValue, hwR10kEvCtrAlarmEventThreshold";
	n = add(mm, NK_NOTIF, "hwR10kEvCtrRisingAlarm",
		"hwR10kEvCtrNotifications", 2);
	n->members = strdup(objs);
	n->group = "hwR10kEvCtrNotificationGroup";
	set_descr(n, "A sample of an alarm (hwR10kEvCtrAlarmTable) reached\n"
		     "its rising threshold.  The instance of every object is\n"
		     "the alarm's hwR10kEvCtrAlarmIndex.");
	n = add(mm, NK_NOTIF, "hwR10kEvCtrFallingAlarm",
		"hwR10kEvCtrNotifications", 3);
	n->members = strdup(objs);
	n->group = "hwR10kEvCtrNotificationGroup";
	set_descr(n, "A sample of an alarm (hwR10kEvCtrAlarmTable) reached\n"
		     "its falling threshold.  The instance of every object is\n"
		     "the alarm's hwR10kEvCtrAlarmIndex.");
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
		strbuf_addf(&sb, "%s%s", k ? ",\n" : "", n->name);
		k++;
	}
	return strbuf_take(&sb);
}

static void add_conformance(struct mibmodel *mm)
{
	static const struct {
		const char *name;
		enum node_kind kind;
		const char *descr;
	} groups[] = {
	    {"hwR10kEvCtrMetricGroup", NK_OGROUP,
	     "The state, CPU revision and summed counters."},
	    {"hwR10kEvCtrCpuGroup", NK_OGROUP, "The per-CPU counters."},
	    {"hwR10kEvCtrCpuStatusGroup", NK_OGROUP,
	     "The per-CPU counting status."},
	    {"hwR10kEvCtrAgentGroup", NK_OGROUP, "The agent's own objects."},
	    {"hwR10kEvCtrNotificationGroup", NK_NGROUP,
	     "The agent's notifications."},
	    {"hwR10kEvCtrRateGroup", NK_OGROUP,
	     "The event rates, summed and per CPU."},
	    {"hwR10kEvCtrAlarmGroup", NK_OGROUP,
	     "The threshold alarms and their notification objects."},
	};
	struct strbuf all = STRBUF_INIT;

	add(mm, NK_BRANCH, "hwR10kEvCtrConformance", NULL, 2);
	add(mm, NK_BRANCH, "hwR10kEvCtrGroups", "hwR10kEvCtrConformance", 1);
	add(mm, NK_BRANCH, "hwR10kEvCtrCompliances", "hwR10kEvCtrConformance",
	    2);
	for (unsigned i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		char *members = group_members(mm, groups[i].name);
		struct node *n = add(mm, groups[i].kind, groups[i].name,
				     "hwR10kEvCtrGroups", i + 1);
		n->members = members;
		set_descr(n, groups[i].descr);
		strbuf_addf(&all, "%s%s", i ? ",\n" : "", groups[i].name);
	}
	struct node *n = add(mm, NK_COMPLIANCE, "hwR10kEvCtrCompliance",
			     "hwR10kEvCtrCompliances", 1);
	n->members = strbuf_take(&all);
	set_descr(n, "An agent implementing this module.  Counters a backend\n"
		     "does not count have no instances; that is compliant.");
}

int mibmodel_build(struct mibmodel *mm, const struct helpfile *hf, FILE *err)
{
	int errors = 0;

	memset(mm, 0, sizeof(*mm));
	add_module(mm);
	errors += add_metrics(mm, hf, err);
	add_cpu_table(mm);
	errors += add_cpu_columns(mm, hf, err);
	add_cpu_status_table(mm);
	add_agent(mm);
	add_rates(mm);
	add_alarm_table(mm);
	add_notifications(mm);
	add_conformance(mm);
	return errors;
}

void mibmodel_free(struct mibmodel *mm)
{
	for (size_t i = 0; i < mm->count; i++) {
		free(mm->nodes[i].descr);
		free(mm->nodes[i].members);
	}
	free(mm->nodes);
	memset(mm, 0, sizeof(*mm));
}
