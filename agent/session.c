/*
 * session.c - the AgentX session to the master (see session.h): the
 * connection, RFC 2741's subagent administration (Open, Register,
 * AddAgentCaps, Ping, Close), the framing of what the master sends and
 * the answers to its requests, without ever waiting for it.
 *
 * Errors, as RFC 2741 asks:
 *  - a header the stream cannot be framed by (version not 1, a payload
 *    over SESSION_PAYLOAD_MAX or not a multiple of 4): logged, and the
 *    session dropped at once (there is no next PDU to find);
 *  - a request whose payload does not parse: a Response with parseError,
 *    logged with its packet ID; the session goes on;
 *  - a request for another session: a Response with notOpen, logged;
 *  - a Close from the master: logged, and the agent connects again;
 *  - no answer to one of our requests within SESSION_TIMEOUT_S (a hung
 *    or stopped master): logged once, and the agent connects again every
 *    agentxPingInterval, polling on meanwhile.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agentx_decode.h"
#include "agentx_read.h"
#include "objects.h"
#include "session.h"

#define DESCR "HW-R10KEVCTR-MIB: CPU hardware event counters (hw-r10kevctr)"
#define PENDING_MAX 64 /* our requests in flight: admin, pings, notifies */
#define RETRY_LOGGED 1 /* "cannot connect" logged once per outage */

enum state {
	S_IDLE,	      /* not connected; try again at retry_ms */
	S_CONNECTING, /* connect() in progress (tcp) */
	S_OPENING,    /* Open sent */
	S_REGISTERING,
	S_CAPS, /* AddAgentCaps sent */
	S_UP,
};

struct pending {
	uint32_t packet;
	uint8_t type;
	uint64_t deadline_ms;
};

static struct {
	const struct mib_view *view;
	struct session_events ev;
	char address[256];
	unsigned ping_s;
	enum state state;
	int fd;
	uint32_t id, next_packet;
	uint64_t retry_ms, next_ping_ms;
	bool outage_logged; /* "cannot connect" said for this outage */
	unsigned timer;	    /* snmp_alarm: deadlines and pings */
	/* sysUpTime: base at base_ms (the master's, or ours from start) */
	uint32_t uptime_base;
	uint64_t uptime_ms, start_ms;
	unsigned char *in;
	size_t in_len, in_cap;
	unsigned char *out;
	size_t out_len, out_off, out_cap;
	struct pending pend[PENDING_MAX];
	size_t npend;
	struct ax_request req; /* reused: no allocation per request */
} s = {.fd = -1};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

uint32_t session_uptime(void)
{
	return s.uptime_base + (uint32_t)((now_ms() - s.uptime_ms) / 10);
}

bool session_is_up(void)
{
	return s.state == S_UP;
}

static const char *type_name(unsigned type)
{
	static const char *const names[] = {
	    "?",	 "Open",	"Close",      "Register",
	    "Unregister", "Get",	 "GetNext",    "GetBulk",
	    "TestSet",	 "CommitSet",	"UndoSet",    "CleanupSet",
	    "Notify",	 "Ping",	"IndexAllocate", "IndexDeallocate",
	    "AddAgentCaps", "RemoveAgentCaps", "Response"};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

/* ------------------------------------------------------------ closing */

static void close_fd(void)
{
	if (s.fd >= 0)
		close(s.fd);
	s.fd = -1;
	s.in_len = s.out_len = s.out_off = 0;
	s.npend = 0;
}

/* The session ends (why is logged by the caller); connect again after
 * agentxPingInterval. */
static void drop(void)
{
	bool was_up = s.state == S_UP;
	close_fd();
	s.state = S_IDLE;
	s.id = 0;
	s.retry_ms = now_ms() + (uint64_t)s.ping_s * 1000u;
	if (was_up && s.ev.down)
		s.ev.down(s.ev.ctx);
}

/* ------------------------------------------------------------ output */

static void flush(void);

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
		drop();
		return -1;
	}
	if (s.out_off > 0 && s.out_off == s.out_len)
		s.out_off = s.out_len = 0;
	if (s.out_cap - s.out_len < b->len) {
		size_t cap = s.out_cap ? s.out_cap : 16384;
		while (cap - s.out_len < b->len)
			cap *= 2;
		unsigned char *p = realloc(s.out, cap);
		if (!p) {
			snmp_log(LOG_ERR, "AgentX: out of memory; dropping "
					  "the session\n");
			drop();
			return -1;
		}
		s.out = p;
		s.out_cap = cap;
	}
	memcpy(s.out + s.out_len, b->p, b->len);
	s.out_len += b->len;
	flush();
	return 0;
}

