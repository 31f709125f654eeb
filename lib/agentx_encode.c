/* agentx_encode.c - the AgentX Response PDU (see agentx_encode.h). */
#include "agentx_encode.h"

#include <stdlib.h>
#include <string.h>

#include "objects.h"

#define AX_OID_MAX 255 /* n_subid is one octet */

/* RFC 2741 5.4 value types */
enum {
	AX_INTEGER = 2,
	AX_OCTET_STRING = 4,
	AX_COUNTER32 = 65,
	AX_GAUGE32 = 66,
	AX_TIMETICKS = 67,
	AX_COUNTER64 = 70,
};

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

void ax_response(struct ax_buf *b, uint32_t session_id, uint32_t trans_id,
		 uint32_t packet_id, uint32_t uptime, uint16_t error,
		 uint16_t index)
{
	unsigned char *p = room(b, AX_HEADER_LEN + 8);
	if (!p)
		return;
	p[0] = AX_VERSION;
	p[1] = AX_PDU_RESPONSE;
	p[2] = AX_FLAG_NETWORK_BYTE_ORDER;
	p[3] = 0;
	put32(p + 4, session_id);
	put32(p + 8, trans_id);
	put32(p + 12, packet_id);
	put32(p + 16, 0); /* payload length: ax_finish */
	put32(p + 20, uptime);
	put16(p + 24, error);
	put16(p + 26, index);
}

/* RFC 2741 5.1: an OID, in the 1.3.6.1.X prefix form where it fits. */
static void put_oid(struct ax_buf *b, const unsigned long *name, size_t len)
{
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
		  enum ax_exception type)
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
		const struct mib_value *v)
{
	unsigned char *p;

	switch (v->type) {
	case SYN_INTEGER32:
	case SYN_UNSIGNED32:
	case SYN_COUNTER32:
	case SYN_TIMETICKS:
		put_head(b,
			 v->type == SYN_INTEGER32    ? AX_INTEGER
			 : v->type == SYN_COUNTER32  ? AX_COUNTER32
			 : v->type == SYN_UNSIGNED32 ? AX_GAUGE32
						     : AX_TIMETICKS,
			 name, len);
		if ((p = room(b, 4)) != NULL)
			put32(p, v->type == SYN_INTEGER32 ? (uint32_t)v->v.i32
							  : v->v.u32);
		break;
	case SYN_COUNTER64:
		put_head(b, AX_COUNTER64, name, len);
		if ((p = room(b, 8)) != NULL) {
			put32(p, (uint32_t)(v->v.u64 >> 32));
			put32(p + 4, (uint32_t)v->v.u64);
		}
		break;
	case SYN_OCTETS:
		put_head(b, AX_OCTET_STRING, name, len);
		put_octets(b, v->v.str.ptr, v->v.str.len);
		break;
	}
}

int ax_finish(struct ax_buf *b)
{
	if (b->oom || b->len < AX_HEADER_LEN)
		return -1;
	put32(b->p + 16, (uint32_t)(b->len - AX_HEADER_LEN));
	return 0;
}
