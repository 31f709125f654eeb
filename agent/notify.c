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

/* The generated notification `name`; NULL if unknown. */
static const struct mib_notification *notification(const char *name)
{
	for (size_t i = 0; i < mib_notifications_count; i++)
		if (strcmp(mib_notifications[i].name, name) == 0)
			return &mib_notifications[i];
	return NULL;
}

/*
 * Send notification `name` with the OBJECTS the MIB declares for it
 * (objects.def), each at its instance: .0, or the alarm's index.
 */
static void send_notification(const struct cache *c, const char *name,
			      unsigned long alarm_index)
{
	const struct mib_notification *no = notification(name);
	netsnmp_variable_list *vars = NULL;
	oid trap[MIBVIEW_OID_MAX];
	size_t n = 0;
	int bad = !no;

	for (unsigned k = 0; !bad && k < mib_root_len; k++)
		trap[n++] = mib_root[k];
	for (unsigned k = 0; !bad && k < no->len; k++)
		trap[n++] = no->arcs[k];
	if (!bad)
		bad = !snmp_varlist_add_variable(
		    &vars, snmptrap_oid, OID_LENGTH(snmptrap_oid),
		    ASN_OBJECT_ID, (u_char *)trap, n * sizeof(oid));
	for (unsigned i = 0; !bad && i < no->nobjects; i++)
		bad = add_object(&vars, c, no->objects[i],
				 no->instance == TBL_ALARM ? alarm_index : 0);
	if (bad) {
		snmp_log(LOG_ERR, "notify: cannot build the varbinds of %s\n",
			 name);
	} else {
		DEBUGMSGTL(("hwr10k/notify", "sending %s\n", name));
		send_v2trap(vars);
	}
	snmp_free_varbind(vars);
}

void notify_discontinuity(const struct cache *c)
{
	send_notification(c, "hwR10kEvCtrCounterDiscontinuity", 0);
}

void notify_alarm(const struct cache *c, size_t index, bool rising)
{
	send_notification(
	    c, rising ? "hwR10kEvCtrRisingAlarm" : "hwR10kEvCtrFallingAlarm",
	    index + 1);
}
