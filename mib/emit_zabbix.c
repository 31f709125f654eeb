/*
 * emit_zabbix.c - writes the MIB model as a Zabbix 6.0 template (YAML
 * export format): conf/zabbix/hw-r10kevctr.zabbix.yaml.
 *
 * The layout: the items of the MIB's scalars (zabbix_items.c says which
 * and how) and Zabbix's own SNMP availability item; a low-level discovery
 * rule over the per-CPU table whose prototypes are the per-CPU objects;
 * for each event that only some CPU revisions count (vcc, fucomp), rules
 * of its own that find whether the host serves it, so that no item is
 * made that can never be supported; graphs, graph prototypes and a
 * dashboard; macros; value maps.  OIDs are numeric (no MIB needed on the
 * Zabbix server).  Deterministic: UUIDs are hashes of the keys, the date
 * the MIB's newest revision.
 */
#include <string.h>

#include "zabbix.h"

/* Zabbix's own group (its data.sql has this UUID for it). */
#define GROUP	   "Templates/Server hardware"
#define GROUP_UUID "e960332b3f6c46a1956486d4f3f99fce"
#define KEYLEN	   160

static const struct node *find_tag(const struct mibmodel *mm, enum obj_tag tag,
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

static void put_with_triggers(FILE *out, int in, const struct zbx_item *it,
			      bool proto)
{
	size_t nt;
	const struct zbx_trigger *t = zbx_triggers_on(it->n, &nt);
	zbx_item(out, in, it);
	if (nt)
		zbx_triggers(out, in, t, nt, proto);
}

static void put_availability_item(FILE *out)
{
	fprintf(out, "        -\n          uuid: ");
	zbx_uuid(out, "item/", "zabbix[host,snmp,available]");
	fprintf(out,
		"          name: 'SNMP agent availability'\n"
		"          type: INTERNAL\n"
		"          key: 'zabbix[host,snmp,available]'\n"
		"          delay: '{$HWR10K.INTERVAL}'\n"
		"          history: 7d\n"
		"          description: 'Whether the host''s SNMP interface "
		"answers Zabbix (Zabbix''s own view: 0 not available, 1 "
		"available, 2 unknown).'\n"
		"          valuemap:\n"
		"            name: 'zabbix.host.available'\n");
	const char *tags[] = {"component", "health", NULL};
	zbx_tags(out, 10, tags);
	zbx_triggers(out, 8, &zbx_snmp_down, 1, false);
}

/* A discovery rule walking `walk`: its head, up to item_prototypes. */
static void put_rule(FILE *out, const char *key, const char *name,
		     const struct node *walk, const char *descr, bool cpus)
{
	fprintf(out, "        -\n          uuid: ");
	zbx_uuid(out, "lld/", key);
	fprintf(out, "          name: ");
	zbx_q(out, name);
	fprintf(out, "\n          type: SNMP_AGENT\n"
		     "          snmp_oid: 'discovery[{#VALUE},");
	zbx_arcs(out, walk);
	fprintf(out, "]'\n          key: '%s'\n"
		     "          delay: '{$HWR10K.LLD.INTERVAL}'\n",
		key);
	if (cpus)
		fprintf(out,
			"          filter:\n            evaltype: AND\n"
			"            conditions:\n"
			"              -\n                macro: '{#SNMPINDEX}'\n"
			"                value: '{$HWR10K.LLD.CPU.MATCHES}'\n"
			"                formulaid: A\n"
			"              -\n                macro: '{#SNMPINDEX}'\n"
			"                value: '{$HWR10K.LLD.CPU.NOT_MATCHES}'\n"
			"                operator: NOT_MATCHES_REGEX\n"
			"                formulaid: B\n");
	fprintf(out, "          description: ");
	zbx_q(out, descr);
	fprintf(out, "\n          item_prototypes:\n");
}

/* The prototypes of the per-CPU objects in a rule (rev_rule: the one
 * event the rule is for; else every other). */
static void put_cpu_prototypes(FILE *out, const struct mibmodel *mm,
			       int counter)
{
	char key[KEYLEN], name[256];
	struct zbx_item it;
	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (n->kind != NK_COLUMN || n->table != TBL_CPU ||
		    (counter >= 0 && n->counter != counter) ||
		    !zbx_item_for(n, &it, key, name, KEYLEN, counter >= 0))
			continue;
		put_with_triggers(out, 12, &it, true);
	}
}

