/*
 * ax_session.c - the AgentX session (ax_session.h): its states through
 * RFC 2741's subagent administration (Open, Register, AddAgentCaps,
 * Pings, Close), what each answer of the master does, the timers and the
 * API.  What the master sends is read in ax_session_io.c, where the
 * session's output is queued too; connecting is ax_session_dial.c's.
 *
 * Errors, as RFC 2741 asks (doc/architecture.md, "Answers"):
 *  - a header the stream cannot be framed by: logged, and the session
 *    dropped at once (there is no next PDU to find);
 *  - a request whose payload does not parse: parseError; of another
 *    session: notOpen; a PDU a master does not send: parseError or
 *    processingError; each logged, the session goes on;
 *  - a Close from the master: logged, and a new session at once;
 *  - no answer to one of our requests within AX_SESSION_TIMEOUT_S (a hung
 *    or stopped master): logged once, and a new connection every ping_s,
 *    the caller's loop going on meanwhile.
 */
#include "session/ax_session_int.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "meta/objects.h"

#define DESCR "HW-R10KEVCTR-MIB: CPU hardware event counters (hw-r10kevctr)"

/* ------------------------------------------------------------ our requests
 * Each sends the next and says what its answer does: the session moves
 * Open -> Register -> AddAgentCaps -> up, one state per answer. */

static void root_oid(unsigned long *oid, size_t *len)
{
	for (unsigned i = 0; i < meta_root_len; i++)
		oid[i] = meta_root[i];
	*len = meta_root_len;
}

static void caps_answered(struct ax_session *s, const struct ax_header_in *h,
			  uint16_t error);
static void register_answered(struct ax_session *s,
			      const struct ax_header_in *h, uint16_t error);
static void open_answered(struct ax_session *s, const struct ax_header_in *h,
			  uint16_t error);

/* Open, Register or AddAgentCaps, each naming the module's root. */
static void send_admin(struct ax_session *s, enum ax_pdu_type type)
{
	unsigned char st[256];
	struct ax_buf b;
	unsigned long id[MIB_ROOT_MAX];
	size_t len;

	root_oid(id, &len);
	ax_init(&b, st, sizeof(st));
	if (type == AX_PDU_OPEN) {
		struct ax_ids ids = session_request_ids(s, type, open_answered);
		ax_open(&b, &ids, 0, id, len, DESCR);
		s->state = S_OPENING;
	} else if (type == AX_PDU_REGISTER) {
		struct ax_ids ids =
		    session_request_ids(s, type, register_answered);
		ax_register(&b, &ids, 127, id, len);
		s->state = S_REGISTERING;
	} else {
		struct ax_ids ids = session_request_ids(s, type, caps_answered);
		ax_add_agent_caps(&b, &ids, id, len, DESCR);
		s->state = S_CAPS;
	}
	session_send(s, &b);
}

/* The connection is there: the Open goes. */
static void axs_connected(struct ax_session *s)
{
	s->in_len = s->out_len = s->out_off = 0;
	send_admin(s, AX_PDU_OPEN);
}

/* An answer that refuses the session's set-up: logged once per outage. */
static void setup_refused(struct ax_session *s, const char *what,
			  uint16_t error, const char *why)
{
	if (!s->outage_logged)
		util_log(LOG_ERR,
			 "AgentX: the master at %s refused %s (error %u%s); "
			 "trying every %u s (logged once)\n",
			 s->address, what, error, why, s->ping_s);
	s->outage_logged = true;
	session_drop(s);
}

static void open_answered(struct ax_session *s, const struct ax_header_in *h,
			  uint16_t error)
{
	if (s->state != S_OPENING)
		return;
	if (error) {
		setup_refused(s, "the Open", error, "");
		return;
	}
	s->id = h->ids.session;
	send_admin(s, AX_PDU_REGISTER);
}

static void register_answered(struct ax_session *s,
			      const struct ax_header_in *h, uint16_t error)
{
	if (s->state != S_REGISTERING)
		return;
	if (error) {
		setup_refused(s, "to register the HW-R10KEVCTR-MIB subtree",
			      error,
			      error == AX_ERR_DUPLICATEREGISTRATION
				  ? ": another subagent has it"
				  : "");
		return;
	}
	send_admin(s, AX_PDU_ADDAGENTCAPS);
}

