/*
 * notify.c - notifications, sent through the master over AgentX as
 * Notify PDUs, so the master's trap sinks and SNMPv3 notification targets
 * apply.  Varbind values come from mibview_value(), the code that
 * answers GET, so a notification never disagrees with a walk.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_callbacks.h>
#include <net-snmp/agent/agent_trap.h>

#include <string.h>

#include "agent.h"
#include "agentx_pdu.h"
#include "mibview.h"
#include "varbind.h"

static const oid snmptrap_oid[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};
static const oid sysuptime_oid[] = {1, 3, 6, 1, 2, 1, 1, 3, 0};

/*
 * The AgentX session to the master, as net-snmp announces it when it
 * connects (SNMPD_CALLBACK_INDEX_START) and closes (..._INDEX_STOP).
 * Notifications go straight to it: send_v2trap() would first build an
 * SNMPv1 copy for v1 trap sinks, which a subagent never has, and log two
 * warnings per notification because SNMPv1 cannot carry Counter64s.
 */
static netsnmp_session *master;

static int on_connected(int major, int minor, void *server, void *client)
{
	master = server;
	return SNMPERR_SUCCESS;
}

static int on_closed(int major, int minor, void *server, void *client)
{
	if (master == server)
		master = NULL;
	return SNMPERR_SUCCESS;
}

void notify_watch_master(void)
{
	snmp_register_callback(SNMP_CALLBACK_APPLICATION,
			       SNMPD_CALLBACK_INDEX_START, on_connected, NULL);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION,
			       SNMPD_CALLBACK_INDEX_STOP, on_closed, NULL);
}

/* sysUpTime.0, then vars (snmpTrapOID.0 first), as a Notify PDU. */
static int send_to_master(netsnmp_variable_list *vars, const char *name)
{
	u_long now = netsnmp_get_agent_uptime();
	netsnmp_pdu *pdu;

	if (!master) {
		snmp_log(LOG_NOTICE,
			 "notify: no master connected; %s not sent\n", name);
		return 0;
	}
	pdu = snmp_pdu_create(SNMP_MSG_TRAP2);
	if (!pdu ||
	    !snmp_varlist_add_variable(&pdu->variables, sysuptime_oid,
				       OID_LENGTH(sysuptime_oid), ASN_TIMETICKS,
				       &now, sizeof(now))) {
		snmp_free_pdu(pdu);
		return -1;
	}
	pdu->variables->next_variable = vars; /* lent for the call */
	pdu->command = AX_PDU_NOTIFY;
	send_trap_to_sess(master, pdu); /* sends a copy */
	pdu->variables->next_variable = NULL;
	snmp_free_pdu(pdu);
	return 0;
}

/* Append object `name`.instance with its current value; -1 if unknown. */
static int add_object(netsnmp_variable_list **vars, const struct mib_view *v,
		      const char *name, unsigned long instance)
{
	const struct mib_object *o = mibview_object(name);
	struct mib_value val;
	oid o_oid[MIBVIEW_OID_MAX];

	if (!o || mibview_value(v, o, instance, &val) != MV_OK)
		return -1;
	size_t len = mibview_oid(o, instance, o_oid);
	return varbind_append(vars, o_oid, len, &val);
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
static void send_notification(const struct mib_view *v, const char *name,
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
		bad = add_object(&vars, v, no->objects[i],
				 no->instance == TBL_ALARM ? alarm_index : 0);
	if (bad || send_to_master(vars, name) != 0)
		snmp_log(LOG_ERR, "notify: cannot build the varbinds of %s\n",
			 name);
	else
		DEBUGMSGTL(("hwr10k/notify", "sent %s\n", name));
	snmp_free_varbind(vars);
}

void notify_discontinuity(const struct mib_view *v)
{
	send_notification(v, "hwR10kEvCtrCounterDiscontinuity", 0);
}

void notify_alarm(const struct mib_view *v, size_t index, bool rising)
{
	send_notification(
	    v, rising ? "hwR10kEvCtrRisingAlarm" : "hwR10kEvCtrFallingAlarm",
	    index + 1);
}
