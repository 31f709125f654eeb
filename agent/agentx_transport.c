/* agentx_transport.c - the master session's transport: plain receives,
 * and the requests that got no answer (see agentx_transport.h). */
#include "agentx_transport.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "agentx_pdu.h"

/* Requests in flight: the master forwards one request per client and
 * waits for its answer, so usually a few, but a master may pipeline
 * thousands; the list grows to this many (1 MiB), past which the oldest
 * is judged. */
#define PENDING_MAX 65536

typedef int (*recv_fn)(netsnmp_transport *, void *, int, void **, int *);
typedef int (*send_fn)(netsnmp_transport *, const void *, int, void **, int *);

struct frame {
	unsigned type;
	uint32_t packet_id, length;
	time_t since; /* monotonic seconds */
};

static struct {
	const netsnmp_transport *t; /* watched (compared, never used) */
	recv_fn recv;		    /* its own f_recv and f_send */
	send_fn send;
	unsigned char header[AX_HEADER_LEN];
	size_t have;	  /* header bytes of the PDU coming in */
	struct frame cur; /* the PDU whose payload is coming in */
	uint64_t skip;	  /* payload bytes of cur still to come */
	struct frame *pending; /* in arrival order */
	size_t npending, cap;
	unsigned long unanswered;
	bool broken; /* a header announced a payload the agent will not read */
} w;

static time_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static const char *type_name(unsigned type)
{
	static const char *const names[] = {"Get",     "GetNext",   "GetBulk",
					    "TestSet", "CommitSet", "UndoSet"};
	return names[type - AX_PDU_GET];
}

static uint32_t get32(const unsigned char *p, bool network)
{
	return network ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			     (uint32_t)p[2] << 8 | p[3]
		       : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[1] << 8 | p[0];
}

static struct frame parse_header(const unsigned char *h)
{
	bool network = h[2] & AX_FLAG_NETWORK_BYTE_ORDER;
	return (struct frame){.type = h[1],
			      .packet_id = get32(h + 12, network),
			      .length = get32(h + 16, network)};
}

static void report(const struct frame *f)
{
	w.unanswered++;
	snmp_log(LOG_WARNING,
		 "AgentX: a %s PDU from the master (packet ID %lu, %lu bytes "
		 "of payload) got no answer: net-snmp drops a PDU it cannot "
		 "parse (RFC 2741) without a word, and the master times the "
		 "request out (%lu unanswered since start)\n",
		 type_name(f->type), (unsigned long)f->packet_id,
		 (unsigned long)f->length, w.unanswered);
}

static void drop_pending(size_t i)
{
	memmove(&w.pending[i], &w.pending[i + 1],
		(w.npending - i - 1) * sizeof(w.pending[0]));
	w.npending--;
}

/* The last byte of a PDU is in: a request waits for its Response
 * (Get..UndoSet; CleanupSet gets none). */
static void frame_done(void)
{
	if (w.cur.type < AX_PDU_GET || w.cur.type > AX_PDU_UNDOSET)
		return;
	if (w.npending == w.cap && w.cap < PENDING_MAX) {
		size_t cap = w.cap ? w.cap * 2 : 64;
		struct frame *p = realloc(w.pending, cap * sizeof(*p));
		if (p) {
			w.pending = p;
			w.cap = cap;
		}
	}
	if (w.npending == w.cap) {
		if (w.cap == 0)
			return; /* out of memory: nothing to judge by */
		report(&w.pending[0]);
		drop_pending(0);
	}
	w.cur.since = now();
	w.pending[w.npending++] = w.cur;
}

/* The stream as it comes in: headers, and the payloads they announce. */
static void feed(const unsigned char *p, size_t n)
{
	while (n > 0) {
		if (w.skip > 0) {
			size_t k = w.skip < n ? (size_t)w.skip : n;
			w.skip -= k;
			p += k;
			n -= k;
			if (w.skip == 0)
				frame_done();
			continue;
		}
		size_t k = AX_HEADER_LEN - w.have < n ? AX_HEADER_LEN - w.have : n;
		memcpy(w.header + w.have, p, k);
		w.have += k;
		p += k;
		n -= k;
		if (w.have == AX_HEADER_LEN) {
			w.cur = parse_header(w.header);
			w.have = 0;
			if (w.cur.length > AGENTX_PAYLOAD_MAX ||
			    w.cur.length % 4 != 0) {
				w.broken = true;
				return;
			}
			w.skip = w.cur.length;
			if (w.skip == 0)
				frame_done();
		}
	}
}

