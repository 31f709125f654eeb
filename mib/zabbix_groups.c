/*
 * zabbix_groups.c - the template's CPU groups (hwR10kEvCtrGroupTable and
 * hwR10kEvCtrGroupCounterTable, read in the walk of hwr10k.poll, so a
 * group's counters come from the same poll of the agent as the counting
 * time): a rule over the groups ({#GROUP} the group's name) with its
 * discontinuity time and its CPUs; a rule over the groups' counted
 * events with their counters and exact rates; a rule per statistic.  A
 * group's rates and statistics are guarded by the group's own
 * discontinuity time, not the agent's: a CPU's gap or reset makes absent
 * only the values of its group (and the sums), never another group's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/stats.h"
#include "zabbix.h"

#define CPUS	 "hwr10k.group.cpus[{#GROUP}]"
#define COUNTING "hwr10k.group.cpus.counting[{#GROUP}]"

/* Not a short gap (a CPU away for a poll or three): every reading of
 * the last 5 minutes had a CPU of the group not counting. */
static const struct zbx_trigger not_counting = {
    "max(" ZBX_REF(COUNTING) ",5m)<last(" ZBX_REF(CPUS) ")",
    "Group {#GROUP}: CPUs not counting",
    "WARNING",
    "Fewer of the group's CPUs than it has counted their events at every "
    "reading of the last 5 minutes (stopped, ended, or left the host's "
    "table): the group's counts miss theirs.  Per-CPU discovery "
    "(doc/nms.md) tells which.",
    "availability",
    "cpu",
    false,
    true,
    false,
    true};

static void put_group_items(FILE *out)
{
	struct mib_zbx_item d = {
	    .key = ZBX_KEY_GROUP_DISC,
	    .name = "Group {#GROUP}: event counter discontinuity time",
	    .vt = V_FLOAT,
	    .units = "uptime",
	    .type = I_DEPENDENT,
	    .master = ZBX_POLL_KEY,
	    .path = "$.h6_{#GIDX}",
	    .path_may_miss = true,
	    .prep = P_MULTIPLY,
	    .param = "0.01",
	    .group = "{#GROUP}",
	    .descr = "sysUpTime at the group's most recent discontinuity (a "
		     "CPU of the group reset, stopped, left or came back; the "
		     "groups changed): what the group's rates are guarded by "
		     "(HW-R10KEVCTR-MIB::hwR10kEvCtrGroupDiscontinuityTime)."};
	mib_zbx_item(out, 12, &d);
	struct mib_zbx_item n = {
	    .key = CPUS,
	    .name = "Group {#GROUP}: CPUs",
	    .vt = V_UNSIGNED,
	    .type = I_DEPENDENT,
	    .master = ZBX_POLL_KEY,
	    .path = "$.h4_{#GIDX}",
	    .path_may_miss = true,
	    .group = "{#GROUP}",
	    .descr = "The number of CPUs in the group "
		     "(HW-R10KEVCTR-MIB::hwR10kEvCtrGroupNumCpus)."};
	mib_zbx_item(out, 12, &n);
	struct mib_zbx_item c = n;
	c.key = COUNTING;
	c.name = "Group {#GROUP}: CPUs counting";
	c.path = "$.h5_{#GIDX}";
	c.descr = "The number of the group's CPUs counting at the agent's "
		  "last poll (HW-R10KEVCTR-MIB::hwR10kEvCtrGroupCountingCpus).";
	mib_zbx_item(out, 12, &c);
	mib_zbx_triggers(out, 12, &not_counting, 1, true);
}

void mib_zbx_group_rules(FILE *out)
{
	/* A group's row of the walk's object: "h2_G" its name. */
	char group_js[ZBX_LEN];
	mib_zbx_keys_js(group_js, sizeof(group_js), "", "h2_([0-9]+)", "",
			"{\"{#GROUP}\": o[k], \"{#GIDX}\": m[1]}");
	struct mib_zbx_rule r = {
	    .key = "hwr10k.group.discovery",
	    .name = "CPU groups",
	    .master = ZBX_POLL_KEY,
	    .js = group_js,
	    .group = "{#GROUP}",
	    .descr = "One set of items per row of hwR10kEvCtrGroupTable (the "
		     "host's NUMA nodes, or the agent's cpuGroup lines); "
		     "{#GROUP} is the group's name."};
	mib_zbx_rule(out, &r);
	put_group_items(out);
	mib_zbx_event_rule(out, ZS_GROUP);
	for (size_t st = 0; st < meta_stat_count; st++)
		mib_zbx_stat_rule(out, st, ZS_GROUP);
}
