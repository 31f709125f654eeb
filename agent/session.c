/*
 * session.c - the AgentX session to the master (see session.h): the
 * connection, the state through RFC 2741's subagent administration
 * (Open, Register, AddAgentCaps, Pings, Close) and the timers, without
 * ever waiting for the master.  What the master sends is read in
 * session_input.c, what the agent sends is queued in session_output.c;
 * the state they share is session_data.h's.
 *
 * Errors, as RFC 2741 asks:
 *  - a header the stream cannot be framed by (version not 1, a payload
 *    over AX_PAYLOAD_MAX (lib/agentx_pdu.h) or not a multiple of 4): logged, and the
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
#include <poll.h>
#include <signal.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "objects.h"
#include "session_data.h"

struct session_state s = {.fd = -1};

uint64_t session_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

uint32_t session_uptime(void)
{
	return s.uptime_base + (uint32_t)((session_now_ms() - s.uptime_ms) / 10);
}

bool session_is_up(void)
{
	return s.state == S_UP;
}

const char *session_type_name(unsigned type)
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
void session_drop(void)
{
	bool was_up = s.state == S_UP;
	close_fd();
	s.state = S_IDLE;
	s.id = 0;
	s.retry_ms = session_now_ms() + (uint64_t)s.ping_s * 1000u;
	if (was_up && s.ev.down)
		s.ev.down(s.ev.ctx);
}

/* ------------------------------------------------------------ answers */

void session_answered(uint8_t type, const struct ax_header_in *h,
		      uint16_t error)
{
	if (type == AX_PDU_OPEN) {
		if (error) {
			if (!s.outage_logged)
				snmp_log(LOG_ERR,
					 "AgentX: the master at %s refused the "
					 "Open (error %u); trying every %u s "
					 "(logged once)\n",
					 s.address, error, s.ping_s);
			s.outage_logged = true;
			session_drop();
			return;
		}
		s.id = h->ids.session;
		session_send_admin(AX_PDU_REGISTER);
	} else if (type == AX_PDU_REGISTER) {
		if (error) {
			if (!s.outage_logged)
				snmp_log(LOG_ERR,
					 "AgentX: the master at %s refused to "
					 "register the HW-R10KEVCTR-MIB subtree "
					 "(error %u%s); trying every %u s "
					 "(logged once)\n",
					 s.address, error,
					 error == AX_ERR_DUPLICATEREGISTRATION
					     ? ": another subagent has it"
					     : "",
					 s.ping_s);
			s.outage_logged = true;
			session_drop();
			return;
		}
		session_send_admin(AX_PDU_ADDAGENTCAPS);
	} else if (type == AX_PDU_ADDAGENTCAPS) {
		if (error)
			snmp_log(LOG_NOTICE,
				 "AgentX: the master did not add the module "
				 "to sysORTable (error %u)\n",
				 error);
		s.state = S_UP;
		s.outage_logged = false;
		s.next_ping_ms = session_now_ms() + (uint64_t)s.ping_s * 1000u;
		snmp_log(LOG_INFO,
			 "AgentX subagent connected: the master at %s, "
			 "session %u\n",
			 s.address, s.id);
		if (s.ev.up)
			s.ev.up(s.ev.ctx);
	} else if (type == AX_PDU_PING && error) {
		/* the master no longer takes our session (it forgot it:
		 * notOpen), so nothing of ours is registered there */
		snmp_log(LOG_WARNING,
			 "AgentX: the master at %s answered our Ping with "
			 "error %u%s; opening a new session\n",
			 s.address, error,
			 error == AX_ERR_NOTOPEN ? " (notOpen: it does not know "
						   "our session)"
						 : "");
		session_drop();
		s.retry_ms = session_now_ms(); /* at once */
	} else if (type == AX_PDU_NOTIFY && error) {
		snmp_log(LOG_WARNING,
			 "AgentX: the master refused a notification (error "
			 "%u)\n",
			 error);
	}
}

/* ------------------------------------------------------------ connecting */

/* A unix socket connected to the address; -1 with errno (the reason). */
static int dial_unix(void)
{
	const char *path = s.addr.path;
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* A TCP socket connecting (non-blocking) to ai; -1 with errno. */
static int dial_tcp(const struct addrinfo *ai)
{
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);
	if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 &&
	    errno != EINPROGRESS) {
		int e = errno;
		close(fd);
		fd = -1;
		errno = e;
	}
	return fd;
}

