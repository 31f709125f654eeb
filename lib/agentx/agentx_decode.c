/* agentx_decode.c - the PDUs a subagent reads (see agentx_decode.h). */
#include "agentx/agentx_decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t get32(const unsigned char *p, bool network)
{
	return network ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			     (uint32_t)p[2] << 8 | p[3]
		       : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[1] << 8 | p[0];
}

static uint16_t get16(const unsigned char *p, bool network)
{
	return network ? (uint16_t)(p[0] << 8 | p[1])
		       : (uint16_t)(p[1] << 8 | p[0]);
}

enum ax_frame ax_frame(const unsigned char *buf, size_t len,
			struct ax_header_in *h)
{
	if (len < AX_HEADER_LEN)
		return AX_FRAME_SHORT;
	ax_parse_header(buf, h);
	if (h->version != AX_VERSION || h->length > AX_PAYLOAD_MAX ||
	    h->length % 4)
		return AX_FRAME_BAD;
	return len - AX_HEADER_LEN < h->length ? AX_FRAME_SHORT : AX_FRAME_PDU;
}

void ax_parse_header(const unsigned char *p, struct ax_header_in *h)
{
	bool network = p[2] & AX_FLAG_NETWORK_BYTE_ORDER;
	h->version = p[0];
	h->type = p[1];
	h->flags = p[2];
	h->ids.session = get32(p + 4, network);
	h->ids.transaction = get32(p + 8, network);
	h->ids.packet = get32(p + 12, network);
	h->length = get32(p + 16, network);
}

/* A cursor over a payload. */
struct rd {
	const unsigned char *p;
	size_t len, at;
	bool network;
	char *why;
	size_t whylen;
};

