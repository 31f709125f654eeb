/*
 * agentx_encode.h - the AgentX Response PDU (RFC 2741 6.1, 6.2.16, 5.4),
 * written straight into a buffer.
 *
 * net-snmp builds a Response through its generic PDU encoder: a clone of
 * the request, varbind allocations, a packet buffer, and about 2,900
 * instructions per one-varbind PDU, more than a quarter of the agent's
 * cost of a walk step.  A Response of a read-only subagent is a fixed
 * header and a list of (type, name, value): written here in network byte
 * order (the NETWORK_BYTE_ORDER flag set, which every master reads),
 * with OIDs in the 1.3.6.1.X prefix form, into a buffer on the stack
 * that grows on the heap only for a large GetBulk.
 */
#ifndef HWR10K_AGENTX_ENCODE_H
#define HWR10K_AGENTX_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agentx_pdu.h"
#include "values.h"

/* RFC 2741 5.4 varbind types this agent sends that carry no value */
enum ax_exception {
	AX_NO_SUCH_OBJECT = 128,
	AX_NO_SUCH_INSTANCE = 129,
	AX_END_OF_MIB_VIEW = 130,
};

struct ax_buf {
	unsigned char *p;
	size_t len, cap;
	bool heap; /* p was grown onto the heap */
	bool oom;  /* a write did not fit and could not grow: drop it */
};

/* Start an empty buffer on caller storage (stack) of cap bytes. */
void ax_init(struct ax_buf *b, unsigned char *storage, size_t cap);
void ax_free(struct ax_buf *b);

/*
 * The Response header for the request identified by (session, transaction,
 * packet) IDs, and the Response fields: sysUpTime, error status and
 * index.  Varbinds follow; ax_finish fills in the payload length.
 */
void ax_response(struct ax_buf *b, uint32_t session_id, uint32_t trans_id,
		 uint32_t packet_id, uint32_t uptime, uint16_t error,
		 uint16_t index);
/* A varbind with a value; name has len sub-identifiers (each < 2^32). */
void ax_varbind(struct ax_buf *b, const unsigned long *name, size_t len,
		const struct mib_value *v);
/* A varbind with no value: an exception. */
void ax_exception(struct ax_buf *b, const unsigned long *name, size_t len,
		  enum ax_exception type);
/* Set the payload length; -1 if the PDU was dropped (out of memory or a
 * name of more than 255 sub-identifiers), else 0. */
int ax_finish(struct ax_buf *b);

#endif
