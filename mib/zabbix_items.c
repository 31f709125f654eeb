/*
 * zabbix_items.c - what the Zabbix template makes of each object of the
 * MIB, as data by value tag (lib/meta/objects.h): the item's key, name, type,
 * unit, value map and preprocessing, and the triggers on it.  Objects
 * without a row are left out here: the counters, the discontinuity time,
 * the rates and statistics (zabbix_exact.c makes the rates and ratios
 * from the counters and the counting time of one walk), the alarm table
 * (Zabbix has triggers), the agent's bookkeeping.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "meta/stats.h"
#include "zabbix.h"

#define INTERVAL      "{$HWR10K.INTERVAL}"
#define INFO_INTERVAL "{$HWR10K.INFO.INTERVAL}"

struct zbx_meta {
	enum obj_tag tag;
	const char *key, *name;
	enum zbx_vtype vt;
	const char *units, *valuemap, *delay;
	enum zbx_prep prep;
	const char *param;
};

static const struct zbx_meta meta[] = {
    {TAG_STATE, "hwr10k.state", "Event counter state", V_FLOAT /* -1 */,
     NULL, "HW-R10KEVCTR-MIB::hwR10kEvCtrState", INTERVAL, P_NONE, ""},
    {TAG_CPUREV, "hwr10k.cpurev", "R10000 CPU revision", V_CHAR, NULL, NULL,
     INFO_INTERVAL, P_DISCARD, "1d"},
    {TAG_BACKEND, "hwr10k.backend", "Event counter backend", V_CHAR, NULL,
     NULL, INFO_INTERVAL, P_DISCARD, "1d"},
    {TAG_NUM_CPUS, "hwr10k.cpus", "CPUs with event counters", V_UNSIGNED,
     NULL, NULL, INTERVAL, P_NONE, ""},
    {TAG_POLL_ERRORS, "hwr10k.poll.errors", "Event counter poll errors",
     V_UNSIGNED, NULL, NULL, INTERVAL, P_CHANGE, ""},
    {TAG_CPU_STATUS, "hwr10k.cpu.status[{#SNMPINDEX}]",
     "CPU {#SNMPINDEX}: counting status", V_UNSIGNED, NULL,
     "HW-R10KEVCTR-MIB::hwR10kEvCtrCpuStatus", INTERVAL, P_NONE, ""},
    {TAG_CPU_DUTY_CYCLE, "hwr10k.cpu.duty[{#SNMPINDEX}]",
     "CPU {#SNMPINDEX}: events counted (duty cycle)", V_UNSIGNED, "%", NULL,
     INTERVAL, P_NONE, ""},
    /* the guard of the CPU's rates and statistics (ZBX_KEY_CPU_DISC) */
    {TAG_CPU_DISCONTINUITY_TIME, "hwr10k.cpu.discontinuity.time[{#SNMPINDEX}]",
     "CPU {#SNMPINDEX}: event counter discontinuity time", V_FLOAT, "uptime",
     NULL, INTERVAL, P_MULTIPLY, "0.01"},
};

const struct zbx_trigger mib_zbx_snmp_down = {
    "max(" ZBX_REF("zabbix[host,snmp,available]") ",{$HWR10K.SNMP.TIMEOUT})=0",
    "No SNMP data collection",
    "WARNING",
    "The host's SNMP agent has not answered Zabbix for "
    "{$HWR10K.SNMP.TIMEOUT}: down, unreachable, or refusing the "
    "interface's community or SNMPv3 user.",
    "availability",
    "health",
    true,
    false,
    false,
    false};

#define STATE_DOWN                                                        \
	{"last(" ZBX_REF("hwr10k.state") ")<1",                           \
	 "Event counters not counting (state {ITEM.LASTVALUE1})",         \
	 "WARNING",                                                       \
	 "hwR10kEvCtrState is -1 (no usable counters) or 0 (counting not " \
	 "permitted, or the source does not answer).",                     \
	 "availability", "cpu", false, false, false, false}
const struct zbx_trigger mib_zbx_state_down = STATE_DOWN;

static const struct zbx_trigger state_triggers[] = {
    STATE_DOWN,
    {"nodata(" ZBX_REF("hwr10k.state") ",{$HWR10K.NODATA})=1",
     "No event counter data for {$HWR10K.NODATA}", "WARNING",
     "The SNMP agent does not serve HW-R10KEVCTR-MIB: the subagent is not "
     "running or not connected to its master snmpd.",
     "availability", "health", false, false, false, false},
};
/* An event to look at, not a state: it stays until closed by hand (it
 * would otherwise resolve at the next value and flap). */
