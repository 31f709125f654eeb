/*
 * notify.c - notifications, sent through the master over AgentX
 * (send_v2trap), so the master's trap sinks and SNMPv3 notification
 * targets apply.  Varbind values come from mibview_value(), the code that
 * answers GET, so a notification never disagrees with a walk.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "agent.h"
#include "mibview.h"
#include "varbind.h"

static const oid snmptrap_oid[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};

/* Append the scalar `name`.0 with its current value; -1 if unknown. */
static int add_scalar(netsnmp_variable_list **vars, const struct cache *c,
		      const char *name)
{
	const struct mib_object *o = mibview_object(name);
	struct mib_value v;
	oid o_oid[MIBVIEW_OID_MAX];

	if (!o || mibview_value(c, o, 0, &v) != MV_OK)
		return -1;
	size_t len = mibview_oid(o, 0, o_oid);
	return varbind_append(vars, o_oid, len, &v);
}

void notify_discontinuity(const struct cache *c)
{
	netsnmp_variable_list *vars = NULL;
	oid trap[MIBVIEW_OID_MAX];
	size_t n = 0;

	for (unsigned i = 0; i < mib_root_len; i++)
		trap[n++] = mib_root[i];
	trap[n++] = 0; /* hwR10kEvCtrNotifications */
	trap[n++] = 1; /* hwR10kEvCtrCounterDiscontinuity */
	snmp_varlist_add_variable(&vars, snmptrap_oid, OID_LENGTH(snmptrap_oid),
				  ASN_OBJECT_ID, (u_char *)trap,
				  n * sizeof(oid));
	if (add_scalar(&vars, c, "hwR10kEvCtrDiscontinuityTime") ||
	    add_scalar(&vars, c, "hwR10kEvCtrNumCpus") ||
	    add_scalar(&vars, c, "hwR10kEvCtrBackend")) {
		snmp_log(LOG_ERR, "notify: cannot build discontinuity varbinds\n");
		snmp_free_varbind(vars);
		return;
	}
	send_v2trap(vars);
	snmp_free_varbind(vars);
}
