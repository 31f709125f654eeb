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
 * unchanged, so reconnection is net-snmp's.  net-snmp still reads and
 * parses the requests; the Response is written by agentx_encode.c and
 * sent on the session's transport (net-snmp's PDU encoder cost 28 % of
 * the agent's instructions per request).
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

#include <limits.h>

#include "agent.h"
#include "agentx_encode.h"
#include "agentx_fast.h"
#include "agentx_transport.h"
#include "mibview.h"

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

/* The answer to a GetNext varbind (its own SearchRange). */
static void answer_next(struct ax_buf *b, const netsnmp_variable_list *vb)
{
	oid name[MIBVIEW_OID_MAX];
	size_t len;
	struct mib_value v;

	if (search(vb->name, vb->name_length, include_of(vb), vb->val.objid,
		   end_len(vb), name, &len, &v) != 0)
		ax_exception(b, vb->name, vb->name_length, AX_END_OF_MIB_VIEW);
	else
		ax_varbind(b, name, len, &v);
}

static void answer_get(struct ax_buf *b, const netsnmp_variable_list *vb)
{
	const struct mib_object *o;
	struct mib_value v;

	switch (mibview_get(&agent->view, vb->name, vb->name_length, &o, &v)) {
	case MV_OK:
		ax_varbind(b, vb->name, vb->name_length, &v);
		break;
	case MV_NO_SUCH_INSTANCE:
		ax_exception(b, vb->name, vb->name_length, AX_NO_SUCH_INSTANCE);
		break;
	default:
		ax_exception(b, vb->name, vb->name_length, AX_NO_SUCH_OBJECT);
		break;
	}
}

/* Where a GetBulk repeater goes on from: its start OID whole (as long as
 * net-snmp's parser takes, MAX_OID_LEN), then the answers (at most
 * MIBVIEW_OID_MAX long). */
struct cursor {
	oid name[MAX_OID_LEN];
	size_t len;
	bool include, ended;
	const oid *end;
	size_t elen;
};

/* One row of the repeaters; false when every repeater is at
 * endOfMibView. */
static bool bulk_row(struct ax_buf *b, struct cursor *c, size_t n)
{
	size_t ended = 0;

	for (size_t k = 0; k < n; k++) {
		oid name[MIBVIEW_OID_MAX];
		size_t len = 0;
		struct mib_value v;
		if (c[k].ended ||
		    search(c[k].name, c[k].len, c[k].include, c[k].end,
			   c[k].elen, name, &len, &v) != 0) {
			c[k].ended = true;
			ended++;
			ax_exception(b, c[k].name, c[k].len,
				     AX_END_OF_MIB_VIEW);
		} else {
			ax_varbind(b, name, len, &v);
			memcpy(c[k].name, name, len * sizeof(oid));
			c[k].len = len;
			c[k].include = false;
		}
	}
	return ended < n;
}

/* GetBulk's repeaters (the varbinds from rep on): up to max rows. */
static void answer_bulk(struct ax_buf *b, const netsnmp_variable_list *rep,
			long max)
{
	size_t n = 0;

	for (const netsnmp_variable_list *r = rep; r; r = r->next_variable)
		n++;
	struct cursor *c = n ? calloc(n, sizeof(*c)) : NULL;
	if (!c) {
		b->oom = n > 0;
		return;
	}
	size_t k = 0;
	for (const netsnmp_variable_list *r = rep; r;
	     r = r->next_variable, k++) {
		c[k].len = r->name_length <= MAX_OID_LEN ? r->name_length
							 : MAX_OID_LEN;
		memcpy(c[k].name, r->name, c[k].len * sizeof(oid));
		c[k].include = include_of(r);
		c[k].end = r->val.objid;
		c[k].elen = end_len(r);
	}
	if (max > AGENTX_FAST_MAX_VARBINDS / (long)n)
		max = AGENTX_FAST_MAX_VARBINDS / (long)n;
	for (long row = 0; row < max && bulk_row(b, c, n); row++)
		;
	free(c);
}

/* Send the Response in b on the session's transport (all of it). */
static void send_response(netsnmp_session *session, struct ax_buf *b)
{
	netsnmp_transport *t = snmp_sess_transport(snmp_sess_pointer(session));
	size_t done = 0;

	if (!t)
		return;
	while (done < b->len) {
		void *opaque = NULL;
		int olen = 0;
		int n = netsnmp_transport_send(t, b->p + done,
					       (int)(b->len - done), &opaque,
					       &olen);
		if (n <= 0) {
			snmp_log(LOG_ERR,
				 "AgentX: sending a response to the master "
				 "failed\n");
			return;
		}
		done += (size_t)n;
	}
}

