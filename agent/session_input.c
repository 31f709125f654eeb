/*
 * session_input.c - what the master sends on the AgentX session: framed
 * into PDUs (a header that cannot be framed drops the session), its
 * requests answered by lib/agentx_read.c whatever the session's state
 * (the one read path), its Responses handed to session.c, its Close.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agentx_read.h"
#include "session_data.h"

/* ------------------------------------------------------------ input */

/* The master's Response to one of ours. */
static void on_response(const struct ax_header_in *h, const unsigned char *p)
{
	struct ax_response_in r;
	size_t i = 0;

	while (i < s.npend && s.pend[i].packet != h->ids.packet)
		i++;
	if (i == s.npend || ax_parse_response(h, p, &r) != 0) {
		DEBUGMSGTL(("hwr10k/session",
			    "a Response to no request of ours (%u)\n",
			    h->ids.packet));
		return;
	}
	uint8_t type = s.pend[i].type;
	memmove(&s.pend[i], &s.pend[i + 1], (s.npend - i - 1) * sizeof(*s.pend));
	s.npend--;
	s.uptime_base = r.uptime; /* in step with the master's sysUpTime */
	s.uptime_ms = session_now_ms();
	session_answered(type, h, r.error);
}

static bool is_request(uint8_t type)
{
	return type >= AX_PDU_GET && type <= AX_PDU_CLEANUPSET;
}

/*
 * Answer a request of the master's.  The checks in RFC 2741's order
 * (7.2.2, doc/architecture.md): a payload that does not parse is a
 * parseError whatever its session; then a session that is not ours (or
 * none yet) is notOpen; then the request (a non-default context is
 * unsupportedContext, lib/agentx_read.c).
 */
static void on_request(const struct ax_header_in *h, const unsigned char *p)
{
	unsigned char st[2048];
	struct ax_buf b;
	char why[160];

	ax_init(&b, st, sizeof(st));
	if (ax_parse_request(h, p, &s.req, why, sizeof(why)) != 0) {
		snmp_log(LOG_WARNING,
			 "AgentX: a %s from the master (packet ID %u, %u "
			 "bytes of payload) does not parse: %s; answered "
			 "parseError\n",
			 session_type_name(h->type), h->ids.packet, h->length, why);
		ax_response(&b, &h->ids, session_uptime(), AX_ERR_PARSEERROR,
			    0);
	} else if (h->ids.session != s.id || s.state == S_IDLE) {
		snmp_log(LOG_WARNING,
			 "AgentX: a %s for session %u (ours is %u), packet "
			 "ID %u: answered notOpen\n",
			 session_type_name(h->type), h->ids.session, s.id,
			 h->ids.packet);
		ax_response(&b, &h->ids, session_uptime(), AX_ERR_NOTOPEN, 0);
	} else if (!ax_answer(s.view, &s.req, session_uptime(), &b)) {
		return; /* CleanupSet: no Response */
	}
	DEBUGMSGTL(("hwr10k/session", "%s, packet %u\n", session_type_name(h->type),
		    h->ids.packet));
	if (h->type == AX_PDU_CLEANUPSET) {
		ax_free(&b);
		return;
	}
	s.next_ping_ms = session_now_ms() + (uint64_t)s.ping_s * 1000u; /* alive */
	session_send(&b);
}

/*
 * A PDU a master does not send: a type RFC 2741 does not define (6.1 has
 * 1 to 18) cannot be parsed, parseError (6.2.16); one a subagent sends
 * and a master never does (Open, Register, Unregister, Notify, Ping,
 * IndexAllocate, IndexDeallocate, AddAgentCaps, RemoveAgentCaps: 6.1 and
 * 6.2) is one a subagent has no processing for, processingError.  Either
 * way a Response echoing its IDs, so that the master does not wait out
 * its timeout (doc/architecture.md, "Answers").
 */
