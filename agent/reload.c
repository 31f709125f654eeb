/*
 * reload.c - a SIGHUP's new config applied to the running agent: the
 * backend kept or reopened, the alarm table rebuilt, the served state
 * described again.  main.c reads and checks the config; this applies it
 * or refuses it, the running config going on.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <string.h>

#include "agent.h"

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
 *
 * Opening the new backend and closing the old one may wait too (a pmcd
 * that does not answer its connection holds libpcp until its timeout):
 * both run on the reading thread, and the main loop answers from the
 * last cache meanwhile, until the new backend's first reading.  A new
 * backend that cannot open refuses the reload, however long it took.
 */
/* Wait, answering requests, for the open or close in flight on the
 * reading thread to end; its rc.  Once the agent stops, answering ends
 * and the wait lasts at most POLL_WAIT_S more: -2 when the job has not
 * ended then (its backend is the thread's, never touched again). */
static int wait_job(struct agent *a)
{
	int rc;
	while (!agent_reader_collect(&a->reader, &rc)) {
		if (!a->stop_requested)
			a->serve_wait();
		else if (!agent_reader_wait(&a->reader, POLL_WAIT_S * 1000))
			return -2;
	}
	return rc;
}

/* A reload's new backend for cfg, opened on the reading thread into
 * a->reload_backend (on the main loop only when there is no thread, its
 * progress calls answering then); -1 with a message. */
static int open_off_loop(struct agent *a, const struct config *cfg,
			 char *err, size_t errlen)
{
	struct backend *b = &a->reload_backend;
	*b = (struct backend){.clock_ns = a->backend.clock_ns,
			      .cancel = &a->stop_requested};
	if (agent_reader_post_open(&a->reader, b, cfg) != 0) {
		b->progress = a->serve_pending;
		return backend_open(b, cfg, err, errlen);
	}
	int rc = wait_job(a);
	if (rc == -2)
		snprintf(err, errlen, "the agent stops while backend %s opens",
			 cfg->backend);
	else if (rc != 0)
		snprintf(err, errlen, "%s", a->reader.err);
	return rc == 0 ? 0 : -1;
}

/* b closed on the reading thread, answering meanwhile; on the main loop
 * when the thread is busy with a stuck read (b is then not the backend
 * it reads) or there is none. */
static void close_off_loop(struct agent *a, struct backend *b)
{
	if (a->reader.busy || agent_reader_post_close(&a->reader, b) != 0) {
		backend_close(b);
		return;
	}
	if (wait_job(a) == -2)
		snmp_log(LOG_WARNING,
			 "stopping: a backend still closes; exiting without "
			 "waiting for it\n");
}

/* The new backend for newcfg into a->reload_backend, or keep the running
 * one (*keep); -1 (logged) to keep the running config. */
static int reopen(struct agent *a, struct config *newcfg, bool *keep)
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
	if (open_off_loop(a, newcfg, err, sizeof(err)) != 0) {
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
	if ((last ? agent_poll_sync(a) : agent_poll_wait_idle(a)) == 0)
		return 0;
	snmp_log(LOG_ERR,
		 "reload: backend %s stalls (a read in flight for %.0f s); "
		 "keeping the running config\n",
		 a->cfg.backend, agent_poll_seconds_since(a->reader.posted_ns));
	return -1;
}

int agent_reload_apply(struct agent *a, struct config *newcfg)
{
	struct alarm_set na;
	bool keep;

	/* The schedule goes on through a reopen: restarting it at every
	 * SIGHUP would starve the polls when reloads come faster than
	 * pollInterval.  Only a new interval restarts it. */
	bool reschedule = newcfg->poll_interval != a->cfg.poll_interval;
	if (reload_wait(a, false) != 0)
		return -1;
	/* The new backend opens on the reading thread while the main loop
	 * answers requests, sets included: the alarm table is built after
	 * it, from the table as those sets left it, with nothing served
	 * in between. */
	if (reopen(a, newcfg, &keep) != 0)
		return -1;
	/* the old backend's counts since the last poll */
	if (!keep && reload_wait(a, true) != 0) {
		close_off_loop(a, &a->reload_backend);
		return -1;
	}
	/* Alarms whose settings did not change keep their state; the rows
	 * created over SNMP are read back from the store, as at a start,
	 * and the running table's volatile and notReady rows are kept. */
	if (agent_alarms_build(a, newcfg, &na, &a->alarms)) {
		snmp_log(LOG_ERR, "reload: out of memory; keeping the running "
				  "config\n");
		if (!keep)
			close_off_loop(a, &a->reload_backend);
		return -1;
	}
	if (!keep) { /* the new one serves; the old one closes */
		struct backend old = a->backend;
		a->backend = a->reload_backend;
		a->reload_backend = old;
		cache_clock_restart(&a->cache);
	}
	write_forget_sets(&a->writer); /* sets in progress: of the old table */
	alarm_set_free(&a->alarms);
	a->alarms = na;
	config_free(&a->cfg);
	a->cfg = *newcfg; /* takes ownership */
	agent_alarms_writer_configure(a);
	agent_poll_describe_served(a);
	if (!keep) {
		close_off_loop(a, &a->reload_backend);
		agent_poll_sync(
		    a); /* still in flight after POLL_WAIT_S: fine */
	}
	if (reschedule)
		agent_poll_schedule(a);
	snmp_log(LOG_INFO, "reload: %s backend %s, polling every %u s\n",
		 keep ? "kept" : "reopened", a->cfg.backend,
		 a->cfg.poll_interval);
	return 0;
}
