/*
 * emit_zabbix.c - writes the MIB model as a Zabbix 6.0 template (YAML
 * export format): conf/zabbix/hw-r10kevctr.zabbix.yaml.
 *
 * The layout: the items of the MIB's scalars (zabbix_items.c says which
 * and how) and Zabbix's own SNMP availability item; the master item of
 * the exact rates and its clocks (zabbix_exact.c); a low-level discovery
 * rule over the per-CPU status table (status, duty cycle); the rules of
 * the events and statistics the host counts, with the rates and ratios
 * (zabbix_exact.c), so that no item is made that can never be supported;
 * graph prototypes and a dashboard; macros; value maps.  OIDs are
 * numeric (no MIB needed on the Zabbix server).  Deterministic: UUIDs are
 * hashes of the keys, the date the MIB's newest revision.
 */
#include <stdlib.h>
#include <string.h>

#include "zabbix.h"

/* Zabbix's own group (its data.sql has this UUID for it). */
#define GROUP	   "Templates/Server hardware"
#define GROUP_UUID "e960332b3f6c46a1956486d4f3f99fce"
#define KEYLEN	   160

static void put_availability_item(FILE *out)
{
	fprintf(out, "        -\n          uuid: ");
	mib_zbx_uuid(out, "item/", "zabbix[host,snmp,available]");
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
	mib_zbx_tags(out, 10, tags);
	mib_zbx_triggers(out, 8, &mib_zbx_snmp_down, 1, false);
}

/* The per-CPU objects of the status table's rule: dependent items, the
 * columns hwr10k.poll walks ("s_CPU" the status, "d_CPU" the duty
 * cycle): a CPU away for a poll stores no value, where an SNMP GET of
 * its row would turn unsupported (and its triggers with it). */
static void put_cpu_prototypes(FILE *out, const struct mibmodel *mm)
{
	char key[KEYLEN], name[256];
	struct mib_zbx_item it;
	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (n->kind == NK_COLUMN && n->table == TBL_CPU &&
		    mib_zbx_item_for(n, &it, key, name, KEYLEN)) {
			it.type = I_DEPENDENT;
			it.master = ZBX_POLL_KEY;
			it.path = n->tag == TAG_CPU_STATUS ? "$.s_{#SNMPINDEX}"
				  : n->tag == TAG_CPU_DUTY_CYCLE
				      ? "$.d_{#SNMPINDEX}"
				      : "$.t_{#SNMPINDEX}";
			it.path_may_miss = true;
			mib_zbx_with_triggers(out, 12, &it, true);
		}
	}
}

/* A widget: a graph prototype's grid (cols x rows small graphs), or
 * an item's simple graph. */
static void put_widget(FILE *out, int x, int y, int w, int h,
		       const char *graph, int cols, int rows, const char *key)
{
	fprintf(out, "                -\n                  type: %s\n",
		graph ? "GRAPH_PROTOTYPE" : "GRAPH_CLASSIC");
	if (x)
		fprintf(out, "                  x: '%d'\n", x);
	if (y)
		fprintf(out, "                  'y': '%d'\n", y);
	fprintf(out, "                  width: '%d'\n"
		     "                  height: '%d'\n"
		     "                  fields:\n", w, h);
	if (key)
		fprintf(out,
			"                    -\n"
			"                      type: INTEGER\n"
			"                      name: source_type\n"
			"                      value: '1'\n");
	if (graph)
		fprintf(out,
			"                    -\n"
			"                      type: INTEGER\n"
			"                      name: columns\n"
			"                      value: '%d'\n"
			"                    -\n"
			"                      type: INTEGER\n"
			"                      name: rows\n"
			"                      value: '%d'\n",
			cols, rows);
	fprintf(out,
		"                    -\n"
		"                      type: %s\n"
		"                      name: %s\n"
		"                      value:\n"
		"                        host: '%s'\n",
		graph ? "GRAPH_PROTOTYPE" : "ITEM", key ? "itemid" : "graphid",
		ZBX_TEMPLATE);
	if (key)
		fprintf(out, "                        key: '%s'\n", key);
	else
		fprintf(out, "                        name: '%s'\n", graph);
}

