/*
 * session_output.c - what the agent sends on the AgentX session: an
 * output queue the socket drains as it takes (a master that reads
 * nothing for SESSION_OUTPUT_MAX is dropped), and our own requests
 * (Open, Register, AddAgentCaps, Ping, Notify), each remembered with its
 * deadline until the master answers.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "objects.h"
#include "session_data.h"

#define DESCR "HW-R10KEVCTR-MIB: CPU hardware event counters (hw-r10kevctr)"

/* ------------------------------------------------------------ output */

/* Queue a finished PDU and send what the socket takes. */
static int queue(const struct ax_buf *b)
{
	if (s.fd < 0)
		return -1;
	if (s.out_len - s.out_off + b->len > SESSION_OUTPUT_MAX) {
		snmp_log(LOG_ERR,
			 "AgentX: the master has not read %zu bytes of "
			 "answers; dropping the session\n",
			 s.out_len - s.out_off);
		session_drop();
		return -1;
	}
	if (session_out_reserve(b->len) != 0) {
		snmp_log(LOG_ERR, "AgentX: out of memory; dropping the "
				  "session\n");
		session_drop();
		return -1;
	}
	memcpy(s.out + s.out_len, b->p, b->len);
	s.out_len += b->len;
	session_flush();
	return 0;
}

/*
 * Room for n more bytes of output.  What the master has read is given
 * back first: the unread bytes move to the front whenever the read part
 * is at least as large (each byte moves at most once per its own size
 * sent, so the cost stays linear), so the buffer holds what is unread
 * plus at most as much again, never everything ever sent.
 */
int session_out_reserve(size_t n)
{
	size_t unread = s.out_len - s.out_off;
	if (s.out_off > 0 && s.out_off >= unread) {
		memmove(s.out, s.out + s.out_off, unread);
		s.out_off = 0;
		s.out_len = unread;
	}
	if (s.out_cap - s.out_len >= n)
		return 0;
	size_t cap = s.out_cap ? s.out_cap : SESSION_OUT_MIN;
	while (cap - s.out_len < n)
		cap *= 2;
	unsigned char *p = realloc(s.out, cap);
	if (!p)
		return -1;
	s.out = p;
	s.out_cap = cap;
	return 0;
}

void session_flush(void)
{
	while (s.fd >= 0 && s.out_off < s.out_len) {
		ssize_t n = send(s.fd, s.out + s.out_off, s.out_len - s.out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			s.out_off += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
			      errno == EINTR)) {
			if (errno != EINTR)
				break;
			continue;
		}
		snmp_log(LOG_WARNING,
			 "AgentX: sending to the master failed (%s); "
			 "connecting again\n",
			 n < 0 ? strerror(errno) : "nothing sent");
		session_drop();
		return;
	}
	if (s.fd >= 0 && s.out_off == s.out_len) {
		s.out_off = s.out_len = 0;
		/* drained after a burst: give the memory back */
		if (s.out_cap > SESSION_OUT_KEEP) {
			free(s.out);
			s.out = NULL;
			s.out_cap = 0;
		}
	}
}

/* Wait for the Response to our request with this packet ID. */
static void remember(uint32_t packet, uint8_t type)
{
	if (s.npend == PENDING_MAX) { /* the oldest cannot be answered now */
		memmove(s.pend, s.pend + 1, (PENDING_MAX - 1) * sizeof(*s.pend));
		s.npend--;
	}
	s.pend[s.npend++] = (struct pending){
	    packet, type, session_now_ms() + SESSION_TIMEOUT_S * 1000u};
}

/* One of our requests: its IDs, remembered until its Response. */
static struct ax_ids request_ids(uint8_t type)
{
	struct ax_ids ids = {s.id, 0, ++s.next_packet};
	remember(ids.packet, type);
	return ids;
}

int session_send(struct ax_buf *b)
{
	int rc = ax_finish(b) == 0 ? queue(b) : -1;
	ax_free(b);
	return rc;
}

static void root_oid(unsigned long *oid, size_t *len)
{
	for (unsigned i = 0; i < mib_root_len; i++)
		oid[i] = mib_root[i];
	*len = mib_root_len;
}

/* Open, Register or AddAgentCaps, each naming the module's root; the
 * session moves to the state that waits for its answer. */
void session_send_admin(enum ax_pdu_type type)
{
	unsigned char st[256];
	struct ax_buf b;
	unsigned long id[MIB_ROOT_MAX];
	size_t len;
	struct ax_ids ids = request_ids((uint8_t)type);

	root_oid(id, &len);
	ax_init(&b, st, sizeof(st));
	if (type == AX_PDU_OPEN) {
		ax_open(&b, &ids, 0, id, len, DESCR);
		s.state = S_OPENING;
	} else if (type == AX_PDU_REGISTER) {
		ax_register(&b, &ids, 127, id, len);
		s.state = S_REGISTERING;
	} else {
		ax_add_agent_caps(&b, &ids, id, len, DESCR);
		s.state = S_CAPS;
	}
	session_send(&b);
}

void session_send_ping(void)
{
	unsigned char st[64];
	struct ax_buf b;
	for (size_t i = 0; i < s.npend; i++)
		if (s.pend[i].type == AX_PDU_PING)
			return; /* one at a time */
	struct ax_ids ids = request_ids(AX_PDU_PING);
	ax_init(&b, st, sizeof(st));
	ax_ping(&b, &ids);
	session_send(&b);
}

bool session_notify_start(struct ax_buf *b)
{
	if (s.state != S_UP)
		return false;
	struct ax_ids ids = {s.id, 0, ++s.next_packet};
	ax_notify(b, &ids); /* remembered when sent */
	return true;
}

int session_notify_send(struct ax_buf *b)
{
	if (s.state != S_UP || b->oom || b->len < AX_HEADER_LEN) {
		ax_free(b);
		return -1;
	}
	const unsigned char *h = b->p + 12; /* written in network order */
	remember((uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
		     (uint32_t)h[2] << 8 | h[3],
		 AX_PDU_NOTIFY);
	return session_send(b);
}