static void connected(void)
{
	s.in_len = s.out_len = s.out_off = 0;
	session_send_admin(AX_PDU_OPEN);
}

/* No connection (errno err): said once per outage, tried again after
 * agentxPingInterval. */
static void connect_failed(int err)
{
	if (!s.outage_logged)
		snmp_log(LOG_WARNING,
			 "AgentX: cannot connect to the master at %s: %s; "
			 "trying every %u s (logged once)\n",
			 s.address, strerror(err), s.ping_s);
	s.outage_logged = true;
	s.retry_ms = session_now_ms() + (uint64_t)s.ping_s * 1000u;
}

/* The lookup of the master's host failed (EAI_*): said once per outage
 * with the resolver's own reason, tried again after agentxPingInterval. */
static void resolve_failed(int rc, int err)
{
	if (!s.outage_logged)
		snmp_log(LOG_WARNING,
			 "AgentX: cannot resolve the master's host '%s' (%s): "
			 "%s; trying every %u s (logged once)\n",
			 s.addr.host, s.address,
			 rc == EAI_SYSTEM ? strerror(err) : gai_strerror(rc),
			 s.ping_s);
	s.outage_logged = true;
	s.state = S_IDLE;
	s.retry_ms = session_now_ms() + (uint64_t)s.ping_s * 1000u;
}

/* Connect to the first of the looked-up addresses that does not refuse
 * at once (localhost: ::1, then 127.0.0.1): S_CONNECTING until
 * writable. */
static void connect_to(struct addrinfo *res)
{
	int e = EHOSTUNREACH;
	s.fd = -1;
	for (const struct addrinfo *ai = res; ai && s.fd < 0; ai = ai->ai_next)
		if ((s.fd = dial_tcp(ai)) < 0)
			e = errno;
	freeaddrinfo(res);
	if (s.fd < 0) {
		s.state = S_IDLE;
		connect_failed(e);
		return;
	}
	s.state = S_CONNECTING; /* until writable */
	s.connect_deadline_ms = session_now_ms() + SESSION_TIMEOUT_S * 1000u;
}

/*
 * tcp: a numeric host is converted at once (no resolver is asked); a
 * name is looked up with getaddrinfo_a() in the background, and the
 * session's timer picks the answer up (resolved()): a resolver that does
 * not answer never stalls the main loop, the polls or the watchdog.
 */
static void start_tcp(void)
{
	if (gai_error(&s.gai) == EAI_INPROGRESS) {
		s.state = S_RESOLVING; /* an earlier lookup: wait for it */
		return;
	}
	s.gai_hints = (struct addrinfo){.ai_socktype = SOCK_STREAM,
					.ai_flags = AI_NUMERICSERV |
						    AI_NUMERICHOST};
	struct addrinfo *res = NULL;
	if (getaddrinfo(s.addr.host, s.addr.port, &s.gai_hints, &res) == 0) {
		connect_to(res);
		return;
	}
	s.gai_hints.ai_flags = AI_NUMERICSERV;
	s.gai = (struct gaicb){.ar_name = s.addr.host,
			       .ar_service = s.addr.port,
			       .ar_request = &s.gai_hints};
	snprintf(s.gai_for, sizeof(s.gai_for), "%s", s.address);
	struct gaicb *list[1] = {&s.gai};
	struct sigevent none = {.sigev_notify = SIGEV_NONE};
	int rc = getaddrinfo_a(GAI_NOWAIT, list, 1, &none);
	if (rc != 0) {
		resolve_failed(rc, errno);
		return;
	}
	s.state = S_RESOLVING;
}

/* S_RESOLVING, from the timer: the lookup's answer, if it came. */
static void resolved(void)
{
	int rc = gai_error(&s.gai);
	if (rc == EAI_INPROGRESS)
		return;
	struct addrinfo *res = s.gai.ar_result;
	s.gai.ar_result = NULL;
	if (strcmp(s.gai_for, s.address) != 0) { /* for an older address */
		if (res)
			freeaddrinfo(res);
		start_tcp();
		return;
	}
	if (rc != 0 || !res) {
		if (res)
			freeaddrinfo(res);
		resolve_failed(rc ? rc : EAI_NONAME, errno);
		return;
	}
	connect_to(res);
}

static void try_connect(void)
{
	if (s.addr.kind == AX_ADDR_TCP) {
		start_tcp();
		return;
	}
	s.fd = dial_unix();
	if (s.fd < 0) {
		connect_failed(errno);
		return;
	}
	connected();
}