static void flush(void)
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
		drop();
		return;
	}
	if (s.fd >= 0 && s.out_off == s.out_len)
		s.out_off = s.out_len = 0;
}

/* Wait for the Response to our request with this packet ID. */
static void remember(uint32_t packet, uint8_t type)
{
	if (s.npend == PENDING_MAX) { /* the oldest cannot be answered now */
		memmove(s.pend, s.pend + 1, (PENDING_MAX - 1) * sizeof(*s.pend));
		s.npend--;
	}
	s.pend[s.npend++] = (struct pending){
	    packet, type, now_ms() + SESSION_TIMEOUT_S * 1000u};
}

/* One of our requests: its IDs, remembered until its Response. */
static struct ax_ids request_ids(uint8_t type)
{
	struct ax_ids ids = {s.id, 0, ++s.next_packet};
	remember(ids.packet, type);
	return ids;
}

static int send_pdu(struct ax_buf *b)
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

static void send_open(void)
{
	unsigned char st[256];
	struct ax_buf b;
	unsigned long id[MIB_ROOT_MAX];
	size_t len;
	struct ax_ids ids = request_ids(AX_PDU_OPEN);

	root_oid(id, &len);
	ax_init(&b, st, sizeof(st));
	ax_open(&b, &ids, 0, id, len, DESCR);
	s.state = S_OPENING;
	send_pdu(&b);
}

static void send_register(void)
{
	unsigned char st[128];
	struct ax_buf b;
	unsigned long id[MIB_ROOT_MAX];
	size_t len;
	struct ax_ids ids = request_ids(AX_PDU_REGISTER);

	root_oid(id, &len);
	ax_init(&b, st, sizeof(st));
	ax_register(&b, &ids, 127, id, len);
	s.state = S_REGISTERING;
	send_pdu(&b);
}

static void send_caps(void)
{
	unsigned char st[256];
	struct ax_buf b;
	unsigned long id[MIB_ROOT_MAX];
	size_t len;
	struct ax_ids ids = request_ids(AX_PDU_ADDAGENTCAPS);

	root_oid(id, &len);
	ax_init(&b, st, sizeof(st));
	ax_add_agent_caps(&b, &ids, id, len, DESCR);
	s.state = S_CAPS;
	send_pdu(&b);
}

