/*
 * ax_session_dial.c - connecting the session to its master: a unix
 * socket at once; tcp to a numeric host at once, to a name after a
 * lookup with glibc's getaddrinfo_a() in the background (the session's
 * tick picks the answer up), so a resolver that does not answer never
 * stalls the caller's loop; every address of the answer tried in turn
 * until one connects.
 */
#include "session/ax_session_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/log.h"

/* A lookup glibc's worker may still write after its session was freed:
 * kept here, reachable, for the life of the process. */
static struct axs_lookup *parked;

void session_connect_failed(struct ax_session *s, int err)
{
	if (!s->outage_logged)
		util_log(LOG_WARNING,
			 "AgentX: cannot connect to the master at %s: %s; "
			 "trying every %u s (logged once)\n",
			 s->address, strerror(err), s->ping_s);
	s->outage_logged = true;
	s->state = S_IDLE;
	s->retry_ms = session_now(s) + (uint64_t)s->ping_s * 1000u;
}

/* The lookup of the master's host failed (EAI_*): said once per outage
 * with the resolver's own reason, tried again after ping_s. */
static void resolve_failed(struct ax_session *s, int rc, int err)
{
	if (!s->outage_logged)
		util_log(LOG_WARNING,
			 "AgentX: cannot resolve the master's host '%s' (%s): "
			 "%s; trying every %u s (logged once)\n",
			 s->addr.host, s->address,
			 rc == EAI_SYSTEM ? strerror(err) : gai_strerror(rc),
			 s->ping_s);
	s->outage_logged = true;
	s->state = S_IDLE;
	s->retry_ms = session_now(s) + (uint64_t)s->ping_s * 1000u;
}

/* A unix socket connected to the address; -1 with errno (the reason). */
static int dial_unix(const char *path)
{
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

void session_addrs_end(struct ax_session *s)
{
	if (s->addrs)
		freeaddrinfo(s->addrs);
	s->addrs = NULL;
	s->next_addr = NULL;
}

/* Connect to the next of the looked-up addresses that does not refuse at
 * once: S_CONNECTING until writable.  None left: the outage, err (or the
 * last address's) its reason. */
static void dial_next(struct ax_session *s, int err)
{
	s->fd = -1;
	while (s->next_addr && s->fd < 0) {
		const struct addrinfo *ai = s->next_addr;
		s->next_addr = ai->ai_next;
		if ((s->fd = dial_tcp(ai)) < 0)
			err = errno;
	}
	if (s->fd < 0) {
		session_addrs_end(s);
		session_connect_failed(s, err);
		return;
	}
	s->state = S_CONNECTING; /* until writable */
	s->connect_deadline_ms = session_now(s) + AX_SESSION_TIMEOUT_S * 1000u;
}

/* Every address of the answer in turn (localhost: ::1, then 127.0.0.1):
 * a refusal at once or later (a non-blocking connect may report it when
 * writable) moves on to the next; res is the session's until then. */
static void connect_to(struct ax_session *s, struct addrinfo *res)
{
	session_addrs_end(s);
	s->addrs = res;
	s->next_addr = res;
	dial_next(s, EHOSTUNREACH);
}

/* tcp: a numeric host at once (no resolver is asked); a name in the
 * background. */
static void start_tcp(struct ax_session *s)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_NUMERICSERV | AI_NUMERICHOST};
	struct addrinfo *res = NULL;
	if (getaddrinfo(s->addr.host, s->addr.port, &hints, &res) == 0) {
		connect_to(s, res);
		return;
	}
	if (!s->lookup && !(s->lookup = calloc(1, sizeof(*s->lookup)))) {
		resolve_failed(s, EAI_MEMORY, 0);
		return;
	}
	struct axs_lookup *l = s->lookup;
	if (gai_error(&l->gai) == EAI_INPROGRESS) {
		s->state = S_RESOLVING; /* an earlier lookup: wait for it */
		return;
	}
	snprintf(l->name, sizeof(l->name), "%s", s->addr.host);
	snprintf(l->port, sizeof(l->port), "%s", s->addr.port);
	snprintf(l->for_address, sizeof(l->for_address), "%s", s->address);
	l->hints = (struct addrinfo){.ai_socktype = SOCK_STREAM,
				     .ai_flags = AI_NUMERICSERV};
	l->gai = (struct gaicb){.ar_name = l->name,
				.ar_service = l->port,
				.ar_request = &l->hints};
	struct gaicb *list[1] = {&l->gai};
	struct sigevent none = {.sigev_notify = SIGEV_NONE};
	int rc = getaddrinfo_a(GAI_NOWAIT, list, 1, &none);
	if (rc != 0) {
		resolve_failed(s, rc, errno);
		return;
	}
	s->state = S_RESOLVING;
}

void session_resolved(struct ax_session *s)
{
	struct axs_lookup *l = s->lookup;
	int rc = gai_error(&l->gai);
	if (rc == EAI_INPROGRESS)
		return;
	struct addrinfo *res = l->gai.ar_result;
	l->gai.ar_result = NULL;
	if (strcmp(l->for_address, s->address) != 0) { /* an older address */
		if (res)
			freeaddrinfo(res);
		start_tcp(s);
		return;
	}
	if (rc != 0 || !res) {
		if (res)
			freeaddrinfo(res);
		resolve_failed(s, rc ? rc : EAI_NONAME, errno);
		return;
	}
	connect_to(s, res);
}

bool session_dial(struct ax_session *s)
{
	if (s->addr.kind == AX_ADDR_TCP) {
		start_tcp(s);
		return false;
	}
	s->fd = dial_unix(s->addr.path);
	if (s->fd < 0) {
		session_connect_failed(s, errno);
		return false;
	}
	return true;
}

bool session_connect_done(struct ax_session *s)
{
	int err = 0;
	socklen_t len = sizeof(err);
	getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len);
	if (err) {
		close(s->fd);
		dial_next(s, err); /* the answer's next address, if any */
		return false;
	}
	session_addrs_end(s);
	return true;
}

void session_lookup_end(struct ax_session *s)
{
	struct axs_lookup *l = s->lookup;
	if (!l)
		return;
	s->lookup = NULL;
	if (gai_error(&l->gai) == EAI_INPROGRESS &&
	    gai_cancel(&l->gai) != EAI_CANCELED) {
		/* the worker may still write it: keep it (one at a time;
		 * an older one parked is done by now or never will be) */
		parked = l;
		return;
	}
	if (l->gai.ar_result)
		freeaddrinfo(l->gai.ar_result);
	free(l);
}
