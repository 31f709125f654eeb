/* log.c - the lib/ logger hook. */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>

static void to_stderr(int priority, const char *msg)
{
	fputs(msg, stderr);
}

static util_log_fn sink = to_stderr;
/* A thread's own sink: the agent's reading thread queues its lines for
 * the main loop (net-snmp's logger is not thread-safe). */
static _Thread_local util_log_fn thread_sink;

void util_log_set(util_log_fn fn)
{
	sink = fn ? fn : to_stderr;
}

void util_log(int priority, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	(thread_sink ? thread_sink : sink)(priority, buf);
}

void util_log_set_thread(util_log_fn fn)
{
	thread_sink = fn;
}
