/*
 * session.c - the glue between lib/session/ax_session.c's handle and the agent:
 * net-snmp's clock-free services (an alarm ticks it every second, the
 * debug token hwr10k/session traces it, lib/util/log.h carries its log into
 * snmp_log) and the main loop's select().  The session itself, its
 * states and its answers, are the handle's.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <time.h>

#include "session/ax_session.h"
#include "session.h"

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void trace(const char *msg)
{
	DEBUGMSGTL(("hwr10k/session", "%s\n", msg));
}

static void tick(unsigned int reg, void *arg)
{
	struct session *s = arg;

	(void)reg;
	if (s->sess)
		session_tick(s->sess);
}

int agent_session_start(struct session *s, const char *address, unsigned ping_s,
			const struct mib_view *view,
			const struct session_events *ev)
{
	const struct ax_session_env env = {
	    .now_ms = now_ms,
	    .debug = trace,
	    .up = ev ? ev->up : NULL,
	    .down = ev ? ev->down : NULL,
	    .ctx = ev ? ev->ctx : NULL,
	    .view = view,
	    .writer = ev ? ev->writer : NULL,
	};
	agent_session_stop(s);
	if (!(s->sess = session_new(&env))) {
		snmp_log(LOG_ERR, "AgentX: out of memory\n");
		return -1;
	}
	if (session_start(s->sess, address, ping_s) != 0) {
		session_free(s->sess);
		s->sess = NULL;
		return -1;
	}
	s->timer = snmp_alarm_register(1, SA_REPEAT, tick, s);
	return 0;
}

void agent_session_stop(struct session *s)
{
	if (!s->sess)
		return;
	session_stop(s->sess);
	session_free(s->sess);
	s->sess = NULL;
	if (s->timer)
		snmp_alarm_unregister(s->timer);
	s->timer = 0;
}

void agent_session_fds(const struct session *s, int *nfds, fd_set *r, fd_set *w)
{
	bool want_write;
	int fd = s->sess ? session_fd(s->sess, &want_write) : -1;
	if (fd < 0)
		return;
	FD_SET(fd, r);
	if (want_write)
		FD_SET(fd, w);
	if (fd + 1 > *nfds)
		*nfds = fd + 1;
}

bool agent_session_io(struct session *s, const fd_set *r, const fd_set *w)
{
	bool want_write;
	int fd = s->sess ? session_fd(s->sess, &want_write) : -1;
	if (fd < 0)
		return false;
	bool input = FD_ISSET(fd, r);
	session_io(s->sess, input, FD_ISSET(fd, w));
	return input;
}

bool agent_session_is_up(const struct session *s)
{
	return s->sess && session_is_up(s->sess);
}

uint32_t agent_session_uptime(const struct session *s)
{
	return s->sess ? session_uptime(s->sess) : 0;
}

bool agent_session_notify_start(struct session *s, struct ax_buf *b)
{
	return s->sess && session_notify_start(s->sess, b);
}

int agent_session_notify_send(struct session *s, struct ax_buf *b)
{
	if (!s->sess) {
		ax_free(b);
		return -1;
	}
	return session_notify_send(s->sess, b);
}
