/*
 * agentx_encode.h - the AgentX PDUs a subagent writes (RFC 2741 6.2):
 * Open, Close, Register, AddAgentCaps, Ping, Notify and Response,
 * written straight into a buffer, in network byte order (the
 * NETWORK_BYTE_ORDER flag set, which every master reads), with OIDs in
 * the 1.3.6.1.X prefix form where they fit.  A Response of a read-only
 * subagent is a fixed header and a list of (type, name, value), into a
 * buffer on the caller's stack that grows on the heap only for a large
 * GetBulk (net-snmp's generic encoder cost a quarter of a walk step).
 */
#ifndef HWR10K_AGENTX_ENCODE_H
#define HWR10K_AGENTX_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agentx/agentx_pdu.h"

struct ax_buf {
	unsigned char *p;
	size_t len, cap;
	bool heap; /* p was grown onto the heap */
	bool oom;  /* a write did not fit and could not grow: drop it */
};

/* A varbind's value as AgentX carries it (RFC 2741 5.4): its type and
 * the field that type uses.  The codec knows no MIB: the caller maps its
 * objects' syntax to these types (lib/meta/objects.h's SMI_TYPES). */
union ax_datum {
	int32_t i32;
	uint32_t u32; /* Counter32, Gauge32, TimeTicks */
	uint64_t u64;
	struct {
		const char *ptr; /* the caller's; copied by ax_varbind */
		size_t len;
	} str;
};
struct ax_value {
	enum ax_data_type type; /* AX_INTEGER, AX_OCTET_STRING, AX_COUNTER32,
				   AX_GAUGE32, AX_TIMETICKS, AX_COUNTER64 */
	union ax_datum v;
};

/* The IDs of a PDU's header (RFC 2741 6.1). */
struct ax_ids {
	uint32_t session, transaction, packet;
};

/* Start an empty buffer on caller storage (stack) of cap bytes. */
void ax_init(struct ax_buf *b, unsigned char *storage, size_t cap);
/* Free a heap copy; the buffer points nowhere after (a second free is
 * harmless). */
void ax_free(struct ax_buf *b);

/* A PDU header of type and flags (NETWORK_BYTE_ORDER is added); the
 * payload follows; ax_finish fills in its length. */
void ax_header(struct ax_buf *b, enum ax_pdu_type type, unsigned flags,
	       const struct ax_ids *ids);
/* The Response to the request with ids: its header and fields (sysUpTime,
 * error status and index); varbinds follow. */
void ax_response(struct ax_buf *b, const struct ax_ids *ids, uint32_t uptime,
		 uint16_t error, uint16_t index);
/* Open (6.2.1): timeout (0: the master's default), the subagent's id
 * and description. */
void ax_open(struct ax_buf *b, const struct ax_ids *ids, uint8_t timeout,
	     const unsigned long *id, size_t idlen, const char *descr);
/* Close (6.2.2) with a reason. */
void ax_close(struct ax_buf *b, const struct ax_ids *ids,
	      enum ax_close_reason reason);
/* Register (6.2.3) the subtree at priority (default 127). */
void ax_register(struct ax_buf *b, const struct ax_ids *ids, uint8_t priority,
		 const unsigned long *subtree, size_t len);
/* AddAgentCaps (6.2.14): a sysORTable row. */
void ax_add_agent_caps(struct ax_buf *b, const struct ax_ids *ids,
		       const unsigned long *id, size_t idlen,
		       const char *descr);
/* Ping (6.2.13). */
void ax_ping(struct ax_buf *b, const struct ax_ids *ids);
/* Notify (6.2.10): the header; then sysUpTime.0 (ax_varbind_timeticks),
 * snmpTrapOID.0 (ax_varbind_oid) and the objects. */
void ax_notify(struct ax_buf *b, const struct ax_ids *ids);

/* A varbind with a value; name has len sub-identifiers (each < 2^32).
 * A type other than those of struct ax_value drops the PDU. */
void ax_varbind(struct ax_buf *b, const unsigned long *name, size_t len,
		const struct ax_value *v);
/* A varbind whose value is an OID, and one of TimeTicks. */
void ax_varbind_oid(struct ax_buf *b, const unsigned long *name, size_t len,
		    const unsigned long *value, size_t vlen);
void ax_varbind_timeticks(struct ax_buf *b, const unsigned long *name,
			  size_t len, uint32_t ticks);
/* A varbind with no value: an exception (AX_NO_SUCH_OBJECT,
 * AX_NO_SUCH_INSTANCE or AX_END_OF_MIB_VIEW). */
void ax_exception(struct ax_buf *b, const unsigned long *name, size_t len,
		  enum ax_data_type type);
/* Set the payload length; -1 if the PDU was dropped (out of memory or a
 * name of more than 255 sub-identifiers), else 0. */
int ax_finish(struct ax_buf *b);

#endif