/* A Response to pdu with this error status and index, and the varbinds
 * that fill(b, pdu) writes; a Response that cannot be built (out of
 * memory) goes out as genErr with no varbinds. */
static void respond(netsnmp_session *session, const netsnmp_pdu *pdu,
		    uint16_t error, uint16_t index,
		    void (*fill)(struct ax_buf *, const netsnmp_pdu *))
{
	unsigned char stack[2048];
	struct ax_buf b;

	ax_init(&b, stack, sizeof(stack));
	ax_response(&b, (uint32_t)pdu->sessid, (uint32_t)pdu->transid,
		    (uint32_t)pdu->reqid, (uint32_t)netsnmp_get_agent_uptime(),
		    error, index);
	if (fill)
		fill(&b, pdu);
	if (ax_finish(&b) != 0) {
		snmp_log(LOG_ERR, "AgentX: a response could not be built "
				  "(out of memory); answering genErr\n");
		ax_free(&b);
		ax_init(&b, stack, sizeof(stack));
		ax_response(&b, (uint32_t)pdu->sessid, (uint32_t)pdu->transid,
			    (uint32_t)pdu->reqid,
			    (uint32_t)netsnmp_get_agent_uptime(),
			    SNMP_ERR_GENERR, 0);
		ax_finish(&b);
	}
	send_response(session, &b);
	ax_free(&b);
}

/* The varbinds of the answer to a read request of the default context. */
static void fill_read(struct ax_buf *b, const netsnmp_pdu *pdu)
{
	const netsnmp_variable_list *vb = pdu->variables;
	long nr = pdu->command != AX_PDU_GETBULK ? LONG_MAX
		  : pdu->non_repeaters > 0	      ? pdu->non_repeaters
						      : 0;

	for (long i = 0; vb && i < nr; vb = vb->next_variable, i++) {
		if (pdu->command == AX_PDU_GET)
			answer_get(b, vb);
		else
			answer_next(b, vb);
	}
	if (vb) /* GetBulk's repeaters */
		answer_bulk(b, vb, pdu->max_repetitions);
}

/*
 * The set phases of a read-only module (RFC 2741 7.2.4): TestSet is
 * refused with notWritable at its first varbind, so no Commit or Undo
 * should follow; if one does, nothing was changed and it fails.
 * CleanupSet has no response.  Answered here rather than by net-snmp's
 * set machinery, whose asynchronous answer reads a freed session when the
 * master goes away in the middle of a set (valgrind, net-snmp 5.9.3).
 */
static void refuse_set(netsnmp_session *session, const netsnmp_pdu *pdu)
{
	if (pdu->command == AX_PDU_CLEANUPSET)
		return;
	uint16_t error = pdu->command == AX_PDU_TESTSET
			     ? SNMP_ERR_NOTWRITABLE
			 : pdu->command == AX_PDU_COMMITSET
			     ? SNMP_ERR_COMMITFAILED
			     : SNMP_ERR_UNDOFAILED;
	uint16_t index =
	    pdu->command == AX_PDU_TESTSET && pdu->variables ? 1 : 0;
	respond(session, pdu, error, index, NULL);
}

static bool is_set(int command)
{
	return command >= AX_PDU_TESTSET &&
	       command <= AX_PDU_CLEANUPSET;
}

static int fast_callback(int op, netsnmp_session *session, int reqid,
			 netsnmp_pdu *pdu, void *magic)
{
	if (op != NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE || !agent ||
	    (pdu->command != AX_PDU_GET &&
	     pdu->command != AX_PDU_GETNEXT &&
	     pdu->command != AX_PDU_GETBULK && !is_set(pdu->command)) ||
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
	respond(session, pdu, SNMP_ERR_NOERROR, 0, fill_read);
	return 1;
}

/* The AgentX session opened (also after a reconnect): answer its reads. */
static int on_connected(int major, int minor, void *serverarg, void *clientarg)
{
	netsnmp_session *session = serverarg;

	if (session && session->callback != fast_callback) {
		net_snmp_callback = session->callback;
		session->callback = fast_callback;
		agentx_transport_take(session);
	}
	return 0;
}

void agentx_fast_init(const struct agent *a)
{
	agent = a;
	snmp_register_callback(SNMP_CALLBACK_APPLICATION,
			       SNMPD_CALLBACK_INDEX_START, on_connected, NULL);
}
