/*
 * poll.c - the poll loop on net-snmp's alarms: once per interval, read the
 * backend, fold the reading into the cache (sums in the same pass), and
 * send a notification on a counter discontinuity.  Requests never call the
 * backend, and never wait for one: the read runs on the reading thread
 * (reader.h) and the main loop folds it into the cache when it ended; a
 * poll that comes while a read is still in flight is skipped (counted in
 * hwR10kEvCtrPollErrors, the stall logged once when it begins and once
 * when it ends), never queued.  Only the first read, at start (before the
 * agent says it is ready, as the backend's open), is on the main loop; a
 * reload opens the new backend and closes the old one on the reading
 * thread too, answering from the last cache meanwhile.
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
static uint32_t uptime_ticks(const struct agent *a)
{
	return agent_session_uptime(&a->session);
}

static void on_alarm_event(void *ctx, const struct alarm *al, size_t index,
			   enum alarm_event_kind kind)
{
	agent_notify_alarm(ctx, index, kind == ALARM_EVENT_RISING);
}

/* The reading of a poll that ended (rc: backend_read's), into the cache,
 * the alarms and the notifications: on the main loop. */
void agent_poll_process(struct agent *a, int rc)
{
	uint32_t now = uptime_ticks(a);
	struct cache *c = &a->cache;

	/* A restarted master restarts sysUpTime; TimeStamps after it reset
	 * too (RFC 2579). */
	if (now < c->last_poll_time)
		cache_timestamps_reset(c);
	if (rc != 0) {
		view_served_errors(&a->served, 1);
		snmp_log(LOG_ERR,
			 "poll: backend %s: read failed; serving the "
			 "values of the last poll\n",
			 a->cfg.backend);
		return;
	}
	if (cache_sample_sort(&a->sample) != 0) {
		view_served_errors(&a->served, 1);
		snmp_log(LOG_ERR,
			 "poll: backend %s reported a CPU twice; "
			 "reading dropped\n",
			 a->cfg.backend);
		return;
	}
	bool first = c->polls == 0;
	if (cache_groups_use(c, cache_groups_chosen(&a->cfg.groups,
						    &a->sample)) != 0)
		snmp_log(LOG_ERR, "poll: out of memory; the CPU groups are "
				  "the last poll's\n");
	int disc = cache_update(c, &a->sample, now);
	if (disc < 0) {
		view_served_errors(&a->served, 1);
		snmp_log(LOG_ERR, "poll: out of memory; reading dropped\n");
		return;
	}
	DEBUGMSGTL(("hwr10k/poll", "poll %u: %zu CPUs, state %d\n", c->polls,
		    c->nrows, c->state));
	if (disc && !first)
		snmp_log(LOG_NOTICE, "counter discontinuity: %s\n",
			 c->last_discontinuity);
	agent_stamps_polled(a, first,
			    disc && !first); /* and the notification */
	view_served_errors(&a->served, a->sample.errors);
	write_expire_not_ready(&a->writer); /* notReady rows left too long */
	alarm_evaluate(c, &a->alarms, on_alarm_event, a);
}

/* A reading held while requests came (publish.c), folded in when its
 * time came, or now. */
static void fold_held(struct agent *a, bool now)
{
	int rc;
	if (agent_publish_take(a, now, &rc))
		agent_poll_process(a, rc);
}

static void flush_held(struct agent *a)
{
	fold_held(a, true);
}

void agent_poll_publish_due(struct agent *a)
{
	fold_held(a, false);
}

/* A read on the main loop (the first one at start; or no thread). */
void agent_poll_now(struct agent *a)
{
	agent_poll_process(a, backend_read(&a->backend, &a->sample));
}

double agent_poll_seconds_since(uint64_t ns)
{
	return (double)(backend_monotonic_ns() - ns) / 1e9;
}

unsigned agent_poll_stalled_s(const struct agent *a)
{
	if (!a->reader.busy)
		return 0;
	double s = agent_poll_seconds_since(a->reader.posted_ns);
	return s > a->cfg.poll_interval ? (unsigned)s : 0;
}

/* A poll while the last read is in flight: skipped, counted, and the
 * stall logged once. */
static void skip(struct agent *a)
{
	view_served_errors(&a->served, 1);
	a->polls_skipped++;
	if (a->polls_skipped > 1)
		return;
	snmp_log(LOG_WARNING,
		 "poll: backend %s stalls: its read has not ended for %.1f s; "
		 "polls are skipped (each one counted in "
		 "hwR10kEvCtrPollErrors) and answers are the last poll's "
		 "until it ends\n",
		 a->cfg.backend, agent_poll_seconds_since(a->reader.posted_ns));
}

/* The poll timer: a read posted to the reading thread.  While a reload
 * opens or closes a backend there, no poll is made (and none is counted
 * as skipped): the reload reads the old backend last and the new one
 * first, and counters lose nothing between two reads. */