static void send_ping(void)
{
	unsigned char st[64];
	struct ax_buf b;
	for (size_t i = 0; i < s.npend; i++)
		if (s.pend[i].type == AX_PDU_PING)
			return; /* one at a time */
	struct ax_ids ids = request_ids(AX_PDU_PING);
	ax_init(&b, st, sizeof(st));
	ax_ping(&b, &ids);
	send_pdu(&b);
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
	return send_pdu(b);
}

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
	s.uptime_ms = now_ms();
	if (type == AX_PDU_OPEN) {
		if (r.error) {
			snmp_log(LOG_ERR,
				 "AgentX: the master at %s refused the Open "
				 "(error %u); connecting again\n",
				 s.address, r.error);
			drop();
			return;
		}
		s.id = h->ids.session;
		send_register();
	} else if (type == AX_PDU_REGISTER) {
		if (r.error) {
			snmp_log(LOG_ERR,
				 "AgentX: the master at %s refused to register "
				 "the HW-R10KEVCTR-MIB subtree (error %u%s); "
				 "connecting again\n",
				 s.address, r.error,
				 r.error == AX_ERR_DUPLICATEREGISTRATION
				     ? ": another subagent has it"
				     : "");
			drop();
			return;
		}
		send_caps();
	} else if (type == AX_PDU_ADDAGENTCAPS) {
		if (r.error)
			snmp_log(LOG_NOTICE,
				 "AgentX: the master did not add the module "
				 "to sysORTable (error %u)\n",
				 r.error);
		s.state = S_UP;
		s.outage_logged = false;
		s.next_ping_ms = now_ms() + (uint64_t)s.ping_s * 1000u;
		snmp_log(LOG_INFO,
			 "AgentX subagent connected: the master at %s, "
			 "session %u\n",
			 s.address, s.id);
		if (s.ev.up)
			s.ev.up(s.ev.ctx);
	} else if (type == AX_PDU_NOTIFY && r.error) {
		snmp_log(LOG_WARNING,
			 "AgentX: the master refused a notification (error "
			 "%u)\n",
			 r.error);
	}
}

static bool is_request(uint8_t type)
{
	return type >= AX_PDU_GET && type <= AX_PDU_CLEANUPSET;
}

/* Answer a request of the master's. */
static void on_request(const struct ax_header_in *h, const unsigned char *p)
{
	unsigned char st[2048];
	struct ax_buf b;
	char why[160];

	ax_init(&b, st, sizeof(st));
	if (h->ids.session != s.id || s.state == S_IDLE) {
		snmp_log(LOG_WARNING,
			 "AgentX: a %s for session %u (ours is %u), packet "
			 "ID %u: answered notOpen\n",
			 type_name(h->type), h->ids.session, s.id,
			 h->ids.packet);
		ax_response(&b, &h->ids, session_uptime(), AX_ERR_NOTOPEN, 0);
	} else if (ax_parse_request(h, p, &s.req, why, sizeof(why)) != 0) {
		snmp_log(LOG_WARNING,
			 "AgentX: a %s from the master (packet ID %u, %u "
			 "bytes of payload) does not parse: %s; answered "
			 "parseError\n",
			 type_name(h->type), h->ids.packet, h->length, why);
		ax_response(&b, &h->ids, session_uptime(), AX_ERR_PARSEERROR,
			    0);
	} else if (!ax_answer(s.view, &s.req, session_uptime(), &b)) {
		return; /* CleanupSet: no Response */
	}
	DEBUGMSGTL(("hwr10k/session", "%s, packet %u\n", type_name(h->type),
		    h->ids.packet));
	if (h->type == AX_PDU_CLEANUPSET) {
		ax_free(&b);
		return;
	}
	s.next_ping_ms = now_ms() + (uint64_t)s.ping_s * 1000u; /* alive */
	send_pdu(&b);
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
		drop();
		s.retry_ms = now_ms(); /* at once */
		return false;
	} else {
		snmp_log(LOG_WARNING,
			 "AgentX: a %s PDU (type %u) from the master, which a "
			 "master does not send; ignored\n",
			 type_name(h->type), h->type);
	}
	return s.fd >= 0;
}

