/*
 * notify.c - notifications, sent through the master over AgentX
 * (send_v2trap), so the master's trap sinks and SNMPv3 notification
 * targets apply.  Varbind values come from mibview_value(), the code that
 * answers GET, so a notification never disagrees with a walk.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <string.h>

#include "agent.h"
#include "mibview.h"
#include "varbind.h"

static const oid snmptrap_oid[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};

/* Append object `name`.instance with its current value; -1 if unknown. */
static int add_object(netsnmp_variable_list **vars, const struct cache *c,
		      const char *name, unsigned long instance)
{
	const struct mib_object *o = mibview_object(name);
	struct mib_value v;
	oid o_oid[MIBVIEW_OID_MAX];

	if (!o || mibview_value(c, o, instance, &v) != MV_OK)
		return -1;
	size_t len = mibview_oid(o, instance, o_oid);
	return varbind_append(vars, o_oid, len, &v);
}

/* Start a varbind list with snmpTrapOID.0 = the notification `name`. */
static netsnmp_variable_list *start(const char *name)
{
	netsnmp_variable_list *vars = NULL;
	oid trap[MIBVIEW_OID_MAX];
	size_t n = 0;

	for (size_t i = 0; i < mib_notifications_count; i++) {
		const struct mib_notification *no = &mib_notifications[i];
		if (strcmp(no->name, name) != 0)
			continue;
		for (unsigned k = 0; k < mib_root_len; k++)
			trap[n++] = mib_root[k];
		for (unsigned k = 0; k < no->len; k++)
			trap[n++] = no->arcs[k];
	}
	if (n == 0 || !snmp_varlist_add_variable(
			  &vars, snmptrap_oid, OID_LENGTH(snmptrap_oid),
			  ASN_OBJECT_ID, (u_char *)trap, n * sizeof(oid)))
		return NULL;
	return vars;
}

static void send_notification(netsnmp_variable_list *vars, int bad,
			      const char *what)
{
	if (!vars || bad) {
		snmp_log(LOG_ERR, "notify: cannot build the varbinds of %s\n",
			 what);
	} else {
		DEBUGMSGTL(("hwr10k/notify", "sending %s\n", what));
		send_v2trap(vars);
	}
	snmp_free_varbind(vars);
}

void notify_discontinuity(const struct cache *c)
{
	const char *name = "hwR10kEvCtrCounterDiscontinuity";
	netsnmp_variable_list *vars = start(name);
	int bad = !vars ||
		  add_object(&vars, c, "hwR10kEvCtrDiscontinuityTime", 0) ||
		  add_object(&vars, c, "hwR10kEvCtrNumCpus", 0) ||
		  add_object(&vars, c, "hwR10kEvCtrBackend", 0) ||
		  add_object(&vars, c, "hwR10kEvCtrDiscontinuityReason", 0);
	send_notification(vars, bad, name);
}

void notify_alarm(const struct cache *c, size_t index, bool rising)
{
	static const char *const objects[] = {
	    "hwR10kEvCtrAlarmName",	  "hwR10kEvCtrAlarmMetric",
	    "hwR10kEvCtrAlarmSampleType", "hwR10kEvCtrAlarmEventCpu",
	    "hwR10kEvCtrAlarmEventValue", "hwR10kEvCtrAlarmEventThreshold",
	};
	const char *name =
	    rising ? "hwR10kEvCtrRisingAlarm" : "hwR10kEvCtrFallingAlarm";
	netsnmp_variable_list *vars = start(name);
	int bad = !vars;
	for (size_t i = 0; !bad && i < sizeof(objects) / sizeof(*objects); i++)
		bad = add_object(&vars, c, objects[i], index + 1);
	send_notification(vars, bad, name);
}
