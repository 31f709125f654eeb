/*
 * ax_session_base.c - what every part of the session handle uses: its
 * clock, trace and sysUpTime, the names of the PDU types, and the end
 * of a connection (the layers above: ax_session_dial.c, ax_session_io.c,
 * then ax_session.c, each calling only those below it).
 */
#include "session/ax_session_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

uint64_t session_now(const struct ax_session *s)
{
	return s->env.now_ms();
}

void session_debug(const struct ax_session *s, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	if (!s->env.debug)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->env.debug(buf);
}

void session_close_fd(struct ax_session *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->in_len = s->out_len = s->out_off = 0;
	s->npend = 0;
}

void session_drop(struct ax_session *s)
{
	bool was_up = s->state == S_UP;
	session_close_fd(s);
	s->state = S_IDLE;
	s->id = 0;
	s->retry_ms = session_now(s) + (uint64_t)s->ping_s * 1000u;
	if (s->env.writer) /* its sets will never be committed or undone */
		write_forget_sets(s->env.writer);
	if (was_up && s->env.down)
		s->env.down(s->env.ctx);
}

uint32_t session_uptime(const struct ax_session *s)
{
	return s->uptime_base +
	       (uint32_t)((session_now(s) - s->uptime_ms) / 10);
}
