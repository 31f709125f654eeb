/*
 * zabbix_exact.c - the template's rates and ratios, exact between any two
 * of Zabbix's readings: the events counted between two of the agent's
 * polls over the time the agent counted between them
 * (hwR10kEvCtrCountingTime), both read in one SNMP walk.
 *
 * One master item per host (hwr10k.poll) walks the summed counters, the
 * agent's group (the counting time, the discontinuity time) and the
 * per-CPU counters, in one discovery[] walk: one poll of the agent (its
 * OID holds at most 512 characters: three subtrees).  Its JavaScript makes the
 * walk a flat object ("v3": cycles summed, "a9": the counting time, "c3_1": CPU
 * 1's cycles).  Dependent items take the counters and the clocks from it;
 * calculated items divide their changes.  Discovery rules, dependent on the
 * master, make the items only for the events the host counts (an event not
 * counted has no instance, so no key in the walk) and for the statistics whose
 * inputs it counts, at the first reading after linking.  The formulas
 * themselves are zabbix_formula.c's.
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

const struct node *zbx_find_tag(const struct mibmodel *mm, enum obj_tag tag,
				int counter)
{
	for (size_t i = 0; i < mm->count; i++)
		if (mm->nodes[i].tag == tag &&
		    (counter < 0 || mm->nodes[i].counter == counter) &&
		    (mm->nodes[i].kind == NK_SCALAR ||
		     mm->nodes[i].kind == NK_COLUMN))
			return &mm->nodes[i];
	return NULL;
}

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
	zbx_arcs(m, n);
	fclose(m);
}

static void poll_oid(char *oid, size_t len, const struct mibmodel *mm)
{
	char arcs[256];
	const char *part[] = {"hwR10kEvCtrMetrics",  ",{#A},",
			      "hwR10kEvCtrAgent",    ",{#C},",
			      "hwR10kEvCtrCpuEntry", "]"};
	snprintf(oid, len, "discovery[{#V},");
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (part[i][0] != 'h') {
			zbx_add(oid, len, part[i]);
			continue;
		}
		oid_of(arcs, sizeof(arcs), find_name(mm, part[i]));
		zbx_add(oid, len, arcs);
	}
}

static void names_js(char *buf, size_t len);

/*
 * The walk's rows to one flat object, keys in the walk's order: "vN" the
 * summed group's object N (state, cpurev, the counters by arc), "aN" the
 * agent's, "cN_CPU" a CPU's counter of arc N: only the events
 * {$HWR10K.LLD.CPU.EVENT.MATCHES} names (the dependent items' master
 * value is this object: the walk's other per-CPU counters cost no more).
 */
