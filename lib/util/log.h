/*
 * log.h - logging from lib/ code.  The agent routes it into net-snmp's
 * logger (snmp_log, so -L applies); tests capture it.  Default: stderr.
 */
#ifndef HWR10K_LOG_H
#define HWR10K_LOG_H

#include <syslog.h>

typedef void (*util_log_fn)(int priority, const char *msg);

void util_log(int priority, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void util_log_set(util_log_fn fn);
/* The calling thread's own sink (NULL: the one of util_log_set); set it
 * before the thread logs, util_log_set before any thread starts. */
void util_log_set_thread(util_log_fn fn);

#endif
