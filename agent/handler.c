/*
 * handler.c - the module's registration with net-snmp's agent (which
 * makes the subagent Register the subtree and add it to sysORTable), and
 * the handler net-snmp calls for a read that reaches its own machinery
 * instead of agentx_fast.c: a request that arrives while net-snmp waits
 * synchronously for one of its own AgentX answers (see
 * doc/architecture.md: the AgentX session).  It answers from the cache
 * through mibview.c; everything is read-only (HANDLER_CAN_RONLY: SETs get
 * notWritable).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_sysORTable.h>

#include "agent.h"
#include "mibview.h"
#include "varbind.h"

static oid root_oid[MIB_ROOT_MAX];
static netsnmp_handler_registration *registration;

static void answer_get(const struct mib_view *view,
		       netsnmp_agent_request_info *ri, netsnmp_request_info *r)
{
	const struct mib_object *o = NULL;
	struct mib_value v;
	netsnmp_variable_list *vb = r->requestvb;

	switch (mibview_get(view, vb->name, vb->name_length, &o, &v)) {
	case MV_OK:
		varbind_set(vb, &v);
		break;
	case MV_NO_SUCH_INSTANCE:
		netsnmp_set_request_error(ri, r, SNMP_NOSUCHINSTANCE);
		break;
	default:
		netsnmp_set_request_error(ri, r, SNMP_NOSUCHOBJECT);
		break;
	}
}

static void answer_getnext(const struct mib_view *view, netsnmp_request_info *r)
{
	const struct mib_object *o = NULL;
	struct mib_value v;
	oid next[MIBVIEW_OID_MAX];
	size_t len = 0;
	netsnmp_variable_list *vb = r->requestvb;

	if (mibview_getnext(view, vb->name, vb->name_length, next, &len, &o,
			    &v) != MV_OK)
		return; /* nothing here: net-snmp moves on past our subtree */
	snmp_set_var_objid(vb, next, len);
	varbind_set(vb, &v);
}

static int handle(netsnmp_mib_handler *handler,
		  netsnmp_handler_registration *reginfo,
		  netsnmp_agent_request_info *reqinfo,
		  netsnmp_request_info *requests)
{
	const struct agent *a = handler->myvoid;

	for (netsnmp_request_info *r = requests; r; r = r->next) {
		if (r->processed)
			continue;
		switch (reqinfo->mode) {
		case MODE_GET:
			answer_get(&a->view, reqinfo, r);
			break;
		case MODE_GETNEXT:
			answer_getnext(&a->view, r);
			break;
		default:
			netsnmp_set_request_error(reqinfo, r,
						  SNMP_ERR_NOTWRITABLE);
			break;
		}
	}
	return SNMP_ERR_NOERROR;
}

int handler_register(struct agent *a)
{
	for (unsigned i = 0; i < mib_root_len; i++)
		root_oid[i] = mib_root[i];
	netsnmp_mib_handler *h = netsnmp_create_handler("hwR10kEvCtr", handle);
	if (!h)
		return -1;
	h->myvoid = a;
	registration = netsnmp_handler_registration_create(
	    "hwR10kEvCtr", h, root_oid, mib_root_len, HANDLER_CAN_RONLY);
	if (!registration ||
	    netsnmp_register_handler(registration) != MIB_REGISTERED_OK) {
		snmp_log(LOG_ERR,
			 "cannot register the HW-R10KEVCTR-MIB subtree\n");
		return -1;
	}
	register_sysORTable(root_oid, mib_root_len,
			    "HW-R10KEVCTR-MIB: CPU hardware event counters "
			    "(hw-r10kevctr AgentX subagent)");
	return 0;
}

void handler_unregister(void)
{
	unregister_sysORTable(root_oid, mib_root_len);
	if (registration)
		netsnmp_unregister_handler(registration);
	registration = NULL;
}