static void poll_js(char *js, size_t len)
{
	char names[LEN];
	names_js(names, sizeof(names));
	snprintf(js, len,
		 "var rows = JSON.parse(value), o = {}, i, k, r, x, c,\n"
		 "  n = %s,\n"
		 "  re = new RegExp(\"{$HWR10K.LLD.CPU.EVENT.MATCHES}\");\n"
		 "for (i = 0; i < rows.length; i++) {\n"
		 "  r = rows[i]; x = r[\"{#SNMPINDEX}\"].split(\".\");\n"
		 "  for (k in r) {\n"
		 "    if (k === \"{#V}\" || k === \"{#A}\")\n"
		 "      o[(k === \"{#V}\" ? \"v\" : \"a\") + x[0]] = r[k];\n"
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
	struct zbx_item t = {
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
	zbx_item(out, 8, &t);

	char dpath[16];
	struct zbx_item d = {.n = zbx_find_tag(mm, TAG_DISCONTINUITY_TIME, -1),
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
	zbx_with_triggers(out, 8, &d, false);
}

void zbx_exact_items(FILE *out, const struct mibmodel *mm)
{
	char oid[LEN], js[LEN * 2];
	poll_oid(oid, sizeof(oid), mm);
	poll_js(js, sizeof(js));
	struct zbx_item m = {
	    .key = ZBX_POLL_KEY,
	    .name = "Event counters (one walk)",
	    .vt = V_TEXT,
	    .type = I_SNMP,
	    .oid = oid,
	    .delay = INTERVAL,
	    .history = "0",
	    .js = js,
	    .descr = "One walk of the summed counters, the agent's group "
		     "(counting time, discontinuity time) and the per-CPU "
		     "counters, so that all come from one poll of the agent; "
		     "the rates and statistics are computed from it.  Per "
		     "CPU it keeps the events {$HWR10K.LLD.CPU.EVENT.MATCHES} "
		     "names."};
	zbx_item(out, 8, &m);
	put_clock_items(out, mm);
}

static void put_rate_prototype(FILE *out, bool cpu)
{
	char count[128], f[LEN * 2];
	snprintf(count, sizeof(count), "%s",
		 cpu ? "hwr10k.cpu.count[{#CPU},{#EVENT}]"
		     : "hwr10k.count[{#EVENT}]");
	struct zbx_item c = {
	    .key = count,
	    .vt = V_UNSIGNED,
	    .type = I_DEPENDENT,
	    .master = ZBX_POLL_KEY,
	    .history = "1d",
	    .no_trends = true,
	    .units = "events",
	    .cpu = cpu ? "{#CPU}" : NULL,
	    .name = cpu ? "CPU {#CPU}: events counted: {#EVENT}"
			: "Events counted: {#EVENT} (all CPUs)",
	    .path = cpu ? "$.c{#COL}_{#CPU}" : "$.v{#COL}",
	    .path_may_miss = cpu,
	    .descr = "The event counter (HW-R10KEVCTR-MIB), read in the "
		     "walk of hwr10k.poll."};
	zbx_item(out, 12, &c);

	zbx_rate_formula(f, sizeof(f), count);
	struct zbx_item r = {
	    .key = cpu ? "hwr10k.cpu.events[{#CPU},{#EVENT}]"
		       : "hwr10k.events[{#EVENT}]",
	    .name = cpu ? "CPU {#CPU}: events per second: {#EVENT}"
			: "Events per second: {#EVENT} (all CPUs)",
	    .vt = V_FLOAT,
	    .units = "events/s",
	    .type = I_CALCULATED,
	    .delay = INTERVAL,
	    .formula = f,
	    .says_none = true,
	    .cpu = cpu ? "{#CPU}" : NULL,
	    .descr = "The events counted between two readings over the time "
		     "the agent counted between them (exact at any item "
		     "interval); none across a discontinuity."};
	zbx_item(out, 12, &r);
}

/* {"3":"cycles",...}: the counters by arc. */
static void names_js(char *buf, size_t len)
{
	snprintf(buf, len, "{");
	for (int c = 0; c < COUNTER_COUNT; c++) {
		char one[96];
		snprintf(one, sizeof(one), "%s\"%u\": \"%s\"", c ? ", " : "",
			 counters[c].arc, counters[c].name);
		zbx_add(buf, len, one);
	}
	zbx_add(buf, len, "}");
}

/* An events rule's JavaScript: a row per counter in the walk's object
 * (summed: key "vN"; per CPU: "cN_CPU") whose arc N is an event's. */
static void event_js(char *js, size_t len, bool cpu)
{
	char names[LEN];
	names_js(names, sizeof(names));
	snprintf(js, len,
		 "var o = JSON.parse(value), n = %s, out = [], k, m;\n"
		 "for (k in o) {\n"
		 "  m = /^%s$/.exec(k);\n"
		 "  if (m && n[m[1]])\n"
		 "    out.push({%s\"{#EVENT}\": n[m[1]], \"{#COL}\": m[1]});\n"
		 "}\n"
		 "return JSON.stringify(out);",
		 names, cpu ? "c([0-9]+)_([0-9]+)" : "v([0-9]+)",
		 cpu ? "\"{#CPU}\": m[2], " : "");
}

static void put_event_rules(FILE *out)
{
	char js[LEN * 2];
	event_js(js, sizeof(js), false);
	struct zbx_rule r = {
	    .key = "hwr10k.events.discovery",
	    .name = "Events counted",
	    .master = ZBX_POLL_KEY,
	    .js = js,
	    .descr = "The events the host counts (the summed counters the "
		     "agent serves): their counters and rates."};
	zbx_rule(out, &r);
	put_rate_prototype(out, false);
	zbx_graph_prototype(out, ZBX_GRAPH_EVENTS, "hwr10k.events[{#EVENT}]",
			    "1A7C11");

	event_js(js, sizeof(js), true);
	struct zbx_rule rc = {
	    .key = "hwr10k.cpu.events.discovery",
	    .name = "Events counted per CPU",
	    .master = ZBX_POLL_KEY,
	    .js = js,
	    .cpu = "{#CPU}",
	    .descr = "Each CPU's counted events among those "
		     "{$HWR10K.LLD.CPU.EVENT.MATCHES} names ({#CPU} the CPU "
		     "number)."};
	zbx_rule(out, &rc);
	put_rate_prototype(out, true);
}

/* The summed statistic's macro, {#STAT.IPC}: one of its own for each
 * rule, whose prototype's key must name a macro and differ from the other
 * rules' (a graph prototype finds its item by key). */
static void stat_macro(char *buf, size_t len, size_t st)
{
	snprintf(buf, len, "{#STAT.");
	for (const char *p = stat_defs[st].name; *p; p++) {
		char one[2] = {(char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p),
			       0};
		zbx_add(buf, len, one);
	}
	zbx_add(buf, len, "}");
}

/* The rule's JavaScript: one row when the host counts every input of
 * the statistic (per CPU: a row per CPU that does) and, for a rev 3
 * statistic, the CPU revision is not below 3 (stat_eval.c's rule). */
static void stat_js(char *js, size_t len, size_t st, bool cpu)
{
	const struct stat_def *s = &stat_defs[st];
	int k[4];
	char arcs[64] = "", row[128], macro[64];
	zbx_stat_counters(st, k);
	stat_macro(macro, sizeof(macro), st);
	if (cpu)
		snprintf(row, sizeof(row), "{\"{#CPU}\": m[2]}");
	else
		snprintf(row, sizeof(row), "{\"%s\": \"%s\"}", macro, s->name);
	for (int i = 0; i < 4; i++) {
		char one[16];
		if (k[i] < 0)
			continue;
		snprintf(one, sizeof(one), "%s%u", arcs[0] ? ", " : "",
			 counters[k[i]].arc);
		zbx_add(arcs, sizeof(arcs), one);
	}
	snprintf(js, len,
		 "var o = JSON.parse(value), c = [%s], out = [], k, m, i, ok;\n"
		 "%s"
		 "for (k in o) {\n"
		 "  m = /^%s$/.exec(k);\n"
		 "  if (!m || m[1] !== String(c[0])) continue;\n"
		 "  for (ok = true, i = 1; i < c.length; i++)\n"
		 "    ok = ok && ((\"%s\" + c[i]%s) in o);\n"
		 "  if (ok) out.push(%s);\n"
		 "}\n"
		 "return JSON.stringify(out);",
		 arcs,
		 s->rule == STAT_REV3
		     ? "m = /^([0-9]+)\\.[0-9]+$/.exec(o.v2 || \"\");\n"
		       "if (m && +m[1] < 3) return \"[]\";\n"
		     : "",
		 cpu ? "c([0-9]+)_([0-9]+)" : "v([0-9]+)", cpu ? "c" : "v",
		 cpu ? " + \"_\" + m[2]" : "", row);
}

static void put_stat_rule(FILE *out, size_t st, bool cpu)
{
	const struct stat_def *s = &stat_defs[st];
	char js[LEN], key[128], name[256], f[LEN * 4], ikey[128], iname[256];
	stat_js(js, sizeof(js), st, cpu);
	snprintf(key, sizeof(key), "hwr10k.%sstat.discovery[%s]",
		 cpu ? "cpu." : "", s->name);
	snprintf(name, sizeof(name), "Statistic %s%s", s->name,
		 cpu ? " per CPU" : "");
	struct zbx_rule r = {
	    .key = key,
	    .name = name,
	    .master = ZBX_POLL_KEY,
	    .js = js,
	    .cpu = cpu ? "{#CPU}" : NULL,
	    .descr = "Made where the host counts every event the statistic "
		     "is computed from (as the agent: doc/nms.md)."};
	zbx_rule(out, &r);
	zbx_stat_formula(f, sizeof(f), st, cpu);
	if (cpu)
		snprintf(ikey, sizeof(ikey), "hwr10k.cpu.stat[{#CPU},%s]",
			 s->name);
	else {
		char macro[64];
		stat_macro(macro, sizeof(macro), st);
		snprintf(ikey, sizeof(ikey), "hwr10k.stat[%s]", macro);
	}
	if (s->scale)
		snprintf(iname, sizeof(iname), "%s%s %s: %s%s",
			 cpu ? "CPU {#CPU}: " : "", cpu ? "ratio" : "Ratio",
			 s->name, s->units, cpu ? "" : " (all CPUs)");
	else
		snprintf(iname, sizeof(iname), "%sEvents per second: %s%s",
			 cpu ? "CPU {#CPU}: " : "", s->name,
			 cpu ? "" : " (all CPUs)");
	struct zbx_item it = {.key = ikey,
			      .name = iname,
			      .vt = V_FLOAT,
			      .units = s->scale ? NULL : "events/s",
			      .type = I_CALCULATED,
			      .delay = INTERVAL,
			      .formula = f,
			      .says_none = true,
			      .cpu = cpu ? "{#CPU}" : NULL,
			      .descr = s->summary};
	zbx_item(out, 12, &it);
	if (!strcmp(s->name, "ipc"))
		zbx_graph_prototype(out,
				    cpu ? ZBX_GRAPH_CPU_IPC : ZBX_GRAPH_IPC,
				    ikey, "1A7C11");
}

void zbx_exact_rules(FILE *out)
{
	put_event_rules(out);
	for (size_t st = 0; st < stat_count; st++) {
		put_stat_rule(out, st, false);
		put_stat_rule(out, st, true);
	}
}
