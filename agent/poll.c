/*
 * poll.c - the poll loop on net-snmp's alarms: once per interval, read the
 * backend, fold the reading into the cache (sums in the same pass), and
 * send a notification on a counter discontinuity.  Requests never call the
 * backend, and never wait for one: the read runs on the reading thread
 * (reader.h) and the main loop folds it into the cache when it ended; a
 * poll that comes while a read is still in flight is skipped (counted in
 * hwR10kEvCtrPollErrors, the stall logged once when it begins and once
 * when it ends), never queued.  Only the first read, at start (before the
 * agent says it is ready, as the backend's open), is on the main loop.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <string.h>

#include "agent.h"
#include "alarm/alarm_eval.h"
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

/* The reading of a poll that ended (rc: backend_read's), into the cache,
 * the alarms and the notifications: on the main loop. */
void poll_process(struct agent *a, int rc)
{
	uint32_t now = uptime_ticks();
	struct cache *c = &a->cache;

	/* A restarted master restarts sysUpTime; TimeStamps after it reset
	 * too (RFC 2579). */
	if (now < c->last_poll_time)
		cache_timestamps_reset(c);
	if (rc != 0) {
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

/* A reading held while requests came (publish.c), folded in when its
 * time came, or now. */
static void fold_held(struct agent *a, bool now)
{
	int rc;
	if (publish_take(a, now, &rc))
		poll_process(a, rc);
}

static void flush_held(struct agent *a)
{
	fold_held(a, true);
}

void poll_publish_due(struct agent *a)
{
	fold_held(a, false);
}

/* A read on the main loop (the first one at start; or no thread). */
void poll_now(struct agent *a)
{
	poll_process(a, backend_read(&a->backend, &a->sample));
}

static double seconds_since(uint64_t ns)
{
	return (double)(backend_monotonic_ns() - ns) / 1e9;
}

unsigned poll_stalled_s(const struct agent *a)
{
	if (!a->reader.busy)
		return 0;
	double s = seconds_since(a->reader.posted_ns);
	return s > a->cfg.poll_interval ? (unsigned)s : 0;
}

/* A poll while the last read is in flight: skipped, counted, and the
 * stall logged once. */
static void skip(struct agent *a)
{
	served_errors(&a->served, 1);
	a->polls_skipped++;
	if (a->polls_skipped > 1)
		return;
	snmp_log(LOG_WARNING,
		 "poll: backend %s stalls: its read has not ended for %.1f s; "
		 "polls are skipped (each one counted in "
		 "hwR10kEvCtrPollErrors) and answers are the last poll's "
		 "until it ends\n",
		 a->cfg.backend, seconds_since(a->reader.posted_ns));
}

/* The poll timer: a read posted to the reading thread. */
static void poll_due(struct agent *a)
{
	flush_held(a); /* a held reading before the next one */
	if (a->reader.busy) {
		skip(a);
		return;
	}
	if (reader_post(&a->reader, &a->backend, &a->sample) != 0)
		poll_now(a); /* no thread (logged): on the main loop */
}

void poll_fds(const struct agent *a, int *nfds, fd_set *r)
{
	int fd = reader_fd(&a->reader);

	if (fd >= 0) {
		FD_SET(fd, r);
		if (fd >= *nfds)
			*nfds = fd + 1;
	}
}

void poll_io(struct agent *a, fd_set *r)
{
	int fd = reader_fd(&a->reader), rc;

	if (fd < 0 || !FD_ISSET(fd, r) || !reader_collect(&a->reader, &rc))
		return;
	if (a->polls_skipped)
		snmp_log(LOG_NOTICE,
			 "poll: backend %s answered again after %.1f s; %u "
			 "poll(s) skipped\n",
			 a->cfg.backend, seconds_since(a->reader.posted_ns),
			 a->polls_skipped);
	a->polls_skipped = 0;
	flush_held(a); /* never two held: the older one first */
	if (!publish_hold(a, rc))
		poll_process(a, rc);
}

/* Answer requests (and run due timers) until no read is in flight, at
 * most POLL_WAIT_S; -1 when one still is (or the agent is stopping). */
static int wait_idle(struct agent *a)
{
	uint64_t until = backend_monotonic_ns() + POLL_WAIT_S * 1000000000ull;

	while (a->reader.busy && !a->stop_requested &&
	       backend_monotonic_ns() < until)
		a->serve_wait();
	flush_held(a); /* a reload or a stop goes on from the last one */
	return a->reader.busy ? -1 : 0;
}

/* A poll now on the reading thread, answering requests until it ended
 * (a reload's); -1 as wait_idle. */
static int poll_sync(struct agent *a)
{
	if (wait_idle(a) != 0)
		return -1;
	poll_due(a);
	return wait_idle(a);
}

static void on_alarm(unsigned int reg, void *arg)
{
	poll_due(arg);
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
 *
 * The backend instance is the reading thread's while a read is in
 * flight: a reload first waits for it (answering requests meanwhile, at
 * most POLL_WAIT_S) before it asks the backend whether it can be kept,
 * and reads the old one last and closes it only with no read in flight.
 * A backend whose read does not end within POLL_WAIT_S (a stalled pmcd)
 * cannot be closed: the reload is refused (logged, and STATUS says so),
 * the agent goes on with the running config; reload again once the
 * backend answers, or restart the agent.
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

/* A reload's wait for the read in flight to end, then (last) for one
 * more read of the running backend; -1 (logged) when a read has not
 * ended within POLL_WAIT_S. */
static int reload_wait(struct agent *a, bool last)
{
	if ((last ? poll_sync(a) : wait_idle(a)) == 0)
		return 0;
	snmp_log(LOG_ERR,
		 "reload: backend %s stalls (a read in flight for %.0f s); "
		 "keeping the running config\n",
		 a->cfg.backend, seconds_since(a->reader.posted_ns));
	return -1;
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
	if (reload_wait(a, false) != 0)
		return -1;
	/* A backend that opens for long answers requests meanwhile (its
	 * progress call), sets included: the alarm table is built after
	 * it, from the table as those sets left it, with nothing served
	 * in between. */
	if (reopen(a, newcfg, &nb, &keep) != 0)
		return -1;
	/* the old backend's counts since the last poll */
	if (!keep && reload_wait(a, true) != 0) {
		backend_close(&nb);
		return -1;
	}
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
		cache_clock_restart(&a->cache);
	}
	alarm_write_reset(&a->writer); /* sets in progress: of the old table */
	alarm_set_free(&a->alarms);
	a->alarms = na;
	config_free(&a->cfg);
	a->cfg = *newcfg; /* takes ownership */
	alarms_writer_configure(a);
	describe_served(a);
	if (!keep)
		poll_sync(a); /* still in flight after POLL_WAIT_S: fine */
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
	/* a read that does not end in time (a stalled pmcd) is left to the
	 * exiting process with its backend: never closed under it */
	if (!reader_wait(&a->reader, POLL_WAIT_S * 1000) ||
	    !reader_stop(&a->reader))
		snmp_log(LOG_WARNING,
			 "stopping: backend %s stalls; exiting without "
			 "closing it\n",
			 a->cfg.backend);
	else
		backend_close(&a->backend);
	served_configure(&a->served, a->cfg.backend, a->cfg.poll_interval,
			 NULL);
	alarms_close(a);
	alarm_set_free(&a->alarms);
}
