/*
 * poll.c - the poll loop on net-snmp's alarms: once per interval, read the
 * backend, fold the reading into the cache (sums in the same pass), and
 * send a notification on a counter discontinuity.  Requests never call the
 * backend.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <string.h>

#include "agent.h"
#include "alarm_eval.h"
#include "session.h"
#include "stamps.h"

/* Our TimeStamps are sysUpTime values: the session keeps its uptime in
 * step with the master's at every AgentX Response. */
static uint32_t uptime_ticks(void)
{
	return session_uptime();
}

static void on_alarm_event(void *ctx, const struct alarm *al, size_t index,
			   enum alarm_event_kind kind)
{
	notify_alarm(ctx, index, kind == ALARM_EVENT_RISING);
}

void poll_now(struct agent *a)
{
	uint32_t now = uptime_ticks();
	struct cache *c = &a->cache;

	a->last_poll_ns = backend_monotonic_ns(); /* the schedule holds */
	/* A restarted master restarts sysUpTime; TimeStamps after it reset
	 * too (RFC 2579). */
	if (now < c->last_poll_time)
		cache_timestamps_reset(c);
	if (backend_read(&a->backend, &a->sample) != 0) {
		served_errors(&a->served, 1);
		snmp_log(LOG_ERR,
			 "poll: backend %s: read failed; serving the "
			 "values of the last poll\n",
			 a->cfg.backend);
		return;
	}
	if (sample_sort(&a->sample) != 0) {
		served_errors(&a->served, 1);
		snmp_log(LOG_ERR,
			 "poll: backend %s reported a CPU twice; "
			 "reading dropped\n",
			 a->cfg.backend);
		return;
	}
	bool first = c->polls == 0;
	int disc = cache_update(c, &a->sample, now);
	if (disc < 0) {
		served_errors(&a->served, 1);
		snmp_log(LOG_ERR, "poll: out of memory; reading dropped\n");
		return;
	}
	DEBUGMSGTL(("hwr10k/poll", "poll %u: %zu CPUs, state %d\n", c->polls,
		    c->nrows, c->state));
	if (disc && !first)
		snmp_log(LOG_NOTICE, "counter discontinuity: %s\n",
			 c->last_discontinuity);
	stamps_polled(a, first, disc && !first); /* and the notification */
	served_errors(&a->served, a->sample.errors);
	alarm_write_age(&a->writer); /* notReady rows left too long */
	alarms_evaluate(c, &a->alarms, on_alarm_event, &a->view);
}

static void on_alarm(unsigned int reg, void *arg)
{
	poll_now(arg);
}

static void schedule(struct agent *a)
{
	if (a->poll_alarm)
		snmp_alarm_unregister(a->poll_alarm);
	a->poll_alarm =
	    snmp_alarm_register(a->cfg.poll_interval, SA_REPEAT, on_alarm, a);
}

static void describe_served(struct agent *a)
{
	served_configure(&a->served, a->cfg.backend, a->cfg.poll_interval,
			 &a->alarms);
}