/* A unix stream socket: what net-snmp's receive does, but for the
 * address nobody reads (net-snmp's stream handling needs none). */
static int plain_recv(netsnmp_transport *t, void *buf, int size, void **opaque,
		      int *olength)
{
	ssize_t n;

	*opaque = NULL;
	*olength = 0;
	if (t->sock < 0)
		return -1;
	do
		n = recv(t->sock, buf, (size_t)size, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	return (int)n;
}

/*
 * A header whose payload length the agent will not read (over
 * AGENTX_PAYLOAD_MAX, or not a multiple of 4 as RFC 2741 6.1 requires)
 * leaves no way to find the next PDU: net-snmp's framing would wait for
 * gigabytes, silently, until a Ping times out.  Said, and the session is
 * reset at once (RFC 2741 12.1): the receive fails, net-snmp closes the
 * connection and the subagent opens a new one.
 */
static int watching_recv(netsnmp_transport *t, void *buf, int size,
			 void **opaque, int *olength)
{
	int n = w.recv(t, buf, size, opaque, olength);
	if (t != w.t || n <= 0)
		return n;
	feed(buf, (size_t)n);
	if (!w.broken)
		return n;
	snmp_log(LOG_ERR,
		 "AgentX: the master sent a %s PDU header (packet ID %lu) "
		 "announcing %lu bytes of payload, more than %u or not a "
		 "multiple of 4: the stream cannot be framed; resetting the "
		 "session (RFC 2741 12.1)\n",
		 w.cur.type >= AX_PDU_GET && w.cur.type <= AX_PDU_UNDOSET
		     ? type_name(w.cur.type)
		     : "non-request",
		 (unsigned long)w.cur.packet_id, (unsigned long)w.cur.length,
		 (unsigned)AGENTX_PAYLOAD_MAX);
	w.broken = false;
	w.t = NULL; /* the next connection is taken afresh */
	errno = EPROTO;
	return -1;
}

static bool unix_stream(int sock)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	int type = 0;
	socklen_t tlen = sizeof(type);

	return sock >= 0 &&
	       getsockname(sock, (struct sockaddr *)&sa, &len) == 0 &&
	       sa.ss_family == AF_UNIX &&
	       getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &tlen) == 0 &&
	       type == SOCK_STREAM;
}

/* Every sender hands the transport one whole PDU: a Response answers the
 * request with its packet ID. */
static int watching_send(netsnmp_transport *t, const void *buf, int size,
			 void **opaque, int *olength)
{
	if (t == w.t && size >= AX_HEADER_LEN) {
		struct frame f = parse_header(buf);
		if (f.type == AX_PDU_RESPONSE &&
		    (uint64_t)f.length + AX_HEADER_LEN == (uint64_t)size)
			for (size_t i = 0; i < w.npending; i++)
				if (w.pending[i].packet_id == f.packet_id) {
					drop_pending(i);
					break;
				}
	}
	return w.send(t, buf, size, opaque, olength);
}

void agentx_transport_take(netsnmp_session *session)
{
	netsnmp_transport *t = snmp_sess_transport(snmp_sess_pointer(session));

	if (!t || t->f_recv == watching_recv)
		return;
	/* what the last connection left unanswered was processed (net-snmp
	 * handles every complete PDU of a read at once) and never answered */
	for (size_t i = 0; i < w.npending; i++)
		report(&w.pending[i]);
	memset(&w.header, 0, sizeof(w.header));
	w.have = 0;
	w.skip = 0;
	w.npending = 0;
	w.broken = false;
	w.t = t;
	w.recv = unix_stream(t->sock) ? plain_recv : t->f_recv;
	w.send = t->f_send;
	t->f_recv = watching_recv;
	t->f_send = watching_send;
}

void agentx_transport_check(void)
{
	time_t limit = now() - AGENTX_UNANSWERED_SECONDS;

	while (w.npending > 0 && w.pending[0].since <= limit) {
		report(&w.pending[0]);
		drop_pending(0);
	}
}