/* Frame and handle the PDUs in the input buffer. */
static void frame(void)
{
	size_t at = 0;

	while (s.fd >= 0 && s.in_len - at >= AX_HEADER_LEN) {
		struct ax_header_in h;
		ax_parse_header(s.in + at, &h);
		if (h.version != AX_VERSION || h.length > SESSION_PAYLOAD_MAX ||
		    h.length % 4) {
			snmp_log(LOG_ERR,
				 "AgentX: the master sent a %s PDU header "
				 "(packet ID %u) of version %u announcing %lu "
				 "bytes of payload: the stream cannot be "
				 "framed (version 1, at most %u bytes, a "
				 "multiple of 4); resetting the session\n",
				 type_name(h.type), h.ids.packet, h.version,
				 (unsigned long)h.length,
				 (unsigned)SESSION_PAYLOAD_MAX);
			drop();
			return;
		}
		if (s.in_len - at - AX_HEADER_LEN < h.length)
			break; /* the rest is still coming */
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

static void readable(void)
{
	for (;;) {
		if (s.in_cap - s.in_len < 4096) {
			size_t cap = s.in_cap ? s.in_cap * 2 : 65536;
			if (cap > SESSION_PAYLOAD_MAX * 2 + AX_HEADER_LEN * 2)
				cap = SESSION_PAYLOAD_MAX * 2 +
				      AX_HEADER_LEN * 2;
			unsigned char *p =
			    cap > s.in_cap ? realloc(s.in, cap) : s.in;
			if (!p || cap - s.in_len == 0) {
				snmp_log(LOG_ERR, "AgentX: out of memory; "
						  "dropping the session\n");
				drop();
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
			drop();
			return;
		}
		s.in_len += (size_t)n;
		frame();
		if (s.fd < 0 || (size_t)n < 4096)
			return;
	}
}

/* ------------------------------------------------------------ connecting */

/* A socket connecting to the address; -1 with errno (the reason). */
static int dial(void)
{
	const char *a = s.address;
	if (strncmp(a, "unix:", 5) == 0 || a[0] == '/') {
		const char *path = a[0] == '/' ? a : a + 5;
		struct sockaddr_un sun = {.sun_family = AF_UNIX};
		if (strlen(path) >= sizeof(sun.sun_path)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		strcpy(sun.sun_path, path);
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
				0);
		if (fd >= 0 &&
		    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		return fd;
	}
	/* tcp:HOST:PORT (or tcp6:[HOST]:PORT) */
	char host[200], port[16];
	const char *rest = strchr(a, ':') + 1;
	const char *colon = strrchr(rest, ':');
	size_t hl = colon ? (size_t)(colon - rest) : 0;
	if (!colon || hl == 0 || hl >= sizeof(host) ||
	    strlen(colon + 1) >= sizeof(port)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(host, rest, hl);
	host[hl] = '\0';
	if (host[0] == '[' && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = '\0';
	}
	snprintf(port, sizeof(port), "%s", colon + 1);
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_NUMERICSERV},
			*res = NULL;
	int gai = getaddrinfo(host, port, &hints, &res);
	if (gai != 0) {
		errno = EHOSTUNREACH;
		return -1;
	}
	int fd = socket(res->ai_family,
			SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) != 0 &&
	    errno != EINPROGRESS) {
		int e = errno;
		close(fd);
		fd = -1;
		errno = e;
	}
	freeaddrinfo(res);
	return fd;
}

static void connected(void)
{
	s.in_len = s.out_len = s.out_off = 0;
	send_open();
}

static void try_connect(void)
{
	s.fd = dial();
	if (s.fd < 0) {
		if (!s.outage_logged)
			snmp_log(LOG_WARNING,
				 "AgentX: cannot connect to the master at %s: "
				 "%s; trying every %u s (logged once)\n",
				 s.address, strerror(errno), s.ping_s);
		s.outage_logged = true;
		s.retry_ms = now_ms() + (uint64_t)s.ping_s * 1000u;
		return;
	}
	if (strncmp(s.address, "tcp", 3) == 0) {
		s.state = S_CONNECTING; /* until writable */
		s.pend[0] = (struct pending){0, 0,
					     now_ms() + SESSION_TIMEOUT_S * 1000u};
		s.npend = 1;
		return;
	}
	connected();
}

/* ------------------------------------------------------------ timers */

static void tick(unsigned int reg, void *arg)
{
	uint64_t now = now_ms();

	if (s.state == S_IDLE) {
		if (now >= s.retry_ms)
			try_connect();
		return;
	}
	for (size_t i = 0; i < s.npend; i++)
		if (now >= s.pend[i].deadline_ms) {
			if (!s.outage_logged)
				snmp_log(LOG_WARNING,
					 "AgentX: the master at %s did not "
					 "answer a %s within %d s; connecting "
					 "again every %u s (logged once)\n",
					 s.address,
					 s.state == S_CONNECTING
					     ? "connection"
					     : type_name(s.pend[i].type),
					 SESSION_TIMEOUT_S, s.ping_s);
			s.outage_logged = true;
			drop();
			return;
		}
	if (s.state == S_UP && now >= s.next_ping_ms) {
		s.next_ping_ms = now + (uint64_t)s.ping_s * 1000u;
		send_ping();
	}
}

/* ------------------------------------------------------------ API */

int session_start(const char *address, unsigned ping_s,
		  const struct mib_view *view, const struct session_events *ev)
{
	if (strncmp(address, "unix:", 5) != 0 && address[0] != '/' &&
	    strncmp(address, "tcp:", 4) != 0 &&
	    strncmp(address, "tcp6:", 5) != 0) {
		snmp_log(LOG_ERR,
			 "AgentX: address '%s': expected unix:PATH, PATH or "
			 "tcp:HOST:PORT\n",
			 address);
		return -1;
	}
	snprintf(s.address, sizeof(s.address), "%s", address);
	s.ping_s = ping_s ? ping_s : 1;
	s.view = view;
	if (ev)
		s.ev = *ev;
	s.start_ms = s.uptime_ms = now_ms();
	s.uptime_base = 0;
	s.state = S_IDLE;
	s.retry_ms = 0;
	s.timer = snmp_alarm_register(1, SA_REPEAT, tick, NULL);
	try_connect();
	return 0;
}

void session_stop(void)
{
	if (s.state == S_UP) {
		unsigned char st[64];
		struct ax_buf b;
		struct ax_ids ids = {s.id, 0, ++s.next_packet};
		ax_init(&b, st, sizeof(st));
		ax_close(&b, &ids, AX_CLOSE_SHUTDOWN);
		if (ax_finish(&b) == 0)
			(void)!send(s.fd, b.p, b.len, MSG_NOSIGNAL | MSG_DONTWAIT);
		ax_free(&b);
	}
	if (s.timer)
		snmp_alarm_unregister(s.timer);
	s.timer = 0;
	close_fd();
	s.state = S_IDLE;
	free(s.in);
	free(s.out);
	s.in = s.out = NULL;
	s.in_cap = s.out_cap = 0;
	ax_request_free(&s.req);
}

void session_fds(int *nfds, fd_set *r, fd_set *w)
{
	if (s.fd < 0)
		return;
	FD_SET(s.fd, r);
	if (s.state == S_CONNECTING || s.out_off < s.out_len)
		FD_SET(s.fd, w);
	if (s.fd + 1 > *nfds)
		*nfds = s.fd + 1;
}

void session_io(const fd_set *r, const fd_set *w)
{
	if (s.fd < 0)
		return;
	if (s.state == S_CONNECTING && FD_ISSET(s.fd, w)) {
		int err = 0;
		socklen_t len = sizeof(err);
		getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
		s.npend = 0;
		if (err) {
			close(s.fd);
			s.fd = -1;
			s.state = S_IDLE;
			errno = err;
			if (!s.outage_logged)
				snmp_log(LOG_WARNING,
					 "AgentX: cannot connect to the master "
					 "at %s: %s; trying every %u s (logged "
					 "once)\n",
					 s.address, strerror(err), s.ping_s);
			s.outage_logged = true;
			s.retry_ms = now_ms() + (uint64_t)s.ping_s * 1000u;
			return;
		}
		connected();
		return;
	}
	if (FD_ISSET(s.fd, w))
		flush();
	if (s.fd >= 0 && FD_ISSET(s.fd, r))
		readable();
}