static void on_unexpected(const struct ax_header_in *h)
{
	unsigned char st[64];
	struct ax_buf b;
	bool known = h->type >= AX_PDU_OPEN && h->type <= AX_PDU_RESPONSE;

	ax_init(&b, st, sizeof(st));
	snmp_log(LOG_WARNING,
		 "AgentX: a %s PDU (type %u, packet ID %u) from the master, "
		 "%s; answered %s\n",
		 session_type_name(h->type), h->type, h->ids.packet,
		 known ? "which only a subagent sends"
		       : "a type AgentX does not define",
		 known ? "processingError" : "parseError");
	ax_response(&b, &h->ids, session_uptime(),
		    known ? AX_ERR_PROCESSINGERROR : AX_ERR_PARSEERROR, 0);
	session_send(&b);
}

/* One whole PDU; false when the session was dropped. */
static bool on_pdu(const struct ax_header_in *h, const unsigned char *p)
{
	if (h->type == AX_PDU_RESPONSE) {
		on_response(h, p);
	} else if (is_request(h->type)) {
		on_request(h, p);
	} else if (h->type == AX_PDU_CLOSE) {
		uint8_t reason = 0;
		ax_parse_close(h, p, &reason);
		snmp_log(LOG_NOTICE,
			 "AgentX: the master at %s closed the session "
			 "(reason %u); connecting again\n",
			 s.address, reason);
		session_drop();
		s.retry_ms = session_now_ms(); /* at once */
		return false;
	} else {
		on_unexpected(h);
	}
	return s.fd >= 0;
}

/* Frame (lib/agentx_decode.c) and handle the PDUs in the input buffer. */
static void frame(void)
{
	size_t at = 0;
	struct ax_header_in h;
	enum ax_frame f;

	while (s.fd >= 0 &&
	       (f = ax_frame(s.in + at, s.in_len - at, &h)) != AX_FRAME_SHORT) {
		if (f == AX_FRAME_BAD) {
			snmp_log(LOG_ERR,
				 "AgentX: the master sent a %s PDU header "
				 "(packet ID %u) of version %u announcing %lu "
				 "bytes of payload: the stream cannot be "
				 "framed (version 1, at most %u bytes, a "
				 "multiple of 4); resetting the session\n",
				 session_type_name(h.type), h.ids.packet, h.version,
				 (unsigned long)h.length, AX_PAYLOAD_MAX);
			session_drop();
			return;
		}
		const unsigned char *payload = s.in + at + AX_HEADER_LEN;
		at += AX_HEADER_LEN + h.length;
		if (!on_pdu(&h, payload))
			return;
	}
	if (s.fd >= 0 && at > 0) {
		memmove(s.in, s.in + at, s.in_len - at);
		s.in_len -= at;
	}
}

void session_readable(void)
{
	for (;;) {
		if (s.in_cap - s.in_len < 4096) {
			size_t cap = s.in_cap ? s.in_cap * 2 : 65536;
			if (cap > AX_PAYLOAD_MAX * 2 + AX_HEADER_LEN * 2)
				cap = AX_PAYLOAD_MAX * 2 +
				      AX_HEADER_LEN * 2;
			unsigned char *p =
			    cap > s.in_cap ? realloc(s.in, cap) : s.in;
			if (!p || cap - s.in_len == 0) {
				snmp_log(LOG_ERR, "AgentX: out of memory; "
						  "dropping the session\n");
				session_drop();
				return;
			}
			s.in = p;
			s.in_cap = cap;
		}
		ssize_t n = recv(s.fd, s.in + s.in_len, s.in_cap - s.in_len,
				 MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			snmp_log(LOG_NOTICE,
				 "AgentX: the master at %s went away (%s); "
				 "connecting again\n",
				 s.address,
				 n == 0 ? "connection closed" : strerror(errno));
			session_drop();
			return;
		}
		s.in_len += (size_t)n;
		frame();
		if (s.fd < 0 || (size_t)n < 4096)
			return;
	}
}

