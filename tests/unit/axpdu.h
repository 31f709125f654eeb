/*
 * axpdu.h - the unit tests' AgentX PDU builder: a master's PDUs byte by
 * byte (RFC 2741 6.1 header, 5.1 OIDs with the 1.3.6.1.X prefix), in
 * either byte order, written independently of lib/agentx/agentx_encode.c.
 */
#ifndef HWR10K_TEST_AXPDU_H
#define HWR10K_TEST_AXPDU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agentx/agentx_pdu.h"

/* A PDU under construction, in either byte order. */
struct pdu {
	unsigned char b[512];
	size_t len;
	bool net;
};

static inline void put8(struct pdu *p, unsigned v)
{
	p->b[p->len++] = (unsigned char)v;
}
static inline void put16(struct pdu *p, unsigned v)
{
	unsigned char x[2] = {(unsigned char)(v >> 8), (unsigned char)v};
	p->b[p->len++] = p->net ? x[0] : x[1];
	p->b[p->len++] = p->net ? x[1] : x[0];
}
static inline void put32(struct pdu *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p->b[p->len++] = (unsigned char)(p->net ? v >> (24 - 8 * i)
							: v >> (8 * i));
}
/* header of type, flags; the length is set by finish() */
static inline void header(struct pdu *p, unsigned type, unsigned flags, bool net)
{
	p->len = 0;
	p->net = net;
	put8(p, 1);
	put8(p, type);
	put8(p, flags | (net ? AX_FLAG_NETWORK_BYTE_ORDER : 0));
	put8(p, 0);
	put32(p, 11); /* session */
	put32(p, 22); /* transaction */
	put32(p, 33); /* packet */
	put32(p, 0);
}
static inline void finish(struct pdu *p)
{
	size_t save = p->len;
	p->len = 16;
	put32(p, (uint32_t)(save - AX_HEADER_LEN));
	p->len = save;
}
/* an OID: with prefix compression when it starts 1.3.6.1.X (X < 256) */
static inline void oid(struct pdu *p, const unsigned *sub, size_t n, bool include)
{
	bool pre = n >= 5 && sub[0] == 1 && sub[1] == 3 && sub[2] == 6 &&
		   sub[3] == 1 && sub[4] < 256;
	put8(p, pre ? n - 5 : n);
	put8(p, pre ? sub[4] : 0);
	put8(p, include);
	put8(p, 0);
	for (size_t i = pre ? 5 : 0; i < n; i++)
		put32(p, sub[i]);
}

#endif