struct graph_line {
	const char *key;
	const char *color;
	bool right;
};

static void put_graph(FILE *out, int in, const char *name,
		      const struct graph_line *l, size_t n)
{
	int f = in + 2;
	fprintf(out, "%*s-\n%*suuid: ", in, "", f, "");
	zbx_uuid(out, "graph/", name);
	fprintf(out, "%*sname: ", f, "");
	zbx_q(out, name);
	fprintf(out, "\n%*sgraph_items:\n", f, "");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%*s-\n", f + 2, "");
		if (i)
			fprintf(out, "%*ssortorder: '%zu'\n", f + 4, "", i);
		fprintf(out, "%*scolor: %s\n", f + 4, "", l[i].color);
		if (l[i].right)
			fprintf(out, "%*syaxisside: RIGHT\n", f + 4, "");
		fprintf(out, "%*sitem:\n%*shost: '%s'\n%*skey: '%s'\n", f + 4,
			"", f + 6, "", ZBX_TEMPLATE, f + 6, "", l[i].key);
	}
}

/* Cycles and instructions left, the misses right (orders apart); the
 * first line of each (green) is drawn last, on top of any it meets. */
#define RATES(pre, cpu)                                                     \
	{pre "events[" cpu "grad.instrg]", "2774A4", false},               \
	    {pre "events[" cpu "pcache.dmiss]", "F63100", true},           \
	    {pre "events[" cpu "scache.dmiss]", "A54F10", true},           \
	{                                                                  \
		pre "events[" cpu "cycles]", "1A7C11", false               \
	}
#define RATIOS(pre, cpu)                                                    \
	{pre "stat[" cpu "pcache.dmiss.ratio]", "F63100", true},           \
	    {pre "stat[" cpu "scache.dmiss.ratio]", "A54F10", true},       \
	    {pre "stat[" cpu "branch.mispredict]", "2774A4", true},        \
	{                                                                  \
		pre "stat[" cpu "ipc]", "1A7C11", false                    \
	}
static const struct graph_line rates[] = {RATES("hwr10k.", "")};
static const struct graph_line ratios[] = {RATIOS("hwr10k.", "")};
static const struct graph_line cpu_rates[] = {
    RATES("hwr10k.cpu.", "{#SNMPINDEX},")};
static const struct graph_line cpu_ratios[] = {
    RATIOS("hwr10k.cpu.", "{#SNMPINDEX},")};
#define RATES_GRAPH	"Event rates (all CPUs)"
#define RATIOS_GRAPH	"IPC and miss ratios (all CPUs)"
#define CPU_RATES_GRAPH "CPU {#SNMPINDEX}: event rates"
#define CPU_RATIOS_GRAPH "CPU {#SNMPINDEX}: IPC and miss ratios"

static void put_widget(FILE *out, int x, int y, const char *type,
		       const char *field, const char *name, const char *key)
{
	fprintf(out, "                -\n                  type: %s\n", type);
	if (x)
		fprintf(out, "                  x: '%d'\n", x);
	if (y)
		fprintf(out, "                  'y': '%d'\n", y);
	fprintf(out, "                  width: '12'\n"
		     "                  height: '5'\n"
		     "                  fields:\n");
	if (key)
		fprintf(out,
			"                    -\n"
			"                      type: INTEGER\n"
			"                      name: source_type\n"
			"                      value: '1'\n");
	if (!strcmp(type, "GRAPH_PROTOTYPE"))
		fprintf(out,
			"                    -\n"
			"                      type: INTEGER\n"
			"                      name: columns\n"
			"                      value: '2'\n");
	fprintf(out,
		"                    -\n"
		"                      type: %s\n"
		"                      name: %s\n"
		"                      value:\n"
		"                        host: '%s'\n",
		field, key ? "itemid" : "graphid", ZBX_TEMPLATE);
	if (key)
		fprintf(out, "                        key: '%s'\n", key);
	else
		fprintf(out, "                        name: '%s'\n", name);
}