/* ------------------------------------------------------------ timers */

static void tick(unsigned int reg, void *arg)
{
	uint64_t now = session_now_ms();

	if (s.state == S_IDLE) {
		if (now >= s.retry_ms)
			try_connect();
		return;
	}
	if (s.state == S_RESOLVING) {
		resolved();
		return;
	}
	const char *late = NULL;
	if (s.state == S_CONNECTING && now >= s.connect_deadline_ms)
		late = "connection";
	for (size_t i = 0; !late && i < s.npend; i++)
		if (now >= s.pend[i].deadline_ms)
			late = session_type_name(s.pend[i].type);
	if (late) {
		if (!s.outage_logged)
			snmp_log(LOG_WARNING,
				 "AgentX: the master at %s did not answer a %s "
				 "within %d s; connecting again every %u s "
				 "(logged once)\n",
				 s.address, late, SESSION_TIMEOUT_S, s.ping_s);
		s.outage_logged = true;
		session_drop();
		return;
	}
	if (s.state == S_UP && now >= s.next_ping_ms) {
		s.next_ping_ms = now + (uint64_t)s.ping_s * 1000u;
		session_send_ping();
	}
}

/* ------------------------------------------------------------ API */

int session_start(const char *address, unsigned ping_s,
		  const struct mib_view *view, const struct session_events *ev)
{
	char why[400];
	if (strlen(address) >= sizeof(s.address) ||
	    ax_address_parse(address, &s.addr, why, sizeof(why)) != 0) {
		snmp_log(LOG_ERR, "AgentX: %s\n",
			 strlen(address) >= sizeof(s.address)
			     ? "the master's address is too long"
			     : why);
		return -1;
	}
	snprintf(s.address, sizeof(s.address), "%s", address);
	s.ping_s = ping_s ? ping_s : 1;
	s.view = view;
	if (ev)
		s.ev = *ev;
	s.uptime_ms = session_now_ms();
	s.uptime_base = 0;
	s.state = S_IDLE;
	s.retry_ms = 0;
	s.timer = snmp_alarm_register(1, SA_REPEAT, tick, NULL);
	try_connect();
	return 0;
}

/*
 * At stop: the Close goes behind what is queued (a PDU half sent must
 * end before it, or the master would read a broken stream), and the
 * queue is flushed for at most SESSION_CLOSE_FLUSH_MS, so that a master
 * that reads gets every answer and the Close, and one that does not
 * cannot hold the stop.
 */
static void send_close(void)
{
	unsigned char st[64];
	struct ax_buf b;
	struct ax_ids ids = {s.id, 0, ++s.next_packet};

	ax_init(&b, st, sizeof(st));
	ax_close(&b, &ids, AX_CLOSE_SHUTDOWN);
	if (ax_finish(&b) == 0 && session_out_reserve(b.len) == 0) {
		memcpy(s.out + s.out_len, b.p, b.len);
		s.out_len += b.len;
	}
	ax_free(&b);
	uint64_t deadline = session_now_ms() + SESSION_CLOSE_FLUSH_MS;
	for (;;) {
		session_flush();
		uint64_t now = session_now_ms();
		if (s.fd < 0 || s.out_off == s.out_len || now >= deadline)
			break;
		struct pollfd pfd = {s.fd, POLLOUT, 0};
		(void)poll(&pfd, 1, (int)(deadline - now));
	}
	if (s.fd >= 0 && s.out_off < s.out_len)
		snmp_log(LOG_WARNING,
			 "AgentX: stopping with %zu bytes the master did not "
			 "read (its Close among them)\n",
			 s.out_len - s.out_off);
}

void session_stop(void)
{
	if (s.state == S_UP)
		send_close();
	/* a lookup still running keeps its buffers (they are static); its
	 * answer, if any, is freed */
	if (gai_error(&s.gai) == EAI_INPROGRESS)
		(void)gai_cancel(&s.gai);
	if (gai_error(&s.gai) != EAI_INPROGRESS && s.gai.ar_result) {
		freeaddrinfo(s.gai.ar_result);
		s.gai.ar_result = NULL;
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
		if (err) {
			close(s.fd);
			s.fd = -1;
			s.state = S_IDLE;
			connect_failed(err);
			return;
		}
		connected();
		return;
	}
	if (FD_ISSET(s.fd, w))
		session_flush();
	if (s.fd >= 0 && FD_ISSET(s.fd, r))
		session_readable();
}