static int bad(struct rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, r->whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool have(const struct rd *r, size_t n)
{
	return r->len - r->at >= n;
}

/* The sub-identifier count of the OID at the cursor, with its prefix
 * (1.3.6.1.X adds 5), without moving; -1 when it does not fit. */
static long oid_size(const struct rd *r, size_t at)
{
	if (r->len - at < 4)
		return -1;
	size_t n = r->p[at];
	if (r->len - at - 4 < 4 * n)
		return -1;
	return (long)(n + (r->p[at + 1] ? 5 : 0));
}

/* The OID at the cursor into sub (room for oid_size); RFC 2741 5.1. */
static int read_oid(struct rd *r, struct ax_oid *o, unsigned long *sub)
{
	if (!have(r, 4))
		return bad(r, "an OID header past the payload's end");
	unsigned n = r->p[r->at], prefix = r->p[r->at + 1];
	o->include = r->p[r->at + 2] != 0;
	r->at += 4;
	if (!have(r, 4 * (size_t)n))
		return bad(r, "an OID of %u sub-identifiers past the "
			      "payload's end",
			   n);
	size_t k = 0;
	if (prefix) {
		static const unsigned long internet[] = {1, 3, 6, 1};
		memcpy(sub, internet, sizeof(internet));
		sub[4] = prefix;
		k = 5;
	}
	for (unsigned i = 0; i < n; i++, r->at += 4)
		sub[k++] = get32(r->p + r->at, r->network);
	o->sub = sub;
	o->len = k;
	return 0;
}

/* An octet string at the cursor (5.3): skipped, its length checked. */
static int skip_octets(struct rd *r)
{
	if (!have(r, 4))
		return bad(r, "an octet string past the payload's end");
	uint32_t n = get32(r->p + r->at, r->network);
	r->at += 4;
	size_t padded = ((size_t)n + 3) & ~(size_t)3;
	if ((size_t)n > r->len || !have(r, padded))
		return bad(r, "an octet string of %lu bytes past the "
			      "payload's end",
			   (unsigned long)n);
	r->at += padded;
	return 0;
}

/* A fixed-size value at the cursor (4 or 8 bytes, 5.4) into val. */
static void get_fixed(const struct rd *r, size_t fixed, struct ax_value_in *val)
{
	const unsigned char *p = r->p + r->at;
	if (fixed == 4) {
		val->u32 = get32(p, r->network);
	} else if (fixed == 8) {
		uint64_t a = get32(p, r->network), b = get32(p + 4, r->network);
		val->u64 = r->network ? a << 32 | b : b << 32 | a;
	}
}

/* A varbind (5.4): its type and name read, its value checked and, when
 * val is given, read into it (scratch: AX_OID_MAX + 5 sub-identifiers,
 * the name's). */
static int read_varbind(struct rd *r, uint16_t *vtype, struct ax_oid *name,
			unsigned long *scratch, struct ax_value_in *val)
{
	struct ax_oid value;
	unsigned long vscratch[AX_OID_MAX + 5];
	if (!have(r, 4))
		return bad(r, "a varbind past the payload's end");
	uint16_t type = get16(r->p + r->at, r->network);
	*vtype = type;
	r->at += 4;
	if (read_oid(r, name, scratch) != 0)
		return -1;
	size_t fixed;
	switch (type) {
	case AX_INTEGER:
	case AX_COUNTER32:
	case AX_GAUGE32:
	case AX_TIMETICKS:
		fixed = 4;
		break;
	case AX_COUNTER64:
		fixed = 8;
		break;
	case AX_OCTET_STRING:
	case AX_IPADDRESS:
	case AX_OPAQUE:
		if (val && have(r, 4)) {
			val->len = get32(r->p + r->at, r->network);
			val->octets = r->p + r->at + 4;
		}
		return skip_octets(r);
	case AX_OBJECT_ID:
		return read_oid(r, &value, vscratch);
	case AX_NULL:
	case AX_NO_SUCH_OBJECT:
	case AX_NO_SUCH_INSTANCE:
	case AX_END_OF_MIB_VIEW:
		fixed = 0;
		break;
	default:
		return bad(r, "a varbind of unknown type %u", type);
	}
	if (!have(r, fixed))
		return bad(r, "a varbind value past the payload's end");
	if (val)
		get_fixed(r, fixed, val);
	r->at += fixed;
	return 0;
}

static bool is_read(uint8_t type)
{
	return type == AX_PDU_GET || type == AX_PDU_GETNEXT ||
	       type == AX_PDU_GETBULK;
}

/* Room for n elements of size in *p (capacity *cap); -1 if none. */
static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return 0;
	void *q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* The SearchRanges of a read request: counted and sized first, then
 * read into one allocation of ranges and one of sub-identifiers. */
static int read_ranges(struct rd *r, struct ax_request *q)
{
	size_t n = 0, subs = 0;
	for (size_t at = r->at; at < r->len; n++) {
		for (int k = 0; k < 2; k++) {
			long s = oid_size(r, at);
			if (s < 0)
				return bad(r, "SearchRange %zu: an OID past "
					      "the payload's end",
					   n + 1);
			subs += (size_t)s;
			at += 4 + 4 * (size_t)r->p[at];
		}
	}
	if (n == 0)
		return 0;
	if (grow((void **)&q->ranges, &q->cap_ranges, n, sizeof(*q->ranges)) ||
	    /* at least one: null OIDs only (subs 0) still move the
	     * cursor, and NULL + 0 is undefined */
	    grow((void **)&q->subids, &q->cap_subids, subs + 1,
		 sizeof(*q->subids)))
		return bad(r, "out of memory");
	unsigned long *sub = q->subids;
	for (size_t i = 0; i < n; i++) {
		struct ax_range *g = &q->ranges[i];
		if (read_oid(r, &g->start, sub) != 0)
			return -1;
		sub += g->start.len;
		if (read_oid(r, &g->end, sub) != 0)
			return -1;
		sub += g->end.len;
		g->end.include = false;
	}
	q->nranges = n;
	return 0;
}

int ax_parse_request(const struct ax_header_in *h, const unsigned char *p,
		     struct ax_request *q, char *why, size_t len)
{
	struct rd r = {p, h->length, 0, h->flags & AX_FLAG_NETWORK_BYTE_ORDER,
		       why, len};

	struct ax_request keep = *q; /* the storage, reused */
	memset(q, 0, sizeof(*q));
	q->ranges = keep.ranges;
	q->subids = keep.subids;
	q->cap_ranges = keep.cap_ranges;
	q->cap_subids = keep.cap_subids;
	q->h = *h;
	if (h->length % 4)
		return bad(&r, "a payload of %lu bytes, not a multiple of 4",
			   (unsigned long)h->length);
	if (h->flags & AX_FLAG_NON_DEFAULT_CONTEXT) {
		q->has_context = true;
		if (skip_octets(&r) != 0)
			return -1;
	}
	if (h->type == AX_PDU_GETBULK) {
		if (!have(&r, 4))
			return bad(&r, "a GetBulk without its repetition "
				       "fields");
		q->non_repeaters = get16(p + r.at, r.network);
		q->max_repetitions = get16(p + r.at + 2, r.network);
		r.at += 4;
	}
	if (is_read(h->type))
		return read_ranges(&r, q);
	if (h->type == AX_PDU_TESTSET) {
		unsigned long scratch[AX_OID_MAX + 5];
		q->payload = p;
		q->varbinds_at = r.at;
		struct ax_oid name;
		uint16_t type;
		while (r.at < r.len) {
			if (read_varbind(&r, &type, &name, scratch, NULL) != 0)
				return -1;
			q->nvarbinds++;
		}
	}
	return 0;
}

void ax_request_free(struct ax_request *r)
{
	free(r->ranges);
	free(r->subids);
	memset(r, 0, sizeof(*r));
}

int ax_parse_response(const struct ax_header_in *h, const unsigned char *p,
		      struct ax_response_in *r)
{
	bool network = h->flags & AX_FLAG_NETWORK_BYTE_ORDER;
	if (h->length < 8)
		return -1;
	r->uptime = get32(p, network);
	r->error = get16(p + 4, network);
	r->index = get16(p + 6, network);
	return 0;
}

int ax_parse_close(const struct ax_header_in *h, const unsigned char *p,
		   uint8_t *reason)
{
	if (h->length < 4)
		return -1;
	*reason = p[0];
	return 0;
}

int ax_next_varbind_value(const struct ax_header_in *h,
			  const unsigned char *p, size_t *at,
			  struct ax_oid *name, unsigned long *sub,
			  struct ax_value_in *val, char *why, size_t len)
{
	struct rd r = {.p = p, .len = h->length, .at = *at,
		       .network = h->flags & AX_FLAG_NETWORK_BYTE_ORDER,
		       .why = why, .whylen = len};
	struct ax_value_in ignored;
	if (!val)
		val = &ignored;
	memset(val, 0, sizeof(*val));
	if (r.at >= r.len)
		return 0;
	if (read_varbind(&r, &val->type, name, sub, val) != 0)
		return -1;
	*at = r.at;
	return 1;
}

int ax_next_varbind(const struct ax_header_in *h, const unsigned char *p,
		    size_t *at, uint16_t *type, struct ax_oid *name,
		    unsigned long *sub, char *why, size_t len)
{
	struct ax_value_in val;
	int n = ax_next_varbind_value(h, p, at, name, sub, &val, why, len);
	*type = val.type;
	return n;
}

const char *ax_pdu_name(unsigned type)
{
	static const char *const names[] = {
	    "?",	 "Open",	"Close",      "Register",
	    "Unregister", "Get",	 "GetNext",    "GetBulk",
	    "TestSet",	 "CommitSet",	"UndoSet",    "CleanupSet",
	    "Notify",	 "Ping",	"IndexAllocate", "IndexDeallocate",
	    "AddAgentCaps", "RemoveAgentCaps", "Response"};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}