static void put_dashboard(FILE *out)
{
	fprintf(out, "      dashboards:\n        -\n          uuid: ");
	zbx_uuid(out, "dashboard/", "R10000 event counters");
	fprintf(out, "          name: 'R10000 event counters'\n"
		     "          pages:\n            -\n"
		     "              widgets:\n");
	put_widget(out, 0, 0, "GRAPH_CLASSIC", "GRAPH", RATES_GRAPH, NULL);
	put_widget(out, 12, 0, "GRAPH_CLASSIC", "GRAPH", RATIOS_GRAPH, NULL);
	put_widget(out, 0, 5, "GRAPH_PROTOTYPE", "GRAPH_PROTOTYPE",
		   CPU_RATES_GRAPH, NULL);
	put_widget(out, 12, 5, "GRAPH_PROTOTYPE", "GRAPH_PROTOTYPE",
		   CPU_RATIOS_GRAPH, NULL);
	put_widget(out, 0, 10, "GRAPH_CLASSIC", "ITEM", NULL, "hwr10k.state");
}

struct macro {
	const char *name, *value, *descr;
};
static const struct macro macros[] = {
    {"{$HWR10K.DUTY.MIN}", "50",
     "A counting CPU that counts its events less than this % of the time is "
     "multiplexed."},
    {"{$HWR10K.INFO.INTERVAL}", "5m",
     "How often the CPU revision and the backend are read (stored when "
     "they change, and once a day)."},
    {"{$HWR10K.INTERVAL}", "1m",
     "How often the rates and statistics are read: any interval (each "
     "value is the agent's own over its last poll interval); faster than "
     "the agent's pollInterval repeats values."},
    {"{$HWR10K.LLD.CPU.MATCHES}", ".*",
     "Discover the CPUs whose number matches this regular expression."},
    {"{$HWR10K.LLD.CPU.NOT_MATCHES}", "CHANGE_IF_NEEDED",
     "Do not discover the CPUs whose number matches this regular "
     "expression."},
    {"{$HWR10K.LLD.INTERVAL}", "1h", "How often the CPUs are discovered."},
    {"{$HWR10K.NODATA}", "10m",
     "No state for this long: the subagent is not serving."},
    {"{$HWR10K.SNMP.TIMEOUT}", "5m",
     "No SNMP answer for this long: one problem for the host, on which "
     "the template's other triggers depend."},
};

static void put_valuemaps(FILE *out, const struct mibmodel *mm)
{
	fprintf(out, "      valuemaps:\n");
	zbx_enum_valuemap(out, find_tag(mm, TAG_CPU_STATUS, -1));
	fprintf(out, "        -\n          uuid: ");
	zbx_uuid(out, "valuemap/", "hwR10kEvCtrState");
	fprintf(out,
		"          name: 'HW-R10KEVCTR-MIB::hwR10kEvCtrState'\n"
		"          mappings:\n"
		"            -\n              value: '-1'\n"
		"              newvalue: 'no event counters'\n"
		"            -\n              value: '0'\n"
		"              newvalue: 'counters disabled'\n");
	fprintf(out, "        -\n          uuid: ");
	zbx_uuid(out, "valuemap/", "zabbix.host.available");
	fprintf(out, "          name: 'zabbix.host.available'\n"
		     "          mappings:\n"
		     "            -\n              value: '0'\n"
		     "              newvalue: 'not available'\n"
		     "            -\n              value: '1'\n"
		     "              newvalue: 'available'\n"
		     "            -\n              value: '2'\n"
		     "              newvalue: 'unknown'\n");
}

