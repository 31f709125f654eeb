/*
 * notify.c - notifications, sent through the master over AgentX as
 * Notify PDUs (session.c), so the master's trap sinks and SNMPv3
 * notification targets apply.  Varbind values come from view_value(),
 * the code that answers GET, so a notification never disagrees with a
 * walk.  net-snmp's send_v2trap() is not used: it would first build an
 * SNMPv1 copy for v1 trap sinks, which a subagent never has, and log two
 * warnings per notification because SNMPv1 cannot carry Counter64s.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <string.h>

#include "agent.h"
#include "agentx/agentx_encode.h"
#include "view/mibview.h"
#include "session.h"

static const unsigned long snmptrap_oid[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};
static const unsigned long sysuptime_oid[] = {1, 3, 6, 1, 2, 1, 1, 3, 0};
#define OIDLEN(o) (sizeof(o) / sizeof((o)[0]))

/* Append object `name`.instance with its current value; -1 if unknown. */
static int add_object(struct ax_buf *b, const struct mib_view *v,
		      const char *name, unsigned long instance)
{
	const struct mib_object *o = view_object(name);
	struct mib_value val;
	unsigned long o_oid[MIBVIEW_OID_MAX];

	if (!o || view_value(v, o, instance, &val) != MV_OK)
		return -1;
	size_t len = view_oid(o, instance, o_oid);
	view_varbind(b, o_oid, len, &val);
	return 0;
}

/* The generated notification `name`; NULL if unknown. */
static const struct mib_notification *notification(const char *name)
{
	for (size_t i = 0; i < meta_notifications_count; i++)
		if (strcmp(meta_notifications[i].name, name) == 0)
			return &meta_notifications[i];
	return NULL;
}

/*
 * Send notification `name` with sysUpTime.0, snmpTrapOID.0 and the
 * OBJECTS the MIB declares for it (objects.def), each at its instance:
 * .0, or the alarm's index.
 */
static void send_notification(struct agent *a, const char *name,
			      unsigned long alarm_index)
{
	const struct mib_view *v = &a->view;
	const struct mib_notification *no = notification(name);
	unsigned long trap[MIBVIEW_OID_MAX];
	unsigned char st[1024];
	struct ax_buf b;
	size_t n = 0;
	int bad = !no;

	ax_init(&b, st, sizeof(st));
	if (!agent_session_notify_start(&a->session, &b)) {
		snmp_log(LOG_NOTICE,
			 "notify: no master connected; %s not sent\n", name);
		ax_free(&b);
		return;
	}
	for (unsigned k = 0; !bad && k < meta_root_len; k++)
		trap[n++] = meta_root[k];
	for (unsigned k = 0; !bad && k < no->len; k++)
		trap[n++] = no->arcs[k];
	ax_varbind_timeticks(&b, sysuptime_oid, OIDLEN(sysuptime_oid),
			     agent_session_uptime(&a->session));
	ax_varbind_oid(&b, snmptrap_oid, OIDLEN(snmptrap_oid), trap, n);
	for (unsigned i = 0; !bad && i < no->nobjects; i++)
		bad = add_object(&b, v, no->objects[i],
				 no->instance == TBL_ALARM ? alarm_index : 0);
	if (bad) {
		ax_free(&b);
		snmp_log(LOG_ERR, "notify: cannot build the varbinds of %s\n",
			 name);
		return;
	}
	if (agent_session_notify_send(&a->session, &b) != 0)
		snmp_log(LOG_ERR, "notify: %s could not be sent\n", name);
	else
		DEBUGMSGTL(("hwr10k/notify", "sent %s\n", name));
}

void agent_notify_discontinuity(struct agent *a)
{
	send_notification(a, "hwR10kEvCtrCounterDiscontinuity", 0);
}

void agent_notify_alarm(struct agent *a, size_t index, bool rising)
{
	send_notification(
	    a, rising ? "hwR10kEvCtrRisingAlarm" : "hwR10kEvCtrFallingAlarm",
	    index);
}
