/*
 * zabbix_exact.c - the template's rates and ratios, exact between any two
 * of Zabbix's readings: the events counted between two of the agent's
 * polls over the time the agent counted between them
 * (hwR10kEvCtrCountingTime), both read in one SNMP walk.
 *
 * One master item per host (hwr10k.poll) walks the summed counters, the
 * agent's group (the counting time, the discontinuity time), the CPU
 * groups' table and counters and, when {$HWR10K.CPU.WALK} says so, the
 * per-CPU counters, in one discovery[] walk: one poll of the agent (its
 * OID holds at most 512 characters: five subtrees).  Its JavaScript makes
 * the walk a flat object ("v3": cycles summed, "a9": the counting time,
 * "g3_1": group 1's cycles, "h2_1" its name, "c3_1": CPU 1's cycles).
 * Dependent items take the counters and the clocks from it; calculated
 * items divide their changes.  Discovery rules, dependent on the master,
 * make the items only for the events the host counts (an event not
 * counted has no instance, so no key in the walk) and for the statistics
 * whose inputs it counts, at the first reading after linking: their
 * JavaScript is one text (mib_zbx_keys_js), also the CPUs' and the groups'
 * rules'.  The formulas themselves are zabbix_formula.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/stats.h"
#include "zabbix.h"

#define LEN	 ZBX_LEN
#define KEY_TIME ZBX_KEY_TIME
#define KEY_DISC ZBX_KEY_DISC
#define INTERVAL "{$HWR10K.INTERVAL}"
/* The counting time's arc in hwR10kEvCtrAgent, the discontinuity time's */
#define ARC_TIME 9
#define ARC_DISC 5

static const struct node *find_name(const struct mibmodel *mm, const char *s)
{
	for (size_t i = 0; i < mm->count; i++)
		if (!strcmp(mm->nodes[i].name, s))
			return &mm->nodes[i];
	return NULL;
}

/* A node's numeric OID, into buf. */
static void oid_of(char *buf, size_t len, const struct node *n)
{
	FILE *m = fmemopen(buf, len, "w");
	if (!m) {
		buf[0] = 0;
		return;
	}
	mib_zbx_arcs(m, n);
	fclose(m);
}

/* Where the per-CPU columns are walked, a macro: by default
 * hwR10kEvCtrConformance (no instances: nothing walked, a fleet's
 * default is the sums and the groups); hwR10kEvCtrObjects reads them
 * (doc/nms.md).  Their arcs below hwR10kEvCtrObjects follow: the counter
 * entry, the status and duty cycle columns. */
#define CPU_WALK "{$HWR10K.CPU.WALK}"

static void poll_oid(char *oid, size_t len, const struct mibmodel *mm)
{
	char arcs[256];
	const char *part[] = {"hwR10kEvCtrMetrics",
			      ",{#A},",
			      "hwR10kEvCtrAgent",
			      ",{#G},",
			      "hwR10kEvCtrGroupEntry",
			      ",{#GC},",
			      "hwR10kEvCtrGroupCounterEntry",
			      ",{#C}," CPU_WALK,
			      "~hwR10kEvCtrCpuEntry",
			      ",{#CS}," CPU_WALK,
			      "~hwR10kEvCtrCpuStatus",
			      ",{#CD}," CPU_WALK,
			      "~hwR10kEvCtrCpuDutyCycle",
			      ",{#CT}," CPU_WALK,
			      "~hwR10kEvCtrCpuDiscontinuityTime",
			      "]"};
	char objs[256];
	oid_of(objs, sizeof(objs), find_name(mm, "hwR10kEvCtrObjects"));
	snprintf(oid, len, "discovery[{#V},");
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (part[i][0] != 'h' && part[i][0] != '~') {
			mib_zbx_add(oid, len, part[i]);
			continue;
		}
		/* "~NAME": NAME's arcs below hwR10kEvCtrObjects */
		oid_of(arcs, sizeof(arcs),
		       find_name(mm, part[i] + (part[i][0] == '~')));
		mib_zbx_add(oid, len,
			    part[i][0] == '~' ? arcs + strlen(objs) : arcs);
	}
}

