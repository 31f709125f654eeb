/* log.c - the lib/ logger hook. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static void to_stderr(int priority, const char *msg)
{
	fputs(msg, stderr);
}

static hwr_log_fn sink = to_stderr;

void hwr_log_set(hwr_log_fn fn)
{
	sink = fn ? fn : to_stderr;
}

void hwr_log(int priority, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sink(priority, buf);
}