static void poll_due(struct agent *a)
{
	flush_held(a); /* a held reading before the next one */
	if (a->reader.busy && a->reader.job != READER_READ)
		return;
	if (a->reader.busy) {
		skip(a);
		return;
	}
	if (agent_reader_post(&a->reader, &a->backend, &a->sample) != 0)
		agent_poll_now(a); /* no thread (logged): on the main loop */
}

void agent_poll_fds(const struct agent *a, int *nfds, fd_set *r)
{
	int fd = agent_reader_fd(&a->reader);

	if (fd >= 0) {
		FD_SET(fd, r);
		if (fd >= *nfds)
			*nfds = fd + 1;
	}
}

void agent_poll_io(struct agent *a, fd_set *r)
{
	int fd = agent_reader_fd(&a->reader), rc;

	/* a reload's open or close is collected by the reload (wait_job) */
	if (fd < 0 || !FD_ISSET(fd, r) || a->reader.job != READER_READ ||
	    !agent_reader_collect(&a->reader, &rc))
		return;
	if (a->polls_skipped)
		snmp_log(LOG_NOTICE,
			 "poll: backend %s answered again after %.1f s; %u "
			 "poll(s) skipped\n",
			 a->cfg.backend,
			 agent_poll_seconds_since(a->reader.posted_ns),
			 a->polls_skipped);
	a->polls_skipped = 0;
	flush_held(a); /* never two held: the older one first */
	if (!agent_publish_hold(a, rc))
		agent_poll_process(a, rc);
}

/* Answer requests (and run due timers) until no read is in flight, at
 * most POLL_WAIT_S; -1 when one still is (or the agent is stopping). */
int agent_poll_wait_idle(struct agent *a)
{
	uint64_t until = backend_monotonic_ns() + POLL_WAIT_S * 1000000000ull;

	while (a->reader.busy && !a->stop_requested &&
	       backend_monotonic_ns() < until)
		a->serve_wait();
	flush_held(a); /* a reload or a stop goes on from the last one */
	return a->reader.busy ? -1 : 0;
}

/* A poll now on the reading thread, answering requests until it ended
 * (a reload's); -1 as agent_poll_wait_idle. */
int agent_poll_sync(struct agent *a)
{
	if (agent_poll_wait_idle(a) != 0)
		return -1;
	poll_due(a);
	return agent_poll_wait_idle(a);
}

static void on_alarm(unsigned int reg, void *arg)
{
	poll_due(arg);
}

void agent_poll_schedule(struct agent *a)
{
	if (a->poll_alarm)
		snmp_alarm_unregister(a->poll_alarm);
	a->poll_alarm =
	    snmp_alarm_register(a->cfg.poll_interval, SA_REPEAT, on_alarm, a);
}

void agent_poll_describe_served(struct agent *a)
{
	view_served_configure(&a->served, a->cfg.backend, a->cfg.poll_interval,
			      &a->alarms);
}

int agent_poll_start(struct agent *a, char *err, size_t errlen)
{
	if (agent_alarms_open(a) != 0 ||
	    agent_alarms_build(a, &a->cfg, &a->alarms, NULL)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	agent_alarms_writer_configure(a);
	a->backend.cancel = &a->stop_requested;
	/* While a backend opens for long (a large replay file), answer what
	 * the master sends meanwhile, from the cache as always, and run due
	 * polls of the running backend: the master never sees a stall.  Only
	 * from the top level (start, reload), never from a callback. */
	a->backend.progress = a->serve_pending;
	if (backend_open(&a->backend, &a->cfg, err, errlen) != 0)
		return -1;
	agent_poll_describe_served(a);
	agent_poll_now(a);
	agent_poll_schedule(a);
	snmp_log(LOG_INFO, "polling backend %s every %u s\n", a->cfg.backend,
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
void agent_poll_master_connected(struct agent *a)
{
	agent_stamps_master_connected(a);
}

void agent_poll_stop(struct agent *a)
{
	if (a->poll_alarm)
		snmp_alarm_unregister(a->poll_alarm);
	a->poll_alarm = 0;
	/* a read that does not end in time (a stalled pmcd) is left to the
	 * exiting process with its backend: never closed under it */
	if (!agent_reader_wait(&a->reader, POLL_WAIT_S * 1000) ||
	    !agent_reader_stop(&a->reader))
		snmp_log(LOG_WARNING,
			 "stopping: backend %s stalls; exiting without "
			 "closing it\n",
			 a->cfg.backend);
	else
		backend_close(&a->backend);
	view_served_configure(&a->served, a->cfg.backend, a->cfg.poll_interval,
			      NULL);
	agent_alarms_close(a);
	alarm_set_free(&a->alarms);
}
