/* service.h - readiness, status and watchdog for systemd (service.c). */
#ifndef HWR10K_SERVICE_H
#define HWR10K_SERVICE_H

#include "agent.h"

/* The agent serves (backend open, pid file written): READY=1 with its
 * status, and the watchdog's timer when WATCHDOG_USEC asks for one. */
void service_ready(struct agent *a);
/* The status changed (master connected or lost). */
void service_status(const struct agent *a);
/* A SIGHUP reload starts; service_ready() ends it. */
void service_reloading(void);
void service_stopping(void);

#endif