static void put_page(FILE *out, const char *name)
{
	fprintf(out, "            -\n");
	if (name)
		fprintf(out, "              name: '%s'\n", name);
	fprintf(out, "              widgets:\n");
}

/*
 * Zabbix 6.0's template dashboards take classic graphs and graph
 * prototypes only (no top-N, no SVG graph of item patterns): the first
 * page the summed rates (a graph per counted event, 8 a page), the summed
 * IPC, each CPU group's IPC (12 groups a page: the outlier group), the
 * state; then each group's event rates, then each CPU's IPC (the per-CPU
 * drill-down, when per-CPU discovery is on).
 */
static void put_dashboard(FILE *out)
{
	fprintf(out, "      dashboards:\n        -\n          uuid: ");
	mib_zbx_uuid(out, "dashboard/", "R10000 event counters");
	/* three pages, not a slideshow: 6.0 cycles the pages of a dashboard
	 * by default */
	fprintf(out, "          name: 'R10000 event counters'\n"
		     "          auto_start: 'NO'\n"
		     "          pages:\n");
	/* a classic graph below 4 dashboard rows (280 px) has no room to
	 * plot: 2 rows of graphs in 8 */
	put_page(out, "Totals and groups");
	put_widget(out, 0, 0, 16, 8, ZBX_GRAPH_EVENTS, 4, 2, NULL);
	put_widget(out, 16, 0, 8, 8, ZBX_GRAPH_IPC, 1, 1, NULL);
	put_widget(out, 0, 8, 24, 8, ZBX_GRAPH_GROUP_IPC, 6, 2, NULL);
	put_widget(out, 0, 16, 24, 3, NULL, 0, 0, "hwr10k.state");
	put_page(out, "Group event rates");
	put_widget(out, 0, 0, 24, 16, ZBX_GRAPH_GROUP_EVENTS, 6, 4, NULL);
	put_page(out, "CPUs");
	put_widget(out, 0, 0, 24, 16, ZBX_GRAPH_CPU_IPC, 6, 4, NULL);
}

/* The statistics' inputs ([.] rather than \., which the JavaScript
 * string the macro lands in would eat). */
#define CPU_EVENTS                                                         \
	"^(cycles|grad[.]instrg|grad[.]loadg|grad[.]storeg|grad[.]scondg|"  \
	"fail[.]scondf|pcache[.]dmiss|scache[.]dmiss|issue[.]brd|fail[.]brmp)$"

/* A macro; `node`: its value is that node's OID, and a %s in descr the
 * OID of hwR10kEvCtrObjects. */
