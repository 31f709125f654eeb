/*
 * agentx_decode.h - the AgentX PDUs a subagent reads (RFC 2741 6): the
 * header, the master's requests (Get, GetNext, GetBulk, the set phases),
 * its Responses and Close.  Every length is checked against the bytes
 * there are: a payload that does not parse is refused with the reason,
 * never read past (fuzz/fuzz_agentx.c).
 */
#ifndef HWR10K_AGENTX_DECODE_H
#define HWR10K_AGENTX_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agentx/agentx_encode.h"
#include "agentx/agentx_pdu.h"

struct ax_header_in {
	uint8_t version, type, flags;
	struct ax_ids ids;
	uint32_t length; /* of the payload */
};

/* The 20 header bytes at p. */
void ax_parse_header(const unsigned char *p, struct ax_header_in *h);

/*
 * The framing of the stream (the session's and the fuzz target's): the
 * PDU at the start of len bytes is whole (AX_FRAME_PDU: its header in h,
 * its payload the h->length bytes after the header), still coming
 * (AX_FRAME_SHORT), or cannot be framed (AX_FRAME_BAD: a version other
 * than 1, a payload over AX_PAYLOAD_MAX or not a multiple of 4: there
 * is no next PDU to find).
 */
enum ax_frame { AX_FRAME_SHORT, AX_FRAME_PDU, AX_FRAME_BAD };
enum ax_frame ax_frame(const unsigned char *buf, size_t len,
		       struct ax_header_in *h);

/* An OID of a request, its sub-identifiers in the request's storage;
 * len 0 is the null OID. */
struct ax_oid {
	const unsigned long *sub;
	size_t len;
	bool include;
};

/* A SearchRange (RFC 2741 5.2), or a Get's name (end: null). */
struct ax_range {
	struct ax_oid start, end;
};

struct ax_request {
	struct ax_header_in h;
	bool has_context; /* a non-default context */
	uint16_t non_repeaters, max_repetitions;
	size_t nranges;		 /* Get/GetNext/GetBulk */
	size_t nvarbinds;	 /* TestSet */
	/* TestSet: the payload (valid while it is answered) and where its
	 * varbinds start (ax_next_varbind_value reads them) */
	const unsigned char *payload;
	size_t varbinds_at;
	struct ax_range *ranges; /* heap, nranges */
	unsigned long *subids;	 /* heap: every OID's sub-identifiers */
	size_t cap_ranges, cap_subids; /* kept for the next request */
};

/* The payload of a Get, GetNext, GetBulk or a set phase into r, whose
 * storage is reused from request to request (zero it once; free it with
 * ax_request_free); -1 when it does not parse, with the reason in why. */
int ax_parse_request(const struct ax_header_in *h, const unsigned char *p,
		     struct ax_request *r, char *why, size_t len);
void ax_request_free(struct ax_request *r);

/* A Response's fields (its varbinds are not needed); -1 if too short. */
struct ax_response_in {
	uint32_t uptime;
	uint16_t error, index;
};
int ax_parse_response(const struct ax_header_in *h, const unsigned char *p,
		      struct ax_response_in *r);
/*
 * The varbind at *at (payload offset; a Response's start at 8) of the PDU
 * h: 1 with its type and name (its sub-identifiers in sub, room for
 * AX_OID_MAX + 5) and *at past its value, 0 at the payload's end, -1
 * when it does not parse (why).
 */
int ax_next_varbind(const struct ax_header_in *h, const unsigned char *p,
		    size_t *at, uint16_t *type, struct ax_oid *name,
		    unsigned long *sub, char *why, size_t len);
/* A varbind's value as read: the number of a 4-byte type (Integer as
 * two's complement, Counter32, Gauge32, TimeTicks), of a Counter64, or
 * the bytes of an OctetString, IpAddress or Opaque (in the payload). */
struct ax_value_in {
	uint16_t type;
	uint32_t u32;
	uint64_t u64;
	const unsigned char *octets;
	size_t len;
};
/* ax_next_varbind with the value read into val (TestSet). */
int ax_next_varbind_value(const struct ax_header_in *h,
			  const unsigned char *p, size_t *at,
			  struct ax_oid *name, unsigned long *sub,
			  struct ax_value_in *val, char *why, size_t len);
/* "Get", "Response" ... for a PDU type (RFC 2741 6.1); "?" for an
 * unknown one: the log's name of what came or went. */
const char *ax_pdu_name(unsigned type);
/* A Close's reason; -1 if too short. */
int ax_parse_close(const struct ax_header_in *h, const unsigned char *p,
		   uint8_t *reason);

#endif
