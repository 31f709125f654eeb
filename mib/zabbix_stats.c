/*
 * zabbix_stats.c - the template's statistics (IPC, miss ratios ...), summed,
 * per CPU and per CPU group: a discovery rule per statistic and scope,
 * dependent on hwr10k.poll, that makes the statistic's item where the
 * host counts every event it is computed from (zabbix_formula.c writes
 * the formula).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/stats.h"
#include "zabbix.h"

#define LEN	 ZBX_LEN
#define INTERVAL "{$HWR10K.INTERVAL}"

/* The summed statistic's macro, {#STAT.IPC}: one of its own for each
 * rule, whose prototype's key must name a macro and differ from the other
 * rules' (a graph prototype finds its item by key). */
static void stat_macro(char *buf, size_t len, size_t st)
{
	snprintf(buf, len, "{#STAT.");
	for (const char *p = meta_stat_defs[st].name; *p; p++) {
		char one[2] = {(char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p),
			       0};
		mib_zbx_add(buf, len, one);
	}
	mib_zbx_add(buf, len, "}");
}

/* The rule's JavaScript: one row when the host counts every input of
 * the statistic (per CPU: a row per CPU that does; per group: a row per
 * group, named by its row's "h2_G") and, for a rev 3 statistic, the CPU
 * revision is not below 3 (stat_eval.c's rule). */
static void stat_js(char *js, size_t len, size_t st, enum zbx_scope sc)
{
	static const char *const re[] = {"v([0-9]+)", "c([0-9]+)_([0-9]+)",
					 "g([0-9]+)_([0-9]+)"};
	static const char *const prefix[] = {"v", "c", "g"};
	const struct stat_def *s = &meta_stat_defs[st];
	int k[4];
	char arcs[64] = "", row[128], macro[64];
	mib_zbx_stat_counters(st, k);
	stat_macro(macro, sizeof(macro), st);
	if (sc == ZS_CPU)
		snprintf(row, sizeof(row), "{\"{#CPU}\": m[2]}");
	else if (sc == ZS_GROUP)
		snprintf(
		    row, sizeof(row),
		    "{\"{#GROUP}\": o[\"h2_\" + m[2]], \"{#GIDX}\": m[2]}");
	else
		snprintf(row, sizeof(row), "{\"%s\": \"%s\"}", macro, s->name);
	for (int i = 0; i < 4; i++) {
		char one[16];
		if (k[i] < 0)
			continue;
		snprintf(one, sizeof(one), "%s%u", arcs[0] ? ", " : "",
			 meta_counters[k[i]].arc);
		mib_zbx_add(arcs, sizeof(arcs), one);
	}
	snprintf(js, len,
		 "var o = JSON.parse(value), c = [%s], out = [], k, m, i, ok;\n"
		 "%s"
		 "for (k in o) {\n"
		 "  m = /^%s$/.exec(k);\n"
		 "  if (!m || m[1] !== String(c[0])) continue;\n"
		 "  for (ok = true, i = 1; i < c.length; i++)\n"
		 "    ok = ok && ((\"%s\" + c[i]%s) in o);\n"
		 "  if (ok%s) out.push(%s);\n"
		 "}\n"
		 "return JSON.stringify(out);",
		 arcs,
		 s->rule == STAT_REV3
		     ? "m = /^([0-9]+)\\.[0-9]+$/.exec(o.v2 || \"\");\n"
		       "if (m && +m[1] < 3) return \"[]\";\n"
		     : "",
		 re[sc], prefix[sc], sc == ZS_SUM ? "" : " + \"_\" + m[2]",
		 sc == ZS_GROUP ? " && (\"h2_\" + m[2]) in o" : "", row);
}

void mib_zbx_stat_rule(FILE *out, size_t st, enum zbx_scope sc)
{
	static const char *const kpre[] = {"", "cpu.", "group."};
	static const char *const per[] = {"", " per CPU", " per CPU group"};
	static const char *const who[] = {"",
					  "CPU {#CPU}: ", "Group {#GROUP}: "};
	const struct stat_def *s = &meta_stat_defs[st];
	char js[LEN], key[128], name[256], f[LEN * 4], ikey[128], iname[256];
	stat_js(js, sizeof(js), st, sc);
	snprintf(key, sizeof(key), "hwr10k.%sstat.discovery[%s]", kpre[sc],
		 s->name);
	snprintf(name, sizeof(name), "Statistic %s%s", s->name, per[sc]);
	struct mib_zbx_rule r = {
	    .key = key,
	    .name = name,
	    .master = ZBX_POLL_KEY,
	    .js = js,
	    .cpu = sc == ZS_CPU ? "{#CPU}" : NULL,
	    .group = sc == ZS_GROUP ? "{#GROUP}" : NULL,
	    .descr = "Made where the host counts every event the statistic "
		     "is computed from (as the agent: doc/nms.md)."};
	mib_zbx_rule(out, &r);
	mib_zbx_stat_formula(f, sizeof(f), st, sc);
	if (sc == ZS_CPU)
		snprintf(ikey, sizeof(ikey), "hwr10k.cpu.stat[{#CPU},%s]",
			 s->name);
	else if (sc == ZS_GROUP)
		snprintf(ikey, sizeof(ikey), "hwr10k.group.stat[{#GROUP},%s]",
			 s->name);
	else {
		char macro[64];
		stat_macro(macro, sizeof(macro), st);
		snprintf(ikey, sizeof(ikey), "hwr10k.stat[%s]", macro);
	}
	if (s->scale)
		snprintf(iname, sizeof(iname), "%s%s %s: %s%s", who[sc],
			 sc == ZS_SUM ? "Ratio" : "ratio", s->name, s->units,
			 sc == ZS_SUM ? " (all CPUs)" : "");
	else
		snprintf(iname, sizeof(iname), "%sEvents per second: %s%s",
			 who[sc], s->name, sc == ZS_SUM ? " (all CPUs)" : "");
	struct mib_zbx_item it = {.key = ikey,
				  .name = iname,
				  .vt = V_FLOAT,
				  .units = s->scale ? NULL : "events/s",
				  .type = I_CALCULATED,
				  .delay = INTERVAL,
				  .formula = f,
				  .says_none = true,
				  .cpu = r.cpu,
				  .group = r.group,
				  .descr = s->summary};
	mib_zbx_item(out, 12, &it);
	if (!strcmp(s->name, "ipc")) {
		static const char *const graph[] = {
		    ZBX_GRAPH_IPC, ZBX_GRAPH_CPU_IPC, ZBX_GRAPH_GROUP_IPC};
		mib_zbx_graph_prototype(out, graph[sc], ikey, "1A7C11");
	}
}
