/*
 * agentx_fast.c - AgentX Get, GetNext and GetBulk answered straight from
 * the cache on the AgentX session.
 *
 * net-snmp's subagent hands every request PDU from the AgentX session to
 * its own request machinery through an internal callback transport (two
 * pipe round trips, PDU clones) and back through the generic handler
 * chain: that hop cost more than the rest of the request together.  When
 * the master session opens (SNMPD_CALLBACK_INDEX_START), this file puts
 * its own callback in front of net-snmp's: read requests of the default
 * context are answered here through mibview.c, and the set phases refused
 * (the module is read-only); everything else (Response, a disconnect, a
 * non-default context) goes to net-snmp's handle_agentx_packet
 * unchanged, so reconnection is net-snmp's.
 *
 * RFC 2741 7.2.3: a Get varbind gets its value, noSuchObject or
 * noSuchInstance; a GetNext SearchRange (start, include, end) gets the
 * first instance at (include) or after start and before end (a null end
 * is no bound), else endOfMibView with the start OID; a GetBulk answers
 * its non-repeaters as GetNext, then up to max-repetitions rows of its
 * repeaters, each continuing from its previous answer, and stops early
 * once every repeater is at endOfMibView.  -D agentx/fast traces it.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_callbacks.h>

#include "agent.h"
#include "agentx_fast.h"
#include "mibview.h"
#include "varbind.h"

/* net-snmp's agentx/protocol.h, which is not installed: */
#define AGENTX_MSG_GET	      5
#define AGENTX_MSG_GETNEXT    6
#define AGENTX_MSG_GETBULK    7
#define AGENTX_MSG_TESTSET    8
#define AGENTX_MSG_COMMITSET  9
#define AGENTX_MSG_UNDOSET    10
#define AGENTX_MSG_CLEANUPSET 11
#define AGENTX_MSG_RESPONSE   18

static const struct agent *agent;
static netsnmp_callback net_snmp_callback; /* handle_agentx_packet */

/* The answer to one SearchRange, into name/len and v: 0, or -1 for
 * endOfMibView. */
static int search(const oid *start, size_t slen, bool include, const oid *end,
		  size_t elen, oid *name, size_t *len, struct mib_value *v)
{
	const struct mib_object *o;

	if (include && slen <= MIBVIEW_OID_MAX &&
	    mibview_get(&agent->view, start, slen, &o, v) == MV_OK) {
		memcpy(name, start, slen * sizeof(oid));
		*len = slen;
	} else if (mibview_getnext(&agent->view, start, slen, name, len, &o,
				   v) != MV_OK) {
		return -1;
	}
	if (elen && snmp_oid_compare(name, *len, end, elen) >= 0)
		return -1; /* beyond the range the master asked for */
	return 0;
}

static bool include_of(const netsnmp_variable_list *vb)
{
	return vb->type == ASN_PRIV_INCL_RANGE;
}

/* The end OID of a SearchRange; 0 for none (a null OID, which net-snmp's
 * parser gives as 0.0). */
static size_t end_len(const netsnmp_variable_list *vb)
{
	size_t n = vb->val.objid ? vb->val_len / sizeof(oid) : 0;
	if (n == 2 && vb->val.objid[0] == 0 && vb->val.objid[1] == 0)
		return 0;
	return n;
}

/* Set vb to the answer of its own SearchRange (GetNext). */
static void answer_next(netsnmp_variable_list *vb)
{
	oid name[MIBVIEW_OID_MAX];
	size_t len;
	struct mib_value v;

	if (search(vb->name, vb->name_length, include_of(vb), vb->val.objid,
		   end_len(vb), name, &len, &v) != 0) {
		snmp_set_var_typed_value(vb, SNMP_ENDOFMIBVIEW, NULL, 0);
		return; /* the name stays the start OID */
	}
	snmp_set_var_objid(vb, name, len);
	varbind_set(vb, &v);
}

