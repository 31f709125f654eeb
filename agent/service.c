/*
 * service.c - what the agent tells its service manager (sdnotify.h):
 *  - READY=1 once the backend is open and the pid file written, whether
 *    or not a master is there: the agent is made to start before its
 *    master and to connect when it comes, so readiness is "polling and
 *    able to serve", and STATUS says whether a master is connected;
 *  - STATUS= lines an administrator sees in `systemctl status`: backend,
 *    CPUs, master connected or not, polls;
 *  - RELOADING=1 ... READY=1 around a SIGHUP, STOPPING=1 at the end.
 *    sd_notify(3) wants READY=1 after RELOADING=1 whatever came of the
 *    reload (there is no "reload failed" message; systemd would wait in
 *    "reloading"), so a refused reload sends READY=1 too, its STATUS
 *    beginning "reload refused: N config problem(s), running config
 *    kept", and every STATUS after it says so until a reload succeeds.
 *    `systemctl reload` itself fails earlier: the unit's ExecReload runs
 *    the agent's config check (-t) before the SIGHUP;
 *  - WATCHDOG=1 every half WatchdogSec from the main loop's timer: the
 *    watchdog means "the main loop runs" (it answers the master), not
 *    "the backend answers": backend reads run off the main loop
 *    (reader.h), and a stalled backend is said in STATUS ("backend
 *    stalled for N s": checked every second, with or without a
 *    watchdog) and the log, not by a restart that would not mend a
 *    stalled pmcd.  A main loop stuck anywhere stops the feeding,
 *    and systemd restarts the agent (Restart=on-failure).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdio.h>
#include <unistd.h>

#include "agent.h"
#include "sdnotify.h"
#include "service.h"
#include "session.h"

/* a STATUS datagram: the refused reload's note, the AgentX address... */
#define STATUS_MAX 1024

static void status(struct agent *a, char *buf, size_t len,
		   const char *prefix)
{
	const struct cache *c = &a->cache;
	char stall[48] = "";
	unsigned stalled = agent_poll_stalled_s(a);

	a->service.stall_said = stalled;
	if (stalled)
		snprintf(stall, sizeof(stall), " (stalled for %u s)", stalled);
	/* state -1 or 0 (no PMU on most VMs, counters disabled, a lost
	 * pmcd): the service is up but serves no counter; say so */
	snprintf(buf, len,
		 "%sSTATUS=%s%sbackend %s%s, %zu CPUs, state %d%s; master %s "
		 "(%s); %u polls, %u poll errors\n",
		 prefix, a->reload_refused, a->reload_refused[0] ? "; " : "",
		 a->cfg.backend[0] ? a->cfg.backend : "none", stall, c->nrows,
		 (int)c->state,
		 c->polls && c->state <= 0 ? " (no counter counts: see the log)"
					   : "",
		 agent_session_is_up(&a->session) ? "connected"
						  : "not connected",
		 a->xaddr ? a->xaddr : a->cfg.agentx_socket, (unsigned)c->polls,
		 (unsigned)a->served.poll_errors);
}

/* Fed whenever the main loop runs its timers. */
static void on_watchdog(unsigned int reg, void *arg)
{
	struct agent *a = arg;
	char buf[STATUS_MAX];

	(void)reg;
	status(a, buf, sizeof(buf), "WATCHDOG=1\n");
	agent_sdnotify_send(&a->sd, buf);
}

/* Every second, watchdog or not: a stall that began, grew or ended is
 * said in STATUS (the watchdog's STATUS is only every half WatchdogSec,
 * and without one nothing else would say it). */
static void on_stall_check(unsigned int reg, void *arg)
{
	struct agent *a = arg;

	(void)reg;
	if (agent_poll_stalled_s(a) != a->service.stall_said)
		agent_service_status(a);
}

void agent_service_ready(struct agent *a)
{
	struct service *sv = &a->service;
	char buf[STATUS_MAX];

	if (!agent_sdnotify_enabled(&a->sd))
		return;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "READY=1\nMAINPID=%ld\n",
		 (long)getpid());
	status(a, buf, sizeof(buf), prefix);
	agent_sdnotify_send(&a->sd, buf);
	if (!sv->stall_alarm)
		sv->stall_alarm =
		    snmp_alarm_register(1, SA_REPEAT, on_stall_check, a);
	uint64_t usec = agent_sdnotify_watchdog_usec(&a->sd);
	if (usec && !sv->watchdog_alarm) {
		uint64_t half = usec / 2 ? usec / 2 : 1;
		struct timeval tv = {(time_t)(half / 1000000u),
				     (suseconds_t)(half % 1000000u)};
		sv->watchdog_alarm =
		    snmp_alarm_register_hr(tv, SA_REPEAT, on_watchdog, a);
		/* the interval as registered, as a check of the split */
		snmp_log(LOG_INFO,
			 "systemd watchdog: fed every %llu ms while the main "
			 "loop runs\n",
			 (unsigned long long)tv.tv_sec * 1000u +
			     (unsigned long long)tv.tv_usec / 1000u);
	}
}

void agent_service_status(struct agent *a)
{
	char buf[STATUS_MAX];

	if (!agent_sdnotify_enabled(&a->sd))
		return;
	status(a, buf, sizeof(buf), "");
	agent_sdnotify_send(&a->sd, buf);
}

void agent_service_reloading(struct agent *a)
{
	agent_sdnotify_send(&a->sd,
			    "RELOADING=1\nSTATUS=reloading the config\n");
}

void agent_service_stopping(struct agent *a)
{
	struct service *sv = &a->service;

	if (sv->watchdog_alarm)
		snmp_alarm_unregister(sv->watchdog_alarm);
	if (sv->stall_alarm)
		snmp_alarm_unregister(sv->stall_alarm);
	sv->watchdog_alarm = sv->stall_alarm = 0;
	agent_sdnotify_send(&a->sd, "STOPPING=1\nSTATUS=stopping\n");
	agent_sdnotify_close(&a->sd);
}