/*
 * The walk's rows to one flat object, keys in the walk's order: "vN" the
 * summed group's object N (state, cpurev, the counters by arc), "aN" the
 * agent's, "hN_G" column N of group G's row (2 its name, 4 its CPUs, 5
 * those counting, 6 its discontinuity time), "gN_G" group G's counter of
 * arc N, "s_CPU", "d_CPU" and "t_CPU" a CPU's status, duty cycle and
 * discontinuity time, "cN_CPU" a CPU's counter of arc N: only the events
 * {$HWR10K.LLD.CPU.EVENT.MATCHES} names (the dependent items' master
 * value is this object: the walk's other per-CPU counters cost no more).
 * The discovery rules read it through mib_zbx_keys_js.
 */
static void poll_js(char *js, size_t len)
{
	char names[LEN];
	mib_zbx_names_js(names, sizeof(names));
	snprintf(js, len,
		 "var rows = JSON.parse(value), o = {}, i, k, r, x, c,\n"
		 "  n = %s,\n"
		 "  re = new RegExp(\"{$HWR10K.LLD.CPU.EVENT.MATCHES}\");\n"
		 "for (i = 0; i < rows.length; i++) {\n"
		 "  r = rows[i]; x = r[\"{#SNMPINDEX}\"].split(\".\");\n"
		 "  for (k in r) {\n"
		 "    if (k === \"{#V}\" || k === \"{#A}\")\n"
		 "      o[(k === \"{#V}\" ? \"v\" : \"a\") + x[0]] = r[k];\n"
		 "    else if (k === \"{#CS}\" || k === \"{#CD}\" || "
		 "k === \"{#CT}\")\n"
		 "      o[(k === \"{#CS}\" ? \"s_\" : k === \"{#CD}\" ? "
		 "\"d_\" : \"t_\") + x[0]] = r[k];\n"
		 "    else if (x.length !== 2)\n"
		 "      continue;\n"
		 "    else if (k === \"{#G}\")\n"
		 "      o[\"h\" + x[0] + \"_\" + x[1]] = r[k];\n"
		 "    else if (k === \"{#GC}\" && n[x[0]])\n"
		 "      o[\"g\" + x[0] + \"_\" + x[1]] = r[k];\n"
		 "    else if (k === \"{#C}\" && (c = n[x[0]]) && re.test(c))\n"
		 "      o[\"c\" + x[0] + \"_\" + x[1]] = r[k];\n"
		 "  }\n"
		 "}\n"
		 "return JSON.stringify(o);",
		 names);
}

static void put_clock_items(FILE *out, const struct mibmodel *mm)
{
	char path[16];
	struct mib_zbx_item t = {
	    .key = KEY_TIME,
	    .name = "Event counter counting time",
	    .vt = V_UNSIGNED,
	    .units = "ns",
	    .type = I_DEPENDENT,
	    .master = ZBX_POLL_KEY,
	    .history = "1d",
	    .no_trends = true,
	    .descr = "The time the counters cover by the backend's clock, "
		     "read in the same walk as the counters: what the rates "
		     "divide by (HW-R10KEVCTR-MIB::hwR10kEvCtrCountingTime)."};
	snprintf(path, sizeof(path), "$.a%d", ARC_TIME);
	t.path = path;
	mib_zbx_item(out, 8, &t);

	char dpath[16];
	struct mib_zbx_item d = {
	    .n = mib_zbx_find_tag(mm, TAG_DISCONTINUITY_TIME, -1),
	    .key = KEY_DISC,
	    .name = "Event counter discontinuity time",
	    .vt = V_FLOAT,
	    .units = "uptime",
	    .type = I_DEPENDENT,
	    .master = ZBX_POLL_KEY,
	    .prep = P_MULTIPLY,
	    .param = "0.01"};
	snprintf(dpath, sizeof(dpath), "$.a%d", ARC_DISC);
	d.path = dpath;
	mib_zbx_with_triggers(out, 8, &d, false);
}

