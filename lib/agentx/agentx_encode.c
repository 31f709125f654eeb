/* agentx_encode.c - every PDU the subagent sends: the header, Open,
 * Register, AddAgentCaps, Ping, Notify, Close and the Response with its
 * varbinds (see agentx_encode.h). */
#include "agentx/agentx_encode.h"

#include <stdlib.h>
#include <string.h>

void ax_init(struct ax_buf *b, unsigned char *storage, size_t cap)
{
	*b = (struct ax_buf){.p = storage, .cap = cap};
}

void ax_free(struct ax_buf *b)
{
	if (b->heap)
		free(b->p);
	b->p = NULL;
	b->heap = false;
}

/* Room for n more bytes at the end; NULL (and oom) if there is none. */
static unsigned char *room(struct ax_buf *b, size_t n)
{
	if (b->oom)
		return NULL;
	if (b->cap - b->len < n) {
		size_t cap = b->cap * 2 > b->len + n ? b->cap * 2 : b->len + n;
		unsigned char *p = b->heap ? realloc(b->p, cap) : malloc(cap);
		if (!p) {
			b->oom = true;
			return NULL;
		}
		if (!b->heap)
			memcpy(p, b->p, b->len);
		b->p = p;
		b->cap = cap;
		b->heap = true;
	}
	unsigned char *at = b->p + b->len;
	b->len += n;
	return at;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

void ax_header(struct ax_buf *b, enum ax_pdu_type type, unsigned flags,
	       const struct ax_ids *ids)
{
	unsigned char *p = room(b, AX_HEADER_LEN);
	if (!p)
		return;
	p[0] = AX_VERSION;
	p[1] = (unsigned char)type;
	p[2] = (unsigned char)(flags | AX_FLAG_NETWORK_BYTE_ORDER);
	p[3] = 0;
	put32(p + 4, ids->session);
	put32(p + 8, ids->transaction);
	put32(p + 12, ids->packet);
	put32(p + 16, 0); /* payload length: ax_finish */
}

void ax_response(struct ax_buf *b, const struct ax_ids *ids, uint32_t uptime,
		 uint16_t error, uint16_t index)
{
	ax_header(b, AX_PDU_RESPONSE, 0, ids);
	unsigned char *p = room(b, 8);
	if (!p)
		return;
	put32(p, uptime);
	put16(p + 4, error);
	put16(p + 6, index);
}

/* RFC 2741 5.1: an OID, in the 1.3.6.1.X prefix form where it fits. */
static void put_oid(struct ax_buf *b, const unsigned long *name, size_t len)
{
	if (len == 0) { /* the null OID */
		unsigned char *p = room(b, 4);
		if (p)
			memset(p, 0, 4);
		return;
	}
	unsigned prefix = 0;

	if (len >= 5 && name[0] == 1 && name[1] == 3 && name[2] == 6 &&
	    name[3] == 1 && name[4] > 0 && name[4] <= 255) {
		prefix = (unsigned)name[4];
		name += 5;
		len -= 5;
	}
	if (len > AX_OID_MAX) {
		b->oom = true; /* cannot be written: drop the PDU */
		return;
	}
	unsigned char *p = room(b, 4 + 4 * len);
	if (!p)
		return;
	p[0] = (unsigned char)len;
	p[1] = (unsigned char)prefix;
	p[2] = 0; /* include: only in requests */
	p[3] = 0;
	for (size_t i = 0; i < len; i++)
		put32(p + 4 + 4 * i, (uint32_t)name[i]);
}

/* The varbind's type and reserved field, then its name. */
static void put_head(struct ax_buf *b, uint16_t type, const unsigned long *name,
		     size_t len)
{
	unsigned char *p = room(b, 4);
	if (!p)
		return;
	put16(p, type);
	put16(p + 2, 0);
	put_oid(b, name, len);
}

void ax_exception(struct ax_buf *b, const unsigned long *name, size_t len,
		  enum ax_data_type type)
{
	put_head(b, (uint16_t)type, name, len);
}

/* RFC 2741 5.3: length, octets, padding to a multiple of 4. */
static void put_octets(struct ax_buf *b, const char *s, size_t n)
{
	if (n > UINT32_MAX - 3) {
		b->oom = true;
		return;
	}
	size_t pad = (4 - n % 4) % 4;
	unsigned char *p = room(b, 4 + n + pad);
	if (!p)
		return;
	put32(p, (uint32_t)n);
	if (n)
		memcpy(p + 4, s, n);
	memset(p + 4 + n, 0, pad);
}

void ax_varbind(struct ax_buf *b, const unsigned long *name, size_t len,
		const struct ax_value *v)
{
	unsigned char *p;

	switch (v->type) {
	case AX_INTEGER:
	case AX_COUNTER32:
	case AX_GAUGE32:
	case AX_TIMETICKS:
	case AX_COUNTER64:
	case AX_OCTET_STRING:
		break;
	default: /* no value of ours has another type */
		b->oom = true;
		return;
	}
	put_head(b, (uint16_t)v->type, name, len);
	switch (v->type) {
	case AX_INTEGER:
		if ((p = room(b, 4)) != NULL)
			put32(p, (uint32_t)v->v.i32);
		break;
	case AX_COUNTER64:
		if ((p = room(b, 8)) != NULL) {
			put32(p, (uint32_t)(v->v.u64 >> 32));
			put32(p + 4, (uint32_t)v->v.u64);
		}
		break;
	case AX_OCTET_STRING:
		put_octets(b, v->v.str.ptr, v->v.str.len);
		break;
	default: /* Counter32, Gauge32, TimeTicks */
		if ((p = room(b, 4)) != NULL)
			put32(p, v->v.u32);
		break;
	}
}

void ax_varbind_oid(struct ax_buf *b, const unsigned long *name, size_t len,
		    const unsigned long *value, size_t vlen)
{
	put_head(b, AX_OBJECT_ID, name, len);
	put_oid(b, value, vlen);
}

void ax_varbind_timeticks(struct ax_buf *b, const unsigned long *name,
			  size_t len, uint32_t ticks)
{
	unsigned char *p;
	put_head(b, AX_TIMETICKS, name, len);
	if ((p = room(b, 4)) != NULL)
		put32(p, ticks);
}

void ax_open(struct ax_buf *b, const struct ax_ids *ids, uint8_t timeout,
	     const unsigned long *id, size_t idlen, const char *descr)
{
	unsigned char *p;
	ax_header(b, AX_PDU_OPEN, 0, ids);
	if ((p = room(b, 4)) != NULL) {
		p[0] = timeout;
		p[1] = p[2] = p[3] = 0;
	}
	put_oid(b, id, idlen);
	put_octets(b, descr, strlen(descr));
}

void ax_close(struct ax_buf *b, const struct ax_ids *ids,
	      enum ax_close_reason reason)
{
	unsigned char *p;
	ax_header(b, AX_PDU_CLOSE, 0, ids);
	if ((p = room(b, 4)) != NULL) {
		p[0] = (unsigned char)reason;
		p[1] = p[2] = p[3] = 0;
	}
}

void ax_register(struct ax_buf *b, const struct ax_ids *ids, uint8_t priority,
		 const unsigned long *subtree, size_t len)
{
	unsigned char *p;
	ax_header(b, AX_PDU_REGISTER, 0, ids);
	if ((p = room(b, 4)) != NULL) {
		p[0] = 0; /* timeout: the session's */
		p[1] = priority;
		p[2] = 0; /* range_subid: none */
		p[3] = 0;
	}
	put_oid(b, subtree, len);
}

void ax_add_agent_caps(struct ax_buf *b, const struct ax_ids *ids,
		       const unsigned long *id, size_t idlen,
		       const char *descr)
{
	ax_header(b, AX_PDU_ADDAGENTCAPS, 0, ids);
	put_oid(b, id, idlen);
	put_octets(b, descr, strlen(descr));
}

void ax_ping(struct ax_buf *b, const struct ax_ids *ids)
{
	ax_header(b, AX_PDU_PING, 0, ids);
}

void ax_notify(struct ax_buf *b, const struct ax_ids *ids)
{
	ax_header(b, AX_PDU_NOTIFY, 0, ids);
}

int ax_finish(struct ax_buf *b)
{
	if (b->oom || b->len < AX_HEADER_LEN)
		return -1;
	put32(b->p + 16, (uint32_t)(b->len - AX_HEADER_LEN));
	return 0;
}
