/*
 * ax_session_io.c - the session's bytes: what the master sends, framed
 * into PDUs (lib/agentx/agentx_decode.c's framer; a header that cannot be
 * framed drops the session), its requests answered by
 * lib/session/ax_session_dispatch.c
 * whatever the session's state (the one read path), its Responses handed
 * to the request of ours they answer, its Close; and what the session
 * sends: an output queue the socket drains as it takes (a master that
 * reads nothing for AX_SESSION_OUTPUT_MAX is dropped), our requests
 * remembered with their deadlines.
 */
#include "session/ax_session_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "session/ax_session_dispatch.h"
#include "util/log.h"

/* ------------------------------------------------------------ output */

/*
 * Room for n more bytes of output.  What the master has read is given
 * back first: the unread bytes move to the front whenever the read part
 * is at least as large (each byte moves at most once per its own size
 * sent, so the cost stays linear), so the buffer holds what is unread
 * plus at most as much again, never everything ever sent.
 */
int session_out_reserve(struct ax_session *s, size_t n)
{
	size_t unread = s->out_len - s->out_off;
	if (s->out_off > 0 && s->out_off >= unread) {
		memmove(s->out, s->out + s->out_off, unread);
		s->out_off = 0;
		s->out_len = unread;
	}
	if (s->out_cap - s->out_len >= n)
		return 0;
	size_t cap = s->out_cap ? s->out_cap : AX_SESSION_OUT_MIN;
	while (cap - s->out_len < n)
		cap *= 2;
	unsigned char *p = realloc(s->out, cap);
	if (!p)
		return -1;
	s->out = p;
	s->out_cap = cap;
	return 0;
}

void session_flush(struct ax_session *s)
{
	while (s->fd >= 0 && s->out_off < s->out_len) {
		ssize_t n = send(s->fd, s->out + s->out_off,
				 s->out_len - s->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			s->out_off += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
			      errno == EINTR)) {
			if (errno != EINTR)
				break;
			continue;
		}
		util_log(LOG_WARNING,
			 "AgentX: sending to the master failed (%s); "
			 "connecting again\n",
			 n < 0 ? strerror(errno) : "nothing sent");
		session_drop(s);
		return;
	}
	if (s->fd >= 0 && s->out_off == s->out_len) {
		s->out_off = s->out_len = 0;
		/* drained after a burst: give the memory back */
		if (s->out_cap > AX_SESSION_OUT_KEEP) {
			free(s->out);
			s->out = NULL;
			s->out_cap = 0;
		}
	}
}

/* Queue a finished PDU and send what the socket takes. */
static int queue(struct ax_session *s, const struct ax_buf *b)
{
	if (s->fd < 0)
		return -1;
	if (s->out_len - s->out_off + b->len > AX_SESSION_OUTPUT_MAX) {
		util_log(LOG_ERR,
			 "AgentX: the master has not read %zu bytes of "
			 "answers; dropping the session\n",
			 s->out_len - s->out_off);
		session_drop(s);
		return -1;
	}
	if (session_out_reserve(s, b->len) != 0) {
		util_log(LOG_ERR, "AgentX: out of memory; dropping the "
				  "session\n");
		session_drop(s);
		return -1;
	}
	memcpy(s->out + s->out_len, b->p, b->len);
	s->out_len += b->len;
	session_flush(s);
	return 0;
}

int session_send(struct ax_session *s, struct ax_buf *b)
{
	int rc = ax_finish(b) == 0 ? queue(s, b) : -1;
	ax_free(b);
	return rc;
}

void session_remember(struct ax_session *s, uint32_t packet, uint8_t type,
		      axs_answer_fn answered)
{
	if (s->npend == PENDING_MAX) { /* the oldest cannot be answered now */
		memmove(s->pend, s->pend + 1,
			(PENDING_MAX - 1) * sizeof(*s->pend));
		s->npend--;
	}
	s->pend[s->npend++] = (struct axs_pending){
	    packet, type, session_now(s) + AX_SESSION_TIMEOUT_S * 1000u,
	    answered};
}

struct ax_ids session_request_ids(struct ax_session *s, uint8_t type,
				  axs_answer_fn answered)
{
	struct ax_ids ids = {s->id, 0, ++s->next_packet};
	session_remember(s, ids.packet, type, answered);
	return ids;
}

/* ------------------------------------------------------------ input */

/* The master's Response to one of ours: what the request said to do. */
static void on_response(struct ax_session *s, const struct ax_header_in *h,
			const unsigned char *p)
{
	struct ax_response_in r;
	size_t i = 0;

	while (i < s->npend && s->pend[i].packet != h->ids.packet)
		i++;
	if (i == s->npend || ax_parse_response(h, p, &r) != 0) {
		session_debug(s, "a Response to no request of ours (%u)",
			      h->ids.packet);
		return;
	}
	axs_answer_fn answered = s->pend[i].answered;
	memmove(&s->pend[i], &s->pend[i + 1],
		(s->npend - i - 1) * sizeof(*s->pend));
	s->npend--;
	s->uptime_base = r.uptime; /* in step with the master's sysUpTime */
	s->uptime_ms = session_now(s);
	if (answered)
		answered(s, h, r.error);
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
 * unsupportedContext, lib/session/ax_session_dispatch.c).
 */