int poll_start(struct agent *a, char *err, size_t errlen)
{
	if (alarms_open(a) != 0 || alarms_build(a, &a->cfg, &a->alarms, NULL)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	alarms_writer_configure(a);
	a->backend.cancel = &a->stop_requested;
	/* While a backend opens for long (a large replay file), answer what
	 * the master sends meanwhile, from the cache as always, and run due
	 * polls of the running backend: the master never sees a stall.  Only
	 * from the top level (start, reload), never from a callback. */
	a->backend.progress = a->serve_pending;
	if (backend_open(&a->backend, &a->cfg, err, errlen) != 0)
		return -1;
	describe_served(a);
	poll_now(a);
	schedule(a);
	snmp_log(LOG_INFO, "polling backend %s every %u s\n", a->cfg.backend,
		 a->cfg.poll_interval);
	return 0;
}

/*
 * A reload keeps the backend open when its own settings did not change
 * (backend_keep): counters, epochs and the discontinuity time stay, so a
 * daily SIGHUP from logrotate or config management costs no sample.  When
 * the backend must be reopened, the new one is opened first (if it fails,
 * the old one keeps on), and the old one is read one last time so that
 * nothing counted since the last poll is lost.
 */
/* The new backend for newcfg into nb, or keep the running one (*keep);
 * -1 (logged) to keep the running config. */
static int reopen(struct agent *a, struct config *newcfg, struct backend *nb,
		  bool *keep)
{
	char err[256] = "";

	*keep = backend_keep(&a->backend, &a->cfg, newcfg);
	if (*keep)
		return 0;
	if (a->priv.dropped && !a->priv.keep_perfmon &&
	    backend_needs_perfmon(newcfg->backend)) {
		snmp_log(LOG_ERR,
			 "reload: backend %s needs CAP_PERFMON, given up at "
			 "start with -u and backend %s; keeping the running "
			 "config (restart the agent to switch to %s)\n",
			 newcfg->backend, a->cfg.backend, newcfg->backend);
		return -1;
	}
	*nb = (struct backend){.clock_ns = a->backend.clock_ns,
			       .cancel = &a->stop_requested,
			       .progress = a->serve_pending};
	if (backend_open(nb, newcfg, err, sizeof(err)) != 0) {
		snmp_log(LOG_ERR, "reload: %s; keeping the running config\n",
			 err);
		return -1;
	}
	return 0;
}

int poll_reconfigure(struct agent *a, struct config *newcfg)
{
	struct alarm_set na;
	struct backend nb;
	bool keep;

	/* The schedule goes on through a reopen: restarting it at every
	 * SIGHUP would starve the polls when reloads come faster than
	 * pollInterval.  Only a new interval restarts it. */
	bool reschedule = newcfg->poll_interval != a->cfg.poll_interval;
	/* A backend that opens for long answers requests meanwhile (its
	 * progress call), sets included: the alarm table is built after
	 * it, from the table as those sets left it, with nothing served
	 * in between. */
	if (reopen(a, newcfg, &nb, &keep) != 0)
		return -1;
	if (!keep)
		poll_now(a); /* the old backend's counts since the last poll */
	/* Alarms whose settings did not change keep their state; the rows
	 * created over SNMP are read back from the store, as at a start,
	 * and the running table's volatile and notReady rows are kept. */
	if (alarms_build(a, newcfg, &na, &a->alarms)) {
		snmp_log(LOG_ERR, "reload: out of memory; keeping the running "
				  "config\n");
		if (!keep)
			backend_close(&nb);
		return -1;
	}
	if (!keep) {
		backend_close(&a->backend);
		a->backend = nb;
	}
	alarm_write_reset(&a->writer); /* sets in progress: of the old table */
	alarm_set_free(&a->alarms);
	a->alarms = na;
	config_free(&a->cfg);
	a->cfg = *newcfg; /* takes ownership */
	alarms_writer_configure(a);
	describe_served(a);
	if (!keep)
		poll_now(a);
	if (reschedule)
		schedule(a);
	snmp_log(LOG_INFO, "reload: %s backend %s, polling every %u s\n",
		 keep ? "kept" : "reopened", a->cfg.backend,
		 a->cfg.poll_interval);
	return 0;
}

/*
 * A (re)connection to a master (session.c's up event): our TimeStamps
 * go on its sysUpTime (stamps.c): those of events before its
 * re-initialization read 0 (RFC 2579), so a restarted master never
 * serves them ahead of its sysUpTime; the agent's own start under a
 * running master is a discontinuity, notified now.
 */
void poll_master_connected(struct agent *a)
{
	stamps_master_connected(a);
}

void poll_stop(struct agent *a)
{
	if (a->poll_alarm)
		snmp_alarm_unregister(a->poll_alarm);
	a->poll_alarm = 0;
	backend_close(&a->backend);
	served_configure(&a->served, a->cfg.backend, a->cfg.poll_interval,
			 NULL);
	alarms_close(a);
	alarm_set_free(&a->alarms);
}