void mib_zbx_exact_items(FILE *out, const struct mibmodel *mm)
{
	char oid[LEN], js[LEN * 2];
	poll_oid(oid, sizeof(oid), mm);
	poll_js(js, sizeof(js));
	struct mib_zbx_item m = {
	    .key = ZBX_POLL_KEY,
	    .name = "Event counters (one walk)",
	    .vt = V_TEXT,
	    .type = I_SNMP,
	    .oid = oid,
	    .delay = INTERVAL,
	    .history = "0",
	    .js = js,
	    .descr = "One walk of the summed counters, the agent's group "
		     "(counting time, discontinuity time), the CPU groups' "
		     "table and counters and, when {$HWR10K.CPU.WALK} names "
		     "hwR10kEvCtrCpuEntry, the per-CPU counters, so that all "
		     "come from one poll of the agent; the rates and "
		     "statistics are computed from it.  Per CPU it keeps the "
		     "events {$HWR10K.LLD.CPU.EVENT.MATCHES} names."};
	mib_zbx_item(out, 8, &m);
	put_clock_items(out, mm);
}

/* Per scope: the counter's key, its JSONPath in the master's object, the
 * rate's key, the items' names. */
static const struct {
	const char *count, *path, *rate, *cname, *rname, *disc;
} scope[] = {
    [ZS_SUM] = {"hwr10k.count[{#EVENT}]", "$.v{#COL}",
		"hwr10k.events[{#EVENT}]",
		"Events counted: {#EVENT} (all CPUs)",
		"Events per second: {#EVENT} (all CPUs)", KEY_DISC},
    [ZS_CPU] = {"hwr10k.cpu.count[{#CPU},{#EVENT}]", "$.c{#COL}_{#CPU}",
		"hwr10k.cpu.events[{#CPU},{#EVENT}]",
		"CPU {#CPU}: events counted: {#EVENT}",
		"CPU {#CPU}: events per second: {#EVENT}", ZBX_KEY_CPU_DISC},
    [ZS_GROUP] = {"hwr10k.group.count[{#GROUP},{#EVENT}]", "$.g{#COL}_{#GIDX}",
		  "hwr10k.group.events[{#GROUP},{#EVENT}]",
		  "Group {#GROUP}: events counted: {#EVENT}",
		  "Group {#GROUP}: events per second: {#EVENT}",
		  ZBX_KEY_GROUP_DISC},
};

static void put_rate_prototype(FILE *out, enum zbx_scope sc)
{
	char f[LEN * 2];
	struct mib_zbx_item c = {
	    .key = scope[sc].count,
	    .vt = V_UNSIGNED,
	    .type = I_DEPENDENT,
	    .master = ZBX_POLL_KEY,
	    .history = "1d",
	    .no_trends = true,
	    .units = "events",
	    .cpu = sc == ZS_CPU ? "{#CPU}" : NULL,
	    .group = sc == ZS_GROUP ? "{#GROUP}" : NULL,
	    .name = scope[sc].cname,
	    .path = scope[sc].path,
	    .path_may_miss = sc != ZS_SUM,
	    .descr = "The event counter (HW-R10KEVCTR-MIB), read in the "
		     "walk of hwr10k.poll."};
	mib_zbx_item(out, 12, &c);

	mib_zbx_rate_formula(f, sizeof(f), scope[sc].count, scope[sc].disc);
	struct mib_zbx_item r = {
	    .key = scope[sc].rate,
	    .name = scope[sc].rname,
	    .vt = V_FLOAT,
	    .units = "events/s",
	    .type = I_CALCULATED,
	    .delay = INTERVAL,
	    .formula = f,
	    .says_none = true,
	    .cpu = c.cpu,
	    .group = c.group,
	    .descr = sc == ZS_GROUP
			 ? "The group's events counted between two readings "
			   "over the time the agent counted between them "
			   "(exact at any item interval); none across a "
			   "discontinuity of the group (of one of its CPUs)."
		     : sc == ZS_CPU
			 ? "The CPU's events counted between two readings "
			   "over the time the agent counted between them "
			   "(exact at any item interval); none across a "
			   "discontinuity of this CPU."
			 : "The events counted between two readings over the "
			   "time the agent counted between them (exact at any "
			   "item interval); none across a discontinuity."};
	mib_zbx_item(out, 12, &r);
}

void mib_zbx_names_js(char *buf, size_t len)
{
	snprintf(buf, len, "{");
	for (int c = 0; c < COUNTER_COUNT; c++) {
		char one[96];
		snprintf(one, sizeof(one), "%s\"%u\": \"%s\"", c ? ", " : "",
			 meta_counters[c].arc, meta_counters[c].name);
		mib_zbx_add(buf, len, one);
	}
	mib_zbx_add(buf, len, "}");
}