static void on_request(struct ax_session *s, const struct ax_header_in *h,
		       const unsigned char *p)
{
	unsigned char st[2048];
	struct ax_buf b;
	char why[160];

	ax_init(&b, st, sizeof(st));
	if (ax_parse_request(h, p, &s->req, why, sizeof(why)) != 0) {
		util_log(LOG_WARNING,
			 "AgentX: a %s from the master (packet ID %u, %u bytes "
			 "of payload) does not parse: %s; answered "
			 "parseError\n",
			 ax_pdu_name(h->type), h->ids.packet, h->length,
			 why);
		ax_response(&b, &h->ids, session_uptime(s), AX_ERR_PARSEERROR,
			    0);
	} else if (h->ids.session != s->id || s->state == S_IDLE) {
		util_log(LOG_WARNING,
			 "AgentX: a %s for session %u (ours is %u), packet ID "
			 "%u: answered notOpen\n",
			 ax_pdu_name(h->type), h->ids.session, s->id,
			 h->ids.packet);
		ax_response(&b, &h->ids, session_uptime(s), AX_ERR_NOTOPEN, 0);
	} else if (!session_answer(s->env.view, s->env.writer, &s->req,
				   session_uptime(s), &b)) {
		return; /* CleanupSet: no Response */
	}
	session_debug(s, "%s, packet %u", ax_pdu_name(h->type),
		      h->ids.packet);
	if (h->type == AX_PDU_CLEANUPSET) {
		ax_free(&b);
		return;
	}
	/* the master is alive: the next Ping can wait */
	s->next_ping_ms = session_now(s) + (uint64_t)s->ping_s * 1000u;
	session_send(s, &b);
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
static void on_unexpected(struct ax_session *s, const struct ax_header_in *h)
{
	unsigned char st[64];
	struct ax_buf b;
	bool known = h->type >= AX_PDU_OPEN && h->type <= AX_PDU_RESPONSE;

	ax_init(&b, st, sizeof(st));
	util_log(LOG_WARNING,
		 "AgentX: a %s PDU (type %u, packet ID %u) from the master, "
		 "%s; answered %s\n",
		 ax_pdu_name(h->type), h->type, h->ids.packet,
		 known ? "which only a subagent sends"
		       : "a type AgentX does not define",
		 known ? "processingError" : "parseError");
	ax_response(&b, &h->ids, session_uptime(s),
		    known ? AX_ERR_PROCESSINGERROR : AX_ERR_PARSEERROR, 0);
	session_send(s, &b);
}

/* One whole PDU; false when the session was dropped. */
static bool on_pdu(struct ax_session *s, const struct ax_header_in *h,
		   const unsigned char *p)
{
	if (h->type == AX_PDU_RESPONSE) {
		on_response(s, h, p);
	} else if (is_request(h->type)) {
		on_request(s, h, p);
	} else if (h->type == AX_PDU_CLOSE) {
		uint8_t reason = 0;
		ax_parse_close(h, p, &reason);
		util_log(LOG_NOTICE,
			 "AgentX: the master at %s closed the session (reason "
			 "%u); connecting again\n",
			 s->address, reason);
		session_drop(s);
		s->retry_ms = session_now(s); /* at once */
		return false;
	} else {
		on_unexpected(s, h);
	}
	return s->fd >= 0;
}

/* Frame (lib/agentx/agentx_decode.c) and handle the PDUs in the input
 * buffer. */
static void frame(struct ax_session *s)
{
	size_t at = 0;
	struct ax_header_in h;
	enum ax_frame f;

	while (s->fd >= 0 && (f = ax_frame(s->in + at, s->in_len - at, &h)) !=
				 AX_FRAME_SHORT) {
		if (f == AX_FRAME_BAD) {
			util_log(LOG_ERR,
				 "AgentX: the master sent a %s PDU header "
				 "(packet ID %u) of version %u announcing %lu "
				 "bytes of payload: the stream cannot be "
				 "framed (version 1, at most %u bytes, a "
				 "multiple of 4); resetting the session\n",
				 ax_pdu_name(h.type), h.ids.packet,
				 h.version, (unsigned long)h.length,
				 AX_PAYLOAD_MAX);
			session_drop(s);
			return;
		}
		const unsigned char *payload = s->in + at + AX_HEADER_LEN;
		at += AX_HEADER_LEN + h.length;
		if (!on_pdu(s, &h, payload))
			return;
	}
	if (s->fd >= 0 && at > 0) {
		memmove(s->in, s->in + at, s->in_len - at);
		s->in_len -= at;
	}
}

/* Room to read into: the buffer grows to two largest PDUs at most. */
static bool in_room(struct ax_session *s)
{
	if (s->in_cap - s->in_len >= 4096)
		return true;
	size_t cap = s->in_cap ? s->in_cap * 2 : 65536;
	if (cap > AX_PAYLOAD_MAX * 2 + AX_HEADER_LEN * 2)
		cap = AX_PAYLOAD_MAX * 2 + AX_HEADER_LEN * 2;
	unsigned char *p = cap > s->in_cap ? realloc(s->in, cap) : s->in;
	if (!p || cap - s->in_len == 0) {
		util_log(LOG_ERR, "AgentX: out of memory; dropping the "
				  "session\n");
		session_drop(s);
		return false;
	}
	s->in = p;
	s->in_cap = cap;
	return true;
}

void session_readable(struct ax_session *s)
{
	for (;;) {
		if (!in_room(s))
			return;
		ssize_t n = recv(s->fd, s->in + s->in_len, s->in_cap - s->in_len,
				 MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			util_log(LOG_NOTICE,
				 "AgentX: the master at %s went away (%s); "
				 "connecting again\n",
				 s->address,
				 n == 0 ? "connection closed"
					: strerror(errno));
			session_drop(s);
			return;
		}
		s->in_len += (size_t)n;
		frame(s);
		if (s->fd < 0 || (size_t)n < 4096)
			return;
	}
}