static void answer_get(netsnmp_variable_list *vb)
{
	const struct mib_object *o;
	struct mib_value v;

	switch (mibview_get(&agent->view, vb->name, vb->name_length, &o, &v)) {
	case MV_OK:
		varbind_set(vb, &v);
		break;
	case MV_NO_SUCH_INSTANCE:
		snmp_set_var_typed_value(vb, SNMP_NOSUCHINSTANCE, NULL, 0);
		break;
	default:
		snmp_set_var_typed_value(vb, SNMP_NOSUCHOBJECT, NULL, 0);
		break;
	}
}

/* Where a GetBulk repeater goes on from. */
struct cursor {
	oid name[MIBVIEW_OID_MAX];
	size_t len;
	bool include, ended;
	const oid *end;
	size_t elen;
};

/* Append one row of the repeaters to *tail; false when every repeater is
 * at endOfMibView. */
static bool bulk_row(struct cursor *c, size_t n, netsnmp_variable_list ***tail)
{
	size_t ended = 0;

	for (size_t k = 0; k < n; k++) {
		oid name[MIBVIEW_OID_MAX];
		size_t len = 0;
		struct mib_value v;
		netsnmp_variable_list *vb = calloc(1, sizeof(*vb));
		if (!vb)
			return false;
		if (c[k].ended ||
		    search(c[k].name, c[k].len, c[k].include, c[k].end,
			   c[k].elen, name, &len, &v) != 0) {
			c[k].ended = true;
			ended++;
			snmp_set_var_objid(vb, c[k].name, c[k].len);
			snmp_set_var_typed_value(vb, SNMP_ENDOFMIBVIEW, NULL,
						 0);
		} else {
			snmp_set_var_objid(vb, name, len);
			varbind_set(vb, &v);
			memcpy(c[k].name, name, len * sizeof(oid));
			c[k].len = len;
			c[k].include = false;
		}
		**tail = vb;
		*tail = &vb->next_variable;
	}
	return ended < n;
}

/* GetBulk: the first non_repeaters varbinds as GetNext, in place; then
 * the rows of the repeaters, appended.  rep is the repeaters' own list. */
static void answer_bulk(netsnmp_pdu *resp, netsnmp_variable_list *rep, long max)
{
	size_t n = 0;
	netsnmp_variable_list **tail = &resp->variables;

	while (*tail)
		tail = &(*tail)->next_variable;
	for (netsnmp_variable_list *r = rep; r; r = r->next_variable)
		n++;
	struct cursor *c = n ? calloc(n, sizeof(*c)) : NULL;
	if (!c)
		return;
	size_t k = 0;
	for (netsnmp_variable_list *r = rep; r; r = r->next_variable, k++) {
		c[k].len = r->name_length <= MIBVIEW_OID_MAX ? r->name_length
							     : MIBVIEW_OID_MAX;
		memcpy(c[k].name, r->name, c[k].len * sizeof(oid));
		c[k].include = include_of(r);
		c[k].end = r->val.objid;
		c[k].elen = end_len(r);
	}
	if (max > AGENTX_FAST_MAX_VARBINDS / (long)n)
		max = AGENTX_FAST_MAX_VARBINDS / (long)n;
	for (long row = 0; row < max && bulk_row(c, n, &tail); row++)
		;
	free(c);
}

/* The Response to pdu (which has no varbinds now): its header (session,
 * transaction and packet IDs, flags), no error yet; NULL without memory. */
static netsnmp_pdu *response_to(netsnmp_session *session, netsnmp_pdu *pdu)
{
	netsnmp_pdu *resp = snmp_clone_pdu(pdu);
	if (resp) {
		resp->command = AGENTX_MSG_RESPONSE;
		resp->version = session->version;
		resp->errstat = SNMP_ERR_NOERROR;
		resp->errindex = 0;
	}
	return resp;
}