struct macro {
	const char *name, *value, *descr, *node;
};
static const struct macro macros[] = {
    {"{$HWR10K.CPU.WALK}", NULL,
     "Where hwr10k.poll walks the per-CPU columns (the counters, .2.1, "
     "the status and duty cycle, .3.1.1 and .3.1.4): by default under "
     "hwR10kEvCtrConformance, which has no instances (no per-CPU "
     "object read: a big host's reading is the sums and the groups); "
     "%s (hwR10kEvCtrObjects) reads them, for the per-CPU items with "
     "{$HWR10K.LLD.CPU.MATCHES}.",
     "hwR10kEvCtrConformance"},
    {"{$HWR10K.DUTY.MIN}", "50",
     "A counting CPU that counts its events less than this % of the time is "
     "multiplexed.", NULL},
    {"{$HWR10K.INFO.INTERVAL}", "5m",
     "How often the CPU revision and the backend are read (stored when "
     "they change, and once a day).", NULL},
    {"{$HWR10K.INTERVAL}", "1m",
     "How often the counters are read: any interval; each rate and "
     "statistic covers the agent's polls between two readings, exactly.  "
     "Not shorter than the agent's pollInterval (no new poll: no value).", NULL},
    {"{$HWR10K.LLD.CPU.EVENT.MATCHES}", CPU_EVENTS,
     "The per-CPU events to make items for, a regular expression on the "
     "event's name (those the host counts): by default the ones the "
     "statistics use.", NULL},
    {"{$HWR10K.LLD.CPU.MATCHES}", "^$",
     "Discover the CPUs whose number matches this regular expression: by "
     "default none (^$); .* for every CPU, with {$HWR10K.CPU.WALK}.", NULL},
    {"{$HWR10K.LLD.CPU.NOT_MATCHES}", "CHANGE_IF_NEEDED",
     "Do not discover the CPUs whose number matches this regular "
     "expression.", NULL},
    {"{$HWR10K.LLD.GROUP.MATCHES}", ".*",
     "Discover the CPU groups whose name matches this regular expression.", NULL},
    {"{$HWR10K.LLD.GROUP.NOT_MATCHES}", "CHANGE_IF_NEEDED",
     "Do not discover the CPU groups whose name matches this regular "
     "expression.", NULL},
    {"{$HWR10K.LLD.INTERVAL}", "5m",
     "How often the CPU status table is walked for discovery; the events "
     "and statistics are discovered at every reading of the counters "
     "that changes what is counted, and at least this often.", NULL},
    {"{$HWR10K.NODATA}", "10m",
     "No state for this long: the subagent is not serving.  (The rates "
     "and statistics also count their inputs' readings over it, to see "
     "one stored while they are computed.)", NULL},
    {"{$HWR10K.SNMP.TIMEOUT}", "5m",
     "No SNMP answer for this long: one problem for the host, on which "
     "the template's other triggers depend.", NULL},
    {"{$HWR10K.WINDOW}", "3m",
     "A rate or statistic is stored when all its inputs have the same "
     "readings within this window, two at least: keep it about three "
     "times {$HWR10K.INTERVAL} (never below twice: no value).  A new "
     "item's first values come when it holds no reading from before the "
     "item.", NULL},
};

/* The OID of the node named `name`, into buf. */
static void node_oid(char *buf, size_t len, const struct mibmodel *mm,
		     const char *name)
{
	buf[0] = 0;
	for (size_t i = 0; i < mm->count; i++)
		if (!strcmp(mm->nodes[i].name, name)) {
			FILE *m = fmemopen(buf, len, "w");
			if (m) {
				mib_zbx_arcs(m, &mm->nodes[i]);
				fclose(m);
			}
			return;
		}
	fprintf(stderr, "genmib: no %s in the MIB for the template\n", name);
	exit(1);
}

static void put_valuemaps(FILE *out, const struct mibmodel *mm)
{
	fprintf(out, "      valuemaps:\n");
	mib_zbx_enum_valuemap(out, mib_zbx_find_tag(mm, TAG_CPU_STATUS, -1));
	fprintf(out, "        -\n          uuid: ");
	mib_zbx_uuid(out, "valuemap/", "hwR10kEvCtrState");
	fprintf(out,
		"          name: 'HW-R10KEVCTR-MIB::hwR10kEvCtrState'\n"
		"          mappings:\n"
		"            -\n              value: '-1'\n"
		"              newvalue: 'no event counters'\n"
		"            -\n              value: '0'\n"
		"              newvalue: 'counters disabled'\n");
	fprintf(out, "        -\n          uuid: ");
	mib_zbx_uuid(out, "valuemap/", "zabbix.host.available");
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
	const char *date = mib_model_revision();
	fprintf(out,
		"# Generated by mib/genmib from the MIB's tables "
		"(lib/tables/*.def, mib/hw.help).\n# Do not edit.  A Zabbix 6.0 template: "
		"import it (Configuration >\n# Templates > Import, or the "
		"API's configuration.import); see doc/nms.md.\n");
	fprintf(out, "zabbix_export:\n  version: '6.0'\n");
	fprintf(out, "  date: '%.4s-%.2s-%.2sT00:00:00Z'\n", date, date + 4,
		date + 6);
	fprintf(out, "  groups:\n    -\n      uuid: %s\n      name: '%s'\n",
		GROUP_UUID, GROUP);
	fprintf(out, "  templates:\n    -\n      uuid: ");
	mib_zbx_uuid(out, "template/", ZBX_TEMPLATE);
	fprintf(out, "      template: '%s'\n      name: '%s'\n", ZBX_TEMPLATE,
		ZBX_TEMPLATE);
	fprintf(out,
		"      description: 'SGI R10000 event counters "
		"(PCP hw.r10kevctr.*) from hw-r10kevctr-agent, an AgentX "
		"subagent of the host''s snmpd: HW-R10KEVCTR-MIB.  Events "
		"per second and statistics, summed and per CPU, for the "
		"events the host counts (low-level discovery), exact between "
		"any two readings (the counters over the agent''s counting "
		"time, read in one walk).  See doc/nms.md.'\n");
	fprintf(out, "      groups:\n        -\n          name: '%s'\n",
		GROUP);
	const char *tags[] = {"class", "hardware", "target", "r10000", NULL};
	mib_zbx_tags(out, 6, tags);
}