static void put_head(FILE *out)
{
	const char *date = mibmodel_revision();
	fprintf(out,
		"# Generated by mib/genmib from the MIB's tables (mib/*.def, "
		"mib/hw.help).\n# Do not edit.  A Zabbix 6.0 template: "
		"import it (Configuration >\n# Templates > Import, or the "
		"API's configuration.import); see doc/nms.md.\n");
	fprintf(out, "zabbix_export:\n  version: '6.0'\n");
	fprintf(out, "  date: '%.4s-%.2s-%.2sT00:00:00Z'\n", date, date + 4,
		date + 6);
	fprintf(out, "  groups:\n    -\n      uuid: %s\n      name: '%s'\n",
		GROUP_UUID, GROUP);
	fprintf(out, "  templates:\n    -\n      uuid: ");
	zbx_uuid(out, "template/", ZBX_TEMPLATE);
	fprintf(out, "      template: '%s'\n      name: '%s'\n", ZBX_TEMPLATE,
		ZBX_TEMPLATE);
	fprintf(out,
		"      description: 'SGI R10000 event counters "
		"(PCP hw.r10kevctr.*) from hw-r10kevctr-agent, an AgentX "
		"subagent of the host''s snmpd: HW-R10KEVCTR-MIB.  Events "
		"per second (the agent''s rates over its poll interval, "
		"exact at any item interval), summed and per CPU (low-level "
		"discovery), statistics as ratios.  See doc/nms.md.'\n");
	fprintf(out, "      groups:\n        -\n          name: '%s'\n",
		GROUP);
	const char *tags[] = {"class", "hardware", "target", "r10000", NULL};
	zbx_tags(out, 6, tags);
}

/*
 * The rules of an event only some CPU revisions count: the summed rate's
 * (walking the summed counter: one row, {#SNMPINDEX} 0, where it is
 * served) and the per-CPU rates' (walking the per-CPU counter column).
 */
static void put_rev_rules(FILE *out, const struct mibmodel *mm, int c)
{
	char key[KEYLEN], name[256], rule[KEYLEN], descr[256];
	struct zbx_item it;
	const struct node *total = find_tag(mm, TAG_TOTAL, c);
	const struct node *rate = find_tag(mm, TAG_RATE, c);

	snprintf(rule, sizeof(rule), "hwr10k.events.discovery[%s]",
		 counters[c].name);
	snprintf(name, sizeof(name), "Events %s (CPU revisions that count it)",
		 counters[c].name);
	snprintf(descr, sizeof(descr),
		 "Finds whether the host serves %s (%s): only some R10000 "
		 "revisions count it.",
		 total->name, counters[c].fullname);
	put_rule(out, rule, name, total, descr, false);
	zbx_item_for(rate, &it, key, name, KEYLEN, true);
	zbx_item(out, 12, &it);
	snprintf(rule, sizeof(rule), "hwr10k.cpu.events.discovery[%s]",
		 counters[c].name);
	snprintf(name, sizeof(name), "CPUs counting %s", counters[c].name);
	put_rule(out, rule, name, find_tag(mm, TAG_CPU_COUNTER, c),
		 "The CPUs that count this event ({#SNMPINDEX} is the CPU "
		 "number).",
		 true);
	put_cpu_prototypes(out, mm, c);
}

void mibmodel_write_zabbix(const struct mibmodel *mm, FILE *out)
{
	char key[KEYLEN], name[256];
	struct zbx_item it;

	put_head(out);
	fprintf(out, "      items:\n");
	put_availability_item(out);
	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (n->kind == NK_SCALAR &&
		    zbx_item_for(n, &it, key, name, KEYLEN, false))
			put_with_triggers(out, 8, &it, false);
	}

	fprintf(out, "      discovery_rules:\n");
	put_rule(out, "hwr10k.cpu.discovery", "CPUs with event counters",
		 find_tag(mm, TAG_CPU_STATUS, -1),
		 "One set of items per row of hwR10kEvCtrCpuStatusTable; "
		 "{#SNMPINDEX} is the CPU number.",
		 true);
	put_cpu_prototypes(out, mm, -1);
	fprintf(out, "          graph_prototypes:\n");
	put_graph(out, 12, CPU_RATES_GRAPH, cpu_rates, 4);
	put_graph(out, 12, CPU_RATIOS_GRAPH, cpu_ratios, 4);
	for (int c = 0; c < COUNTER_COUNT; c++)
		if (zbx_rev_dependent(&counters[c]))
			put_rev_rules(out, mm, c);
	put_dashboard(out);

	fprintf(out, "      macros:\n");
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++) {
		fprintf(out, "        -\n          macro: '%s'\n"
			     "          value: '%s'\n          description: ",
			macros[i].name, macros[i].value);
		zbx_q(out, macros[i].descr);
		fputc('\n', out);
	}
	put_valuemaps(out, mm);

	fprintf(out, "  graphs:\n");
	put_graph(out, 4, RATES_GRAPH, rates, 4);
	put_graph(out, 4, RATIOS_GRAPH, ratios, 4);
}