/* One read request of the default context, answered and sent. */
static void answer(netsnmp_session *session, netsnmp_pdu *pdu)
{
	netsnmp_variable_list *vars = pdu->variables, *rep = NULL;

	pdu->variables = NULL; /* the answers take the request's varbinds */
	netsnmp_pdu *resp = response_to(session, pdu);
	if (!resp) {
		snmp_free_varbind(vars);
		return;
	}
	if (pdu->command == AGENTX_MSG_GETBULK) {
		long nr = pdu->non_repeaters > 0 ? pdu->non_repeaters : 0;
		netsnmp_variable_list **split = &vars;
		for (long i = 0; i < nr && *split; i++)
			split = &(*split)->next_variable;
		rep = *split;
		*split = NULL;
	}
	for (netsnmp_variable_list *vb = vars; vb; vb = vb->next_variable) {
		if (pdu->command == AGENTX_MSG_GET)
			answer_get(vb);
		else
			answer_next(vb);
	}
	resp->variables = vars;
	if (rep) {
		answer_bulk(resp, rep, pdu->max_repetitions);
		snmp_free_varbind(rep);
	}
	if (!snmp_send(session, resp))
		snmp_free_pdu(resp);
}

/*
 * The set phases of a read-only module (RFC 2741 7.2.4): TestSet is
 * refused with notWritable at its first varbind, so no Commit or Undo
 * should follow; if one does, nothing was changed and it fails.
 * CleanupSet has no response.  Answered here rather than by net-snmp's
 * set machinery, whose asynchronous answer reads a freed session when the
 * master goes away in the middle of a set (valgrind, net-snmp 5.9.3).
 */
static void refuse_set(netsnmp_session *session, netsnmp_pdu *pdu)
{
	if (pdu->command == AGENTX_MSG_CLEANUPSET)
		return;
	netsnmp_variable_list *vars = pdu->variables;
	pdu->variables = NULL;
	netsnmp_pdu *resp = response_to(session, pdu);
	pdu->variables = vars;
	if (!resp)
		return;
	resp->errstat =
	    pdu->command == AGENTX_MSG_TESTSET	   ? SNMP_ERR_NOTWRITABLE
	    : pdu->command == AGENTX_MSG_COMMITSET ? SNMP_ERR_COMMITFAILED
						   : SNMP_ERR_UNDOFAILED;
	resp->errindex = pdu->command == AGENTX_MSG_TESTSET && vars ? 1 : 0;
	if (!snmp_send(session, resp))
		snmp_free_pdu(resp);
}

static bool is_set(int command)
{
	return command >= AGENTX_MSG_TESTSET &&
	       command <= AGENTX_MSG_CLEANUPSET;
}

static int fast_callback(int op, netsnmp_session *session, int reqid,
			 netsnmp_pdu *pdu, void *magic)
{
	if (op != NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE || !agent ||
	    (pdu->command != AGENTX_MSG_GET &&
	     pdu->command != AGENTX_MSG_GETNEXT &&
	     pdu->command != AGENTX_MSG_GETBULK && !is_set(pdu->command)) ||
	    pdu->community_len != 0)
		return net_snmp_callback(op, session, reqid, pdu, magic);
	if (is_set(pdu->command)) {
		if (session->securityModel != SNMP_DEFAULT_SECMODEL)
			snmp_alarm_reset(session->securityModel);
		refuse_set(session, pdu);
		return 1;
	}
	/* the master is alive: no need to ping (as net-snmp's callback) */
	if (session->securityModel != SNMP_DEFAULT_SECMODEL)
		snmp_alarm_reset(session->securityModel);
	DEBUGMSGTL(("agentx/fast", "request 0x%02x, transaction %ld\n",
		    pdu->command, pdu->transid));
	answer(session, pdu);
	return 1;
}

/* The AgentX session opened (also after a reconnect): answer its reads. */
static int on_connected(int major, int minor, void *serverarg, void *clientarg)
{
	netsnmp_session *session = serverarg;

	if (session && session->callback != fast_callback) {
		net_snmp_callback = session->callback;
		session->callback = fast_callback;
	}
	return 0;
}

void agentx_fast_init(const struct agent *a)
{
	agent = a;
	snmp_register_callback(SNMP_CALLBACK_APPLICATION,
			       SNMPD_CALLBACK_INDEX_START, on_connected, NULL);
}