void mib_model_write_zabbix(const struct mibmodel *mm, FILE *out)
{
	char key[KEYLEN], name[256];
	struct mib_zbx_item it;

	put_head(out);
	fprintf(out, "      items:\n");
	put_availability_item(out);
	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (n->kind == NK_SCALAR &&
		    mib_zbx_item_for(n, &it, key, name, KEYLEN))
			mib_zbx_with_triggers(out, 8, &it, false);
	}
	mib_zbx_exact_items(out, mm);

	fprintf(out, "      discovery_rules:\n");
	/* The CPUs of the walk's object: a row per "s_CPU" (a CPU's status). */
	char cpu_js[ZBX_LEN];
	mib_zbx_keys_js(cpu_js, sizeof(cpu_js), "", "s_([0-9]+)", "",
			"{\"{#SNMPINDEX}\": m[1]}");
	struct mib_zbx_rule r = {
	    .key = "hwr10k.cpu.discovery",
	    .name = "CPUs with event counters",
	    .master = ZBX_POLL_KEY,
	    .js = cpu_js,
	    .cpu = "{#SNMPINDEX}",
	    .descr = "One set of items per CPU in hwR10kEvCtrCpuStatusTable, "
		     "read in hwr10k.poll when {$HWR10K.CPU.WALK} says so; "
		     "{#SNMPINDEX} is the CPU number."};
	mib_zbx_rule(out, &r);
	put_cpu_prototypes(out, mm);
	mib_zbx_exact_rules(out);
	mib_zbx_group_rules(out); /* zabbix_groups.c: over the exact rules */
	put_dashboard(out);

	fprintf(out, "      macros:\n");
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++) {
		const struct macro *mc = &macros[i];
		char value[ZBX_LEN] = "", entry[128], descr[ZBX_LEN] = "";
		const char *at = strstr(mc->descr, "%s");
		/* (mib_zbx_add: a text that does not fit stops the build) */
		mib_zbx_add(value, sizeof(value), mc->value ? mc->value : "");
		mib_zbx_add(descr, sizeof(descr), mc->descr);
		if (mc->node)
			node_oid(value, sizeof(value), mm, mc->node);
		if (at) {
			node_oid(entry, sizeof(entry), mm,
				 "hwR10kEvCtrObjects");
			snprintf(descr, sizeof(descr), "%.*s%s%s",
				 (int)(at - mc->descr), mc->descr, entry,
				 at + 2);
		}
		fprintf(out, "        -\n          macro: '%s'\n"
			     "          value: '%s'\n          description: ",
			mc->name, value);
		mib_zbx_q(out, descr);
		fputc('\n', out);
	}
	put_valuemaps(out, mm);
}
