/* service.h - readiness, status and watchdog for systemd (service.c). */
#ifndef HWR10K_SERVICE_H
#define HWR10K_SERVICE_H

struct agent;

/* service.c's timers, and what its last STATUS said (struct agent's). */
struct service {
	unsigned watchdog_alarm; /* snmp_alarm ids, 0 = none */
	unsigned stall_alarm;
	unsigned stall_said; /* the stall the last STATUS said, s */
};

/* The agent serves (backend open, pid file written): READY=1 with its
 * status, and the watchdog's timer when WATCHDOG_USEC asks for one. */
void agent_service_ready(struct agent *a);
/* The status changed (master connected or lost). */
void agent_service_status(struct agent *a);
/* A SIGHUP reload starts; agent_service_ready() ends it. */
void agent_service_reloading(struct agent *a);
void agent_service_stopping(struct agent *a);

#endif
