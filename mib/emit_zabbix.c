/*
 * emit_zabbix.c - writes the MIB model as a Zabbix 6.0 template (YAML
 * export format): conf/zabbix/hw-r10kevctr.zabbix.yaml.
 *
 * From the same rows as the MIB: the summed counters (items with "Change
 * per second"), state, cpurev, the agent's objects and the statistics
 * (scaled to plain ratios with "Custom multiplier"), and a low-level
 * discovery rule over the per-CPU table whose item prototypes are the
 * per-CPU counters, status, duty cycle and statistics.  The rate tables
 * and the alarm table are left out: Zabbix computes rates and has its own
 * triggers.  OIDs are numeric (no MIB needed on the Zabbix server).
 * Deterministic: UUIDs are hashes of the keys, the date the MIB's newest
 * revision.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "mibmodel.h"
#include "root.def"
#include "stats.h"

#define TEMPLATE "HW R10000 event counters by SNMP"
/* Zabbix's own group (its data.sql has this UUID for it). */
#define GROUP	   "Templates/Server hardware"
#define GROUP_UUID "e960332b3f6c46a1956486d4f3f99fce"

static const unsigned root_oid[] = {MIB_ROOT_PARENT_OID, MIB_ROOT_ARC};

/* A UUIDv4-shaped hash of what the entity is (FNV-1a, two seeds). */
static void put_uuid(FILE *out, const char *what, const char *key)
{
	uint64_t h[2] = {UINT64_C(0xcbf29ce484222325),
			 UINT64_C(0x84222325cbf29ce4)};
	unsigned char b[16];

	for (int k = 0; k < 2; k++) {
		for (const char *s = "hw-r10kevctr/"; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		for (const char *s = what; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		for (const char *s = key; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		for (int i = 0; i < 8; i++)
			b[k * 8 + i] = (unsigned char)(h[k] >> (56 - 8 * i));
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	for (int i = 0; i < 16; i++)
		fprintf(out, "%02x", b[i]);
	fputc('\n', out);
}

/* A single-quoted YAML scalar; a newline becomes a space. */
static void put_q(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", out);
		else if (*s == '\n')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/*
 * The first sentence of a DESCRIPTION's first paragraph (hw.help's
 * one-line help for metrics), whole, and the object's name.
 */
static void put_first_sentence(FILE *out, const struct node *n)
{
	size_t len = 0, par = strcspn(n->descr, "\n");
	char line[1024];

	while (n->descr[par] == '\n' && n->descr[par + 1] != '\n' &&
	       n->descr[par + 1])
		par += 1 + strcspn(n->descr + par + 1, "\n");
	for (len = 0; len < par; len++)
		if (n->descr[len] == '.' &&
		    (len + 1 == par || n->descr[len + 1] == ' ' ||
		     n->descr[len + 1] == '\n')) {
			len++;
			break;
		}
	snprintf(line, sizeof(line), "%.*s (HW-R10KEVCTR-MIB::%s)", (int)len,
		 n->descr, n->name);
	put_q(out, line);
}

/* A node's numeric OID, no leading dot. */
static void put_arcs(FILE *out, const struct node *n)
{
	for (size_t i = 0; i < sizeof(root_oid) / sizeof(root_oid[0]); i++)
		fprintf(out, "%s%u", i ? "." : "", root_oid[i]);
	for (unsigned i = 0; i < n->len; i++)
		fprintf(out, ".%u", n->arcs[i]);
}

static void put_oid(FILE *out, const struct node *n, const char *instance)
{
	fputc('\'', out);
	put_arcs(out, n);
	fprintf(out, ".%s'\n", instance);
}

enum vtype { V_FLOAT, V_UNSIGNED, V_CHAR };
enum prep { P_NONE, P_CHANGE, P_MULTIPLY, P_DISCARD };

struct item {
	const struct node *n;
	const char *key, *name, *units, *valuemap, *delay;
	enum vtype vt;
	enum prep prep;
	char param[24]; /* P_MULTIPLY's factor */
};

/* An item (or item prototype) at indent `in` (the "-" column). */
static void put_item(FILE *out, int in, const struct item *it, bool proto)
{
	static const char *const vt[] = {"FLOAT", NULL, "CHAR"};
	static const char *const pt[] = {NULL, "SIMPLE_CHANGE", "MULTIPLIER",
					 "DISCARD_UNCHANGED_HEARTBEAT"};
	int f = in + 2;

	fprintf(out, "%*s-\n%*suuid: ", in, "", f, "");
	put_uuid(out, "item/", it->key);
	fprintf(out, "%*sname: ", f, "");
	put_q(out, it->name);
	fprintf(out, "\n%*stype: SNMP_AGENT\n%*ssnmp_oid: ", f, "", f, "");
	put_oid(out, it->n, proto ? "{#SNMPINDEX}" : "0");
	fprintf(out, "%*skey: ", f, "");
	put_q(out, it->key);
	fprintf(out, "\n%*sdelay: '%s'\n", f, "", it->delay);
	fprintf(out, "%*shistory: 7d\n", f, "");
	if (it->vt == V_CHAR)
		fprintf(out, "%*strends: '0'\n", f, "");
	if (vt[it->vt])
		fprintf(out, "%*svalue_type: %s\n", f, "", vt[it->vt]);
	if (it->units) {
		fprintf(out, "%*sunits: ", f, "");
		put_q(out, it->units);
		fputc('\n', out);
	}
	fprintf(out, "%*sdescription: ", f, "");
	put_first_sentence(out, it->n);
	fputc('\n', out);
	if (it->valuemap)
		fprintf(out, "%*svaluemap:\n%*sname: '%s'\n", f, "", f + 2, "",
			it->valuemap);
	if (it->prep != P_NONE)
		fprintf(out,
			"%*spreprocessing:\n%*s-\n%*stype: %s\n"
			"%*sparameters:\n%*s- '%s'\n",
			f, "", f + 2, "", f + 4, "", pt[it->prep], f + 4, "",
			f + 6, "",
			it->prep == P_MULTIPLY	  ? it->param
			: it->prep == P_DISCARD ? "1d"
						: "");
	fprintf(out, "%*stags:\n%*s-\n%*stag: component\n%*svalue: cpu\n", f,
		"", f + 2, "", f + 4, "", f + 4, "");
}

struct trigger {
	const char *expr, *name, *priority, *descr;
	bool root; /* the host-wide "no SNMP data" trigger: depends on none */
	bool per_cpu; /* also depends on the host's "not counting" */
};

/* "/TEMPLATE/KEY" inside a trigger expression. */
#define REF(key) "/" TEMPLATE "/" key

/*
 * When the host's SNMP agent does not answer, every item fails: one
 * problem for the host (as Zabbix's own "Linux by SNMP" does), and every
 * other trigger depends on it so that it is the only one.
 */
#define SNMP_DOWN_NAME "No SNMP data collection"
#define SNMP_DOWN_EXPR                                                    \
	"max(" REF("zabbix[host,snmp,available]") ",{$HWR10K.SNMP.TIMEOUT})=0"
/* A host not counting at all: one problem, not one per CPU. */
#define STATE_DOWN_NAME "Event counters not counting (state {ITEM.LASTVALUE1})"
#define STATE_DOWN_EXPR "last(" REF("hwr10k.state") ")<1"
static const struct trigger snmp_down_triggers[] = {
    {SNMP_DOWN_EXPR, SNMP_DOWN_NAME, "WARNING",
     "The host's SNMP agent has not answered Zabbix for "
     "{$HWR10K.SNMP.TIMEOUT}: down, unreachable, or refusing the "
     "interface's community or SNMPv3 user.",
     true, false},
};

static void put_triggers(FILE *out, int in, const struct trigger *t,
			 size_t n, bool proto)
{
	int f = in + 6;
	fprintf(out, "%*s%s:\n", in + 2, "",
		proto ? "trigger_prototypes" : "triggers");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%*s-\n%*suuid: ", in + 4, "", f, "");
		put_uuid(out, "trigger/", t[i].expr);
		fprintf(out, "%*sexpression: ", f, "");
		put_q(out, t[i].expr);
		fprintf(out, "\n%*sname: ", f, "");
		put_q(out, t[i].name);
		fprintf(out, "\n%*sopdata: 'Value: {ITEM.LASTVALUE1}'\n", f,
			"");
		fprintf(out, "%*spriority: %s\n%*sdescription: ", f, "",
			t[i].priority, f, "");
		put_q(out, t[i].descr);
		fputc('\n', out);
		if (!t[i].root)
			fprintf(out,
				"%*sdependencies:\n%*s-\n%*sname: '%s'\n"
				"%*sexpression: '%s'\n",
				f, "", f + 2, "", f + 4, "", SNMP_DOWN_NAME,
				f + 4, "", SNMP_DOWN_EXPR);
		if (t[i].per_cpu)
			fprintf(out,
				"%*s-\n%*sname: '%s'\n%*sexpression: '%s'\n",
				f + 2, "", f + 4, "", STATE_DOWN_NAME, f + 4,
				"", STATE_DOWN_EXPR);
	}
}

static const struct trigger state_triggers[] = {
    {STATE_DOWN_EXPR, STATE_DOWN_NAME, "WARNING",
     "hwR10kEvCtrState is -1 (no usable counters) or 0 (counting not "
     "permitted, or the source does not answer).",
     false, false},
    {"nodata(" REF("hwr10k.state") ",{$HWR10K.NODATA})=1",
     "No event counter data for {$HWR10K.NODATA}", "WARNING",
     "The SNMP agent does not serve HW-R10KEVCTR-MIB: the subagent is not "
     "running or not connected to its master snmpd.",
     false, false},
};
static const struct trigger discontinuity_triggers[] = {
    {"change(" REF("hwr10k.discontinuity.time") ")<>0",
     "Event counter discontinuity", "INFO",
     "The counters restarted (backend reopened, a CPU came back): rates "
     "across it are not comparable.",
     false, false},
};
static const struct trigger poll_error_triggers[] = {
    {"last(" REF("hwr10k.poll.errors") ")>0", "Event counter poll errors",
     "INFO", "The backend failed to read (see the agent's log).",
     false, false},
};
static const struct trigger cpu_status_triggers[] = {
    {"last(" REF("hwr10k.cpu.status[{#SNMPINDEX}]") ")<>1",
     "CPU {#SNMPINDEX}: event counters not counting", "WARNING",
     "The backend did not read this CPU's counters at the last poll "
     "(stopped), or its recording ended.",
     false, true},
};
static const struct trigger cpu_duty_triggers[] = {
    /* Only a counting CPU: one not counting has a duty cycle of 0, and
     * that is the trigger above, not this. */
    {"max(" REF("hwr10k.cpu.duty[{#SNMPINDEX}]") ",15m)<{$HWR10K.DUTY.MIN}"
     " and last(" REF("hwr10k.cpu.status[{#SNMPINDEX}]") ")=1",
     "CPU {#SNMPINDEX}: events multiplexed", "INFO",
     "The kernel counted the events of this counting CPU only part of the "
     "time: the counts are scaled estimates.  Map fewer events, or raise "
     "perfGroupSize where the PMU has the counters.",
     false, true},
};

/*
 * 1/scale as Zabbix's custom multiplier wants it, "0.001" for 1000: the
 * scales of stats.def are powers of ten, and genmib stops on any other.
 */
static void put_inverse(char *buf, size_t len, const struct stat_def *s)
{
	int zeros = 0;
	uint64_t v = s->scale;

	while (v % 10 == 0) {
		v /= 10;
		zeros++;
	}
	if (v != 1 || zeros == 0) {
		fprintf(stderr,
			"genmib: mib/stats.def: %s: scale %llu is not a power "
			"of ten, which the Zabbix template's multiplier needs\n",
			s->name, (unsigned long long)s->scale);
		exit(2);
	}
	snprintf(buf, len, "0.%0*d", zeros, 1);
}

/* The item for a node, or false for objects the template leaves out. */
static bool item_for(const struct node *n, struct item *it, char *key,
		     char *name, size_t len)
{
	const struct metric *c = n->counter >= 0 ? &counters[n->counter] : NULL;
	const struct stat_def *s = n->stat >= 0 ? &stat_defs[n->stat] : NULL;
	*it = (struct item){.n = n, .key = key, .name = name,
			    .delay = "{$HWR10K.INTERVAL}"};

	switch (n->tag) {
	case TAG_STATE:
		snprintf(key, len, "hwr10k.state");
		snprintf(name, len, "Event counter state");
		it->vt = V_FLOAT; /* -1 is a value */
		it->valuemap = "HW-R10KEVCTR-MIB::hwR10kEvCtrState";
		return true;
	case TAG_CPUREV:
		snprintf(key, len, "hwr10k.cpurev");
		snprintf(name, len, "R10000 CPU revision");
		it->vt = V_CHAR;
		it->delay = "{$HWR10K.INFO.INTERVAL}";
		it->prep = P_DISCARD;
		return true;
	case TAG_BACKEND:
		snprintf(key, len, "hwr10k.backend");
		snprintf(name, len, "Event counter backend");
		it->vt = V_CHAR;
		it->delay = "{$HWR10K.INFO.INTERVAL}";
		it->prep = P_DISCARD;
		return true;
	case TAG_NUM_CPUS:
		snprintf(key, len, "hwr10k.cpus");
		snprintf(name, len, "CPUs with event counters");
		it->vt = V_UNSIGNED;
		return true;
	case TAG_POLL_ERRORS:
		snprintf(key, len, "hwr10k.poll.errors");
		snprintf(name, len, "Event counter poll errors");
		it->vt = V_UNSIGNED;
		it->prep = P_CHANGE;
		return true;
	case TAG_DISCONTINUITY_TIME:
		snprintf(key, len, "hwr10k.discontinuity.time");
		snprintf(name, len, "Event counter discontinuity time");
		/* sysUpTime hundredths to seconds: Zabbix shows "uptime" as
		 * days and hh:mm:ss */
		it->vt = V_FLOAT;
		it->units = "uptime";
		it->prep = P_MULTIPLY;
		snprintf(it->param, sizeof(it->param), "0.01");
		return true;
	case TAG_RATE:
	case TAG_CPU_RATE:
		/* The agent's rate over its own poll interval: exact whatever
		 * the item interval (Zabbix's "Change per second" of the
		 * counters would divide a varying number of the agent's polls
		 * by Zabbix's own clock: doc/nms.md, "Rates"). */
		if (n->tag == TAG_RATE) {
			snprintf(key, len, "hwr10k.events[%s]", c->name);
			snprintf(name, len, "Events per second: %s (all CPUs)",
				 c->name);
		} else {
			snprintf(key, len,
				 "hwr10k.cpu.events[{#SNMPINDEX},%s]", c->name);
			snprintf(name, len,
				 "CPU {#SNMPINDEX}: events per second: %s",
				 c->name);
		}
		it->vt = V_FLOAT;
		it->units = "events/s";
		return true;
	case TAG_CPU_STATUS:
		snprintf(key, len, "hwr10k.cpu.status[{#SNMPINDEX}]");
		snprintf(name, len, "CPU {#SNMPINDEX}: counting status");
		it->vt = V_UNSIGNED;
		it->valuemap = "HW-R10KEVCTR-MIB::hwR10kEvCtrCpuStatus";
		return true;
	case TAG_CPU_DUTY_CYCLE:
		snprintf(key, len, "hwr10k.cpu.duty[{#SNMPINDEX}]");
		snprintf(name, len, "CPU {#SNMPINDEX}: events counted (duty cycle)");
		it->vt = V_UNSIGNED;
		it->units = "%";
		return true;
	case TAG_STAT:
	case TAG_CPU_STAT:
		if (n->tag == TAG_STAT) {
			snprintf(key, len, "hwr10k.stat[%s]", s->name);
			snprintf(name, len, "%s (all CPUs)", s->summary);
		} else {
			snprintf(key, len, "hwr10k.cpu.stat[{#SNMPINDEX},%s]",
				 s->name);
			snprintf(name, len, "CPU {#SNMPINDEX}: %s", s->summary);
		}
		/* a ratio in 1/scale (ppm, thousandths) to a plain one */
		it->vt = s->scale ? V_FLOAT : V_UNSIGNED;
		if (s->scale) {
			it->prep = P_MULTIPLY;
			put_inverse(it->param, sizeof(it->param), s);
		}
		return true;
	default:
		return false;
	}
}

/* "INTEGER { a(1), b(2) }" as a value map. */
static void put_enum_valuemap(FILE *out, const struct node *n)
{
	const char *p = strchr(n->syntax, '{');
	fprintf(out, "        -\n          uuid: ");
	put_uuid(out, "valuemap/", n->name);
	fprintf(out, "          name: 'HW-R10KEVCTR-MIB::%s'\n", n->name);
	fprintf(out, "          mappings:\n");
	while (p && *++p) {
		p += strspn(p, " \n,");
		size_t nl = strcspn(p, "(");
		if (!p[nl] || !nl)
			break;
		unsigned v = (unsigned)strtoul(p + nl + 1, NULL, 10);
		fprintf(out,
			"            -\n              value: '%u'\n"
			"              newvalue: %.*s\n",
			v, (int)nl, p);
		p = strchr(p, ')');
	}
}

struct macro {
	const char *name, *value, *descr;
};
static const struct macro macros[] = {
    {"{$HWR10K.DUTY.MIN}", "50",
     "A CPU counting its events less than this % of the time is "
     "multiplexed."},
    {"{$HWR10K.INFO.INTERVAL}", "5m",
     "How often the CPU revision and the backend are read (stored when "
     "they change, and once a day)."},
    {"{$HWR10K.INTERVAL}", "1m",
     "How often the rates and statistics are read: any interval (each "
     "value is the agent's own over its last poll interval); faster than "
     "the agent's pollInterval repeats values."},
    {"{$HWR10K.LLD.INTERVAL}", "1h", "How often the CPUs are discovered."},
    {"{$HWR10K.NODATA}", "10m",
     "No state for this long: the subagent is not serving."},
    {"{$HWR10K.SNMP.TIMEOUT}", "5m",
     "No SNMP answer for this long: one problem for the host, on which "
     "the template's other triggers depend."},
};

void mibmodel_write_zabbix(const struct mibmodel *mm, FILE *out)
{
	const char *date = mibmodel_revision();
	char key[160], name[256];
	struct item it;
	const struct node *status = NULL;

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
	put_uuid(out, "template/", TEMPLATE);
	fprintf(out, "      template: '%s'\n      name: '%s'\n", TEMPLATE,
		TEMPLATE);
	fprintf(out,
		"      description: 'SGI R10000 event counters "
		"(PCP hw.r10kevctr.*) from hw-r10kevctr-agent, an AgentX "
		"subagent of the host''s snmpd: HW-R10KEVCTR-MIB.  Events "
		"per second (the agent''s rates over its poll interval, "
		"exact at any item interval), summed and per CPU (low-level "
		"discovery), statistics as ratios.  See doc/nms.md.'\n");
	fprintf(out, "      groups:\n        -\n          name: '%s'\n",
		GROUP);

	fprintf(out, "      items:\n        -\n          uuid: ");
	put_uuid(out, "item/", "zabbix[host,snmp,available]");
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
		"            name: 'zabbix.host.available'\n"
		"          tags:\n            -\n              tag: component\n"
		"              value: health\n");
	put_triggers(out, 8, snmp_down_triggers, 1, false);
	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (n->kind != NK_SCALAR || !item_for(n, &it, key, name, 160))
			continue;
		put_item(out, 8, &it, false);
		if (n->tag == TAG_STATE)
			put_triggers(out, 8, state_triggers, 2, false);
		if (n->tag == TAG_DISCONTINUITY_TIME)
			put_triggers(out, 8, discontinuity_triggers, 1, false);
		if (n->tag == TAG_POLL_ERRORS)
			put_triggers(out, 8, poll_error_triggers, 1, false);
	}
	for (size_t i = 0; i < mm->count; i++)
		if (mm->nodes[i].tag == TAG_CPU_STATUS &&
		    mm->nodes[i].kind == NK_COLUMN)
			status = &mm->nodes[i];

	fprintf(out, "      discovery_rules:\n        -\n          uuid: ");
	put_uuid(out, "lld/", "hwr10k.cpu.discovery");
	fprintf(out, "          name: 'CPUs with event counters'\n"
		     "          type: SNMP_AGENT\n"
		     "          snmp_oid: 'discovery[{#CPU.STATUS},");
	put_arcs(out, status);
	fprintf(out, "]'\n          key: hwr10k.cpu.discovery\n"
		     "          delay: '{$HWR10K.LLD.INTERVAL}'\n"
		     "          description: 'One set of items per row of "
		     "hwR10kEvCtrCpuStatusTable; {#SNMPINDEX} is the CPU "
		     "number.'\n          item_prototypes:\n");
	for (size_t i = 0; i < mm->count; i++) {
		const struct node *n = &mm->nodes[i];
		if (n->kind != NK_COLUMN || n->table != TBL_CPU ||
		    !item_for(n, &it, key, name, 160))
			continue;
		put_item(out, 12, &it, true);
		if (n->tag == TAG_CPU_STATUS)
			put_triggers(out, 12, cpu_status_triggers, 1, true);
		if (n->tag == TAG_CPU_DUTY_CYCLE)
			put_triggers(out, 12, cpu_duty_triggers, 1, true);
	}

	fprintf(out, "      macros:\n");
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++) {
		fprintf(out, "        -\n          macro: '%s'\n"
			     "          value: '%s'\n          description: ",
			macros[i].name, macros[i].value);
		put_q(out, macros[i].descr);
		fputc('\n', out);
	}

	fprintf(out, "      valuemaps:\n");
	put_enum_valuemap(out, status);
	fprintf(out, "        -\n          uuid: ");
	put_uuid(out, "valuemap/", "zabbix.host.available");
	fprintf(out, "          name: 'zabbix.host.available'\n"
		     "          mappings:\n"
		     "            -\n              value: '0'\n"
		     "              newvalue: 'not available'\n"
		     "            -\n              value: '1'\n"
		     "              newvalue: 'available'\n"
		     "            -\n              value: '2'\n"
		     "              newvalue: 'unknown'\n");
	fprintf(out, "        -\n          uuid: ");
	put_uuid(out, "valuemap/", "hwR10kEvCtrState");
	fprintf(out,
		"          name: 'HW-R10KEVCTR-MIB::hwR10kEvCtrState'\n"
		"          mappings:\n"
		"            -\n              value: '-1'\n"
		"              newvalue: 'no event counters'\n"
		"            -\n              value: '0'\n"
		"              newvalue: 'counters disabled'\n");
}