void mib_zbx_keys_js(char *js, size_t len, const char *vars, const char *re,
		     const char *cond, const char *row)
{
	if ((size_t)snprintf(js, len,
			     "var o = JSON.parse(value), %sout = [], k, m;\n"
			     "for (k in o) {\n"
			     "  m = /^%s$/.exec(k);\n"
			     "  if (m%s)%sout.push(%s);\n"
			     "}\n"
			     "return JSON.stringify(out);",
			     vars, re, cond, cond[0] ? "\n    " : " ",
			     row) >= len) {
		fprintf(stderr,
			"genmib: a discovery rule's JavaScript over "
			"%zu bytes: /^%s$/\n",
			len, re);
		exit(1);
	}
}

/* An events rule's JavaScript: a row per counter in the walk's object
 * (summed: key "vN"; per CPU: "cN_CPU"; per group: "gN_G", named by the
 * group's row "h2_G") whose arc N is an event's. */
static void event_js(char *js, size_t len, enum zbx_scope sc)
{
	static const char *const re[] = {"v([0-9]+)", "c([0-9]+)_([0-9]+)",
					 "g([0-9]+)_([0-9]+)"};
	static const char *const row[] = {
	    "", "\"{#CPU}\": m[2], ",
	    "\"{#GROUP}\": o[\"h2_\" + m[2]], \"{#GIDX}\": m[2], "};
	char names[LEN], vars[LEN + 8], r[256];
	mib_zbx_names_js(names, sizeof(names));
	snprintf(vars, sizeof(vars), "n = %s, ", names);
	snprintf(r, sizeof(r), "{%s\"{#EVENT}\": n[m[1]], \"{#COL}\": m[1]}",
		 row[sc]);
	mib_zbx_keys_js(js, len, vars, re[sc],
			sc == ZS_GROUP ? " && n[m[1]] && (\"h2_\" + m[2]) in o"
				       : " && n[m[1]]",
			r);
}

void mib_zbx_event_rule(FILE *out, enum zbx_scope sc)
{
	static const struct mib_zbx_rule rules[] = {
	    [ZS_SUM] = {.key = "hwr10k.events.discovery",
			.name = "Events counted",
			.descr =
			    "The events the host counts (the summed counters "
			    "the agent serves): their counters and rates."},
	    [ZS_CPU] = {.key = "hwr10k.cpu.events.discovery",
			.name = "Events counted per CPU",
			.cpu = "{#CPU}",
			.descr =
			    "Each CPU's counted events among those "
			    "{$HWR10K.LLD.CPU.EVENT.MATCHES} names ({#CPU} "
			    "the CPU number), when {$HWR10K.CPU.WALK} reads "
			    "the per-CPU counters."},
	    [ZS_GROUP] = {.key = "hwr10k.group.events.discovery",
			  .name = "Events counted per CPU group",
			  .group = "{#GROUP}",
			  .descr = "Each CPU group's counted events ({#GROUP} "
				   "the group's name, hwR10kEvCtrGroupName)."},
	};
	char js[LEN * 2];
	struct mib_zbx_rule r = rules[sc];
	event_js(js, sizeof(js), sc);
	r.master = ZBX_POLL_KEY;
	r.js = js;
	mib_zbx_rule(out, &r);
	put_rate_prototype(out, sc);
	if (sc == ZS_SUM)
		mib_zbx_graph_prototype(out, ZBX_GRAPH_EVENTS,
					"hwr10k.events[{#EVENT}]", "1A7C11");
	else if (sc == ZS_GROUP)
		mib_zbx_graph_prototype(out, ZBX_GRAPH_GROUP_EVENTS,
					scope[sc].rate, "1A7C11");
}

void mib_zbx_exact_rules(FILE *out)
{
	mib_zbx_event_rule(out, ZS_SUM);
	mib_zbx_event_rule(out, ZS_CPU);
	for (size_t st = 0; st < meta_stat_count; st++) {
		mib_zbx_stat_rule(out, st, ZS_SUM);
		mib_zbx_stat_rule(out, st, ZS_CPU);
	}
}