static void caps_answered(struct ax_session *s, const struct ax_header_in *h,
			  uint16_t error)
{
	if (s->state != S_CAPS)
		return;
	if (error)
		util_log(LOG_NOTICE,
			 "AgentX: the master did not add the module to "
			 "sysORTable (error %u)\n",
			 error);
	s->state = S_UP;
	s->outage_logged = false;
	s->next_ping_ms = session_now(s) + (uint64_t)s->ping_s * 1000u;
	util_log(LOG_INFO,
		 "AgentX subagent connected: the master at %s, session %u\n",
		 s->address, s->id);
	if (s->env.up)
		s->env.up(s->env.ctx);
}

static void ping_answered(struct ax_session *s, const struct ax_header_in *h,
			  uint16_t error)
{
	if (s->state != S_UP || !error)
		return;
	/* the master no longer takes our session (it forgot it: notOpen),
	 * so nothing of ours is registered there */
	util_log(LOG_WARNING,
		 "AgentX: the master at %s answered our Ping with error %u%s; "
		 "opening a new session\n",
		 s->address, error,
		 error == AX_ERR_NOTOPEN ? " (notOpen: it does not know our "
					   "session)"
					 : "");
	session_drop(s);
	s->retry_ms = session_now(s); /* at once */
}

static void notify_answered(struct ax_session *s, const struct ax_header_in *h,
			    uint16_t error)
{
	if (error)
		util_log(LOG_WARNING,
			 "AgentX: the master refused a notification (error "
			 "%u)\n",
			 error);
}

static void send_ping(struct ax_session *s)
{
	unsigned char st[64];
	struct ax_buf b;
	for (size_t i = 0; i < s->npend; i++)
		if (s->pend[i].type == AX_PDU_PING)
			return; /* one at a time */
	struct ax_ids ids = session_request_ids(s, AX_PDU_PING, ping_answered);
	ax_init(&b, st, sizeof(st));
	ax_ping(&b, &ids);
	session_send(s, &b);
}

/* ------------------------------------------------------------ timers */

void session_tick(struct ax_session *s)
{
	uint64_t now = session_now(s);

	if (s->state == S_IDLE) {
		/* (not started, stopped, or an adopted stream that ended:
		 * nothing to connect to) */
		if (!s->adopted && s->address[0] && now >= s->retry_ms &&
		    session_dial(s))
			axs_connected(s);
		return;
	}
	if (s->state == S_RESOLVING) {
		session_resolved(s);
		return;
	}
	const char *late = NULL;
	if (s->state == S_CONNECTING && now >= s->connect_deadline_ms)
		late = "connection";
	for (size_t i = 0; !late && i < s->npend; i++)
		if (now >= s->pend[i].deadline_ms)
			late = ax_pdu_name(s->pend[i].type);
	if (late) {
		if (!s->outage_logged)
			util_log(LOG_WARNING,
				 "AgentX: the master at %s did not answer a %s "
				 "within %d s; connecting again every %u s "
				 "(logged once)\n",
				 s->address, late, AX_SESSION_TIMEOUT_S,
				 s->ping_s);
		s->outage_logged = true;
		session_drop(s);
		return;
	}
	if (s->state == S_UP && now >= s->next_ping_ms) {
		s->next_ping_ms = now + (uint64_t)s->ping_s * 1000u;
		send_ping(s);
	}
}

/* ------------------------------------------------------------ API */

struct ax_session *session_new(const struct ax_session_env *env)
{
	struct ax_session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->env = *env;
	s->fd = -1;
	s->state = S_IDLE;
	s->uptime_ms = session_now(s);
	return s;
}

static void set_up(struct ax_session *s, unsigned ping_s)
{
	s->ping_s = ping_s ? ping_s : 1;
	s->state = S_IDLE;
	s->retry_ms = 0;
	s->outage_logged = false;
}

