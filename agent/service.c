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
 *  - WATCHDOG=1 every half WatchdogSec from the main loop's timer, while
 *    the polls keep their schedule: a poll stuck in a backend blocks the
 *    loop (nothing is fed), and polls that stopped coming (a poll is
 *    overdue by two intervals) stop the feeding too, so systemd
 *    restarts the agent (Restart=on-failure).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdio.h>
#include <unistd.h>

#include "sdnotify.h"
#include "service.h"
#include "session.h"

/* a STATUS datagram: the refused reload's note, the AgentX address... */
#define STATUS_MAX 1024

static unsigned watchdog_alarm;
static bool overdue_logged;

static void status(const struct agent *a, char *buf, size_t len,
		   const char *prefix)
{
	const struct cache *c = &a->cache;
	/* state -1 or 0 (no PMU on most VMs, counters disabled, a lost
	 * pmcd): the service is up but serves no counter; say so */
	snprintf(buf, len,
		 "%sSTATUS=%s%sbackend %s, %zu CPUs, state %d%s; master %s (%s); "
		 "%u polls, %u poll errors\n",
		 prefix, a->reload_refused, a->reload_refused[0] ? "; " : "",
		 a->cfg.backend[0] ? a->cfg.backend : "none", c->nrows,
		 (int)c->state,
		 c->polls && c->state <= 0 ? " (no counter counts: see the log)"
					   : "",
		 session_is_up() ? "connected" : "not connected",
		 a->xaddr ? a->xaddr : a->cfg.agentx_socket, (unsigned)c->polls,
		 (unsigned)a->served.poll_errors);
}

/* Fed while the polls keep their schedule. */
static void on_watchdog(unsigned int reg, void *arg)
{
	struct agent *a = arg;
	uint64_t now = backend_monotonic_ns();
	uint64_t limit = 2 * (uint64_t)a->cfg.poll_interval * 1000000000u +
			 sdnotify_watchdog_usec() * 1000u;
	char buf[STATUS_MAX];

	(void)reg;
	if (a->last_poll_ns && now - a->last_poll_ns > limit) {
		if (!overdue_logged)
			snmp_log(LOG_ERR,
				 "no poll for %llu s (pollInterval %u): not "
				 "feeding systemd's watchdog\n",
				 (unsigned long long)((now - a->last_poll_ns) /
						      1000000000u),
				 a->cfg.poll_interval);
		overdue_logged = true;
		return;
	}
	overdue_logged = false;
	status(a, buf, sizeof(buf), "WATCHDOG=1\n");
	sdnotify_send(buf);
}

void service_ready(struct agent *a)
{
	char buf[STATUS_MAX];

	if (!sdnotify_enabled())
		return;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "READY=1\nMAINPID=%ld\n",
		 (long)getpid());
	status(a, buf, sizeof(buf), prefix);
	sdnotify_send(buf);
	uint64_t usec = sdnotify_watchdog_usec();
	if (usec && !watchdog_alarm) {
		uint64_t half = usec / 2 ? usec / 2 : 1;
		struct timeval tv = {(time_t)(half / 1000000u),
				     (suseconds_t)(half % 1000000u)};
		watchdog_alarm =
		    snmp_alarm_register_hr(tv, SA_REPEAT, on_watchdog, a);
		snmp_log(LOG_INFO,
			 "systemd watchdog: fed every %llu ms while the polls "
			 "keep their schedule\n",
			 (unsigned long long)(half / 1000u));
	}
}

void service_status(const struct agent *a)
{
	char buf[STATUS_MAX];

	if (!sdnotify_enabled())
		return;
	status(a, buf, sizeof(buf), "");
	sdnotify_send(buf);
}

void service_reloading(void)
{
	sdnotify_send("RELOADING=1\nSTATUS=reloading the config\n");
}

void service_stopping(void)
{
	if (watchdog_alarm)
		snmp_alarm_unregister(watchdog_alarm);
	watchdog_alarm = 0;
	sdnotify_send("STOPPING=1\nSTATUS=stopping\n");
	sdnotify_close();
}