static const struct zbx_trigger discontinuity_triggers[] = {
    {"change(" ZBX_REF("hwr10k.discontinuity.time") ")<>0",
     "Event counter discontinuity", "INFO",
     "The counters restarted (backend reopened, a CPU came back): rates "
     "across it are not comparable.  Close the problem once seen.",
     "notice", "cpu", false, false, true, false},
};
static const struct zbx_trigger poll_error_triggers[] = {
    {"last(" ZBX_REF("hwr10k.poll.errors") ")>0", "Event counter poll errors",
     "INFO", "The backend failed to read (see the agent's log).", "notice",
     "health", false, false, false, false},
};
static const struct zbx_trigger cpu_status_triggers[] = {
    {"last(" ZBX_REF("hwr10k.cpu.status[{#SNMPINDEX}]") ")<>1",
     "CPU {#SNMPINDEX}: event counters not counting", "WARNING",
     "The backend did not read this CPU's counters at the last poll "
     "(stopped), or its recording ended.",
     "availability", "cpu", false, true, false, false},
};
/* Only a counting CPU: one not counting has a duty cycle of 0, and that
 * is the trigger above, not this. */
static const struct zbx_trigger cpu_duty_triggers[] = {
    {"max(" ZBX_REF("hwr10k.cpu.duty[{#SNMPINDEX}]") ",15m)<{$HWR10K.DUTY.MIN}"
     " and last(" ZBX_REF("hwr10k.cpu.status[{#SNMPINDEX}]") ")=1",
     "CPU {#SNMPINDEX}: events multiplexed", "INFO",
     "The kernel counted the events of this counting CPU only part of the "
     "time: the counts are scaled estimates.  Map fewer events, or raise "
     "perfGroupSize where the PMU has the counters.",
     "performance", "cpu", false, true, false, false},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

const struct zbx_trigger *mib_zbx_triggers_on(const struct node *n,
					      size_t *count)
{
	static const struct {
		enum obj_tag tag;
		const struct zbx_trigger *t;
		size_t n;
	} on[] = {
	    {TAG_STATE, state_triggers, N(state_triggers)},
	    {TAG_DISCONTINUITY_TIME, discontinuity_triggers,
	     N(discontinuity_triggers)},
	    {TAG_POLL_ERRORS, poll_error_triggers, N(poll_error_triggers)},
	    {TAG_CPU_STATUS, cpu_status_triggers, N(cpu_status_triggers)},
	    {TAG_CPU_DUTY_CYCLE, cpu_duty_triggers, N(cpu_duty_triggers)},
	};
	for (size_t i = 0; i < N(on); i++)
		if (on[i].tag == n->tag) {
			*count = on[i].n;
			return on[i].t;
		}
	*count = 0;
	return NULL;
}

bool mib_zbx_stat_input(const struct metric *c)
{
	for (size_t i = 0; i < meta_stat_count; i++) {
		const struct stat_def *s = &meta_stat_defs[i];
		if (!strcmp(c->name, s->num) || !strcmp(c->name, s->minus) ||
		    !strcmp(c->name, s->den) || !strcmp(c->name, s->plus))
			return true;
	}
	return false;
}

bool mib_zbx_item_for(const struct node *n, struct mib_zbx_item *it, char *key,
		      char *name, size_t len)
{
	const struct zbx_meta *m = NULL;

	for (size_t i = 0; i < N(meta); i++)
		if (meta[i].tag == n->tag)
			m = &meta[i];
	if (!m)
		return false;
	snprintf(key, len, "%s", m->key);
	snprintf(name, len, "%s", m->name);
	*it = (struct mib_zbx_item){
	    .n = n,
	    .key = key,
	    .name = name,
	    .units = m->units,
	    .valuemap = m->valuemap,
	    .delay = m->delay,
	    .vt = m->vt,
	    .prep = m->prep,
	    .cpu = n->table == TBL_CPU ? "{#SNMPINDEX}" : NULL,
	    .instance = n->table == TBL_CPU ? "{#SNMPINDEX}" : "0"};
	snprintf(it->param, sizeof(it->param), "%s", m->param);
	return true;
}

const struct node *mib_zbx_find_tag(const struct mibmodel *mm, enum obj_tag tag,
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