int session_start(struct ax_session *s, const char *address, unsigned ping_s)
{
	char why[400];
	if (strlen(address) >= sizeof(s->address)) {
		util_log(LOG_ERR, "AgentX: the master's address is too long\n");
		return -1;
	}
	if (config_address_parse(address, &s->addr, why, sizeof(why)) != 0) {
		util_log(LOG_ERR, "AgentX: %s\n", why);
		return -1;
	}
	snprintf(s->address, sizeof(s->address), "%s", address);
	s->adopted = false;
	set_up(s, ping_s);
	if (session_dial(s))
		axs_connected(s);
	return 0;
}

void session_adopt(struct ax_session *s, int fd, unsigned ping_s)
{
	snprintf(s->address, sizeof(s->address), "fd %d", fd);
	s->adopted = true;
	set_up(s, ping_s);
	s->fd = fd;
	axs_connected(s);
}

/*
 * At stop: the Close goes behind what is queued (a PDU half sent must
 * end before it, or the master would read a broken stream), and the
 * queue is flushed for at most AX_SESSION_CLOSE_FLUSH_MS, so that a master
 * that reads gets every answer and the Close, and one that does not
 * cannot hold the stop.
 */
static void send_close(struct ax_session *s)
{
	unsigned char st[64];
	struct ax_buf b;
	struct ax_ids ids = {s->id, 0, ++s->next_packet};

	ax_init(&b, st, sizeof(st));
	ax_close(&b, &ids, AX_CLOSE_SHUTDOWN);
	if (ax_finish(&b) == 0 && session_out_reserve(s, b.len) == 0) {
		memcpy(s->out + s->out_len, b.p, b.len);
		s->out_len += b.len;
	}
	ax_free(&b);
	uint64_t deadline = session_now(s) + AX_SESSION_CLOSE_FLUSH_MS;
	for (;;) {
		session_flush(s);
		uint64_t now = session_now(s);
		if (s->fd < 0 || s->out_off == s->out_len || now >= deadline)
			break;
		struct pollfd pfd = {s->fd, POLLOUT, 0};
		(void)poll(&pfd, 1, (int)(deadline - now));
	}
	if (s->fd >= 0 && s->out_off < s->out_len)
		util_log(LOG_WARNING,
			 "AgentX: stopping with %zu bytes the master did not "
			 "read (its Close among them)\n",
			 s->out_len - s->out_off);
}

void session_stop(struct ax_session *s)
{
	if (s->state == S_UP)
		send_close(s);
	session_close_fd(s);
	s->state = S_IDLE;
	s->address[0] = '\0'; /* no reconnecting until started again */
	free(s->in);
	free(s->out);
	s->in = s->out = NULL;
	s->in_cap = s->out_cap = 0;
	ax_request_free(&s->req);
}

void session_free(struct ax_session *s)
{
	if (!s)
		return;
	session_close_fd(s);
	free(s->in);
	free(s->out);
	ax_request_free(&s->req);
	session_lookup_end(s);
	session_addrs_end(s);
	free(s);
}

int session_fd(const struct ax_session *s, bool *want_write)
{
	*want_write = s->fd >= 0 &&
		      (s->state == S_CONNECTING || s->out_off < s->out_len);
	return s->fd;
}

void session_io(struct ax_session *s, bool readable, bool writable)
{
	if (s->fd < 0)
		return;
	if (s->state == S_CONNECTING) {
		if (writable && session_connect_done(s))
			axs_connected(s);
		return;
	}
	if (writable)
		session_flush(s);
	if (s->fd >= 0 && readable)
		session_readable(s);
}

bool session_is_up(const struct ax_session *s)
{
	return s->state == S_UP;
}

bool session_notify_start(struct ax_session *s, struct ax_buf *b)
{
	if (s->state != S_UP)
		return false;
	struct ax_ids ids = {s->id, 0, ++s->next_packet};
	s->notify_packet = ids.packet; /* remembered when sent */
	ax_notify(b, &ids);
	return true;
}

int session_notify_send(struct ax_session *s, struct ax_buf *b)
{
	if (s->state != S_UP || b->oom || b->len < AX_HEADER_LEN) {
		ax_free(b);
		return -1;
	}
	session_remember(s, s->notify_packet, AX_PDU_NOTIFY, notify_answered);
	return session_send(s, b);
}
