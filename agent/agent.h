/*
 * agent.h - the one agent context: the running config, backend, cache,
 * alarms and served state live here, and each agent/ module's own state
 * (the AgentX session, systemd's socket and timers, the pid file and
 * early stderr, a config load in progress) as a struct of its header,
 * passed to its functions.  What remains at file scope is main.c's one
 * struct agent, agent_ctx (the signal handlers, the backend's progress
 * call take no context), and a pointer for a callback that gets no
 * context: confload.c's loader
 * (net-snmp's config handlers) and reader.c's worker thread's own
 * reader (lib/util/log.h's sink), each commented where it is.
 */
#ifndef HWR10K_AGENT_H
#define HWR10K_AGENT_H

#include <regex.h>
#include <signal.h>
#include <sys/select.h>
#include <stdbool.h>
#include <stdint.h>

#include "alarm/alarm.h"
#include "write/alarm_store.h"
#include "write/alarm_write.h"
#include "backend/backend.h"
#include "cache/cache.h"
#include "config/config.h"
#include "daemon.h"
#include "privilege.h"
#include "reader.h"
#include "sdnotify.h"
#include "service.h"
#include "session.h"
#include "view/served.h"
#include "stamps.h"
#include "view/values.h"

#define AGENT_NAME "hw-r10kevctr" /* config file type: hw-r10kevctr.conf */

/* confload.c: a load of the config files in progress, and what it has
 * counted.  An unknown token's line is said again as an error naming the
 * token (at most CONFLOAD_UNKNOWN_MAX of them) once the files are read. */
#define CONFLOAD_UNKNOWN_MAX 8
struct confload {
	struct config *staging; /* the config being read; NULL: no load */
	int bad_lines;		/* problems logged during this load */
	regex_t unknown_token;	/* net-snmp's wording of an unknown token */
	bool registered;	/* the handlers are net-snmp's */
	char backends[128];	/* backend's usage text: net-snmp keeps it */
	bool files_left_out;	/* -t: agent_confload_leave_out_unreadable() */
	char unknown_said[CONFLOAD_UNKNOWN_MAX][320];
	unsigned unknown_count;
	bool replaying; /* our own error lines are not counted again */
};

/* publish.c: a reading that ended while requests were coming, held until
 * they pause. */
struct publish {
	bool held;
	int rc;			  /* backend_read's, of the held reading */
	uint64_t since_ns;	  /* monotonic: when it was held */
	uint64_t last_request_ns; /* monotonic: the master's last input */
};

struct agent {
	struct config cfg;	 /* the running, validated config */
	struct backend backend;	 /* open backend of cfg */
	/* a reload's other backend: the new one while it opens, the old one
	 * while it closes (the reading thread's meanwhile, poll.c) */
	struct backend reload_backend;
	struct cache cache;	 /* the counters (only poll.c updates) */
	struct served served;	 /* backend, interval, errors, alarms */
	struct mib_view view;	 /* what requests read: the two above */
	/* reading buffer, reused; the reading thread's (as the backend
	 * instance) while a read is in flight (reader.h) */
	struct sample sample;
	struct reader reader;	 /* the reads off the main loop */
	unsigned polls_skipped;	 /* since the read in flight was posted */
	struct publish publish;	 /* a reading not yet folded in */
	/* main.c's: answer the master and run due timers without waiting
	 * (poll.c hands it to a long backend open as its progress call) */
	void (*serve_pending)(void);
	/* the same, waiting for the master, a signal or a read's end (at
	 * most 1 s): poll.c's waits for a read in flight */
	void (*serve_wait)(void);
	struct alarm_set alarms; /* alarms of cfg with their state */
	struct alarm_store store;   /* rows created over SNMP, kept */
	struct alarm_writer writer; /* what sets go through */
	unsigned poll_alarm;	 /* net-snmp alarm id, 0 = none */
	struct stamps stamps;	 /* stamps.c: when the TimeStamps were */
	const char *xaddr;	 /* -x, overrides agentXSocket */
	struct privilege priv;	 /* -u, -g */
	struct session session;	 /* session.c: the AgentX session */
	struct sdnotify sd;	 /* sdnotify.c: systemd's socket */
	struct service service;	 /* service.c: its timers, STATUS */
	struct daemon_state daemon; /* daemon.c: early stderr, pid file */
	struct confload confload;   /* confload.c: a load in progress */
	volatile sig_atomic_t reload_requested, stop_requested;
	/* why the last SIGHUP reload was refused (STATUS says it until a
	 * reload succeeds), "" when it was not */
	char reload_refused[128];
};

/* publish.c: when a reading becomes what requests see.  The master is
 * quiet after PUBLISH_QUIET_MS without input; a reading is held at most
 * 90 % of a poll interval, and at most PUBLISH_HOLD_MAX_MS. */
#define PUBLISH_QUIET_MS 100
#define PUBLISH_HOLD_MAX_MS 2000
void agent_publish_request_seen(struct agent *a); /* input from the master */
/* A reading that ended: true when it is held, false when it is to be
 * folded in now (poll.c does both). */
bool agent_publish_hold(struct agent *a, int rc);
/* The held reading's rc, when there is one and its time came (or now):
 * it is no longer held. */
bool agent_publish_take(struct agent *a, bool now, int *rc);
/* Shortens select()'s wait to the held reading's time. */
void agent_publish_timeout(const struct agent *a, struct timeval *tv);

/* poll.c */
int agent_poll_start(struct agent *a, char *err, size_t errlen);
void agent_poll_now(struct agent *a);
/* A reading that ended (rc: backend_read's) into the cache, the alarms
 * and the notifications. */
void agent_poll_process(struct agent *a, int rc);
/* A held reading (publish.c) folded in when its time came (the main
 * loop, every turn). */
void agent_poll_publish_due(struct agent *a);
/* The main loop's select: the reading thread's descriptor (agent_poll_fds),
 * and a read that ended folded into the cache (agent_poll_io). */
void agent_poll_fds(const struct agent *a, int *nfds, fd_set *r);
void agent_poll_io(struct agent *a, fd_set *r);
/* How long the read in flight is overdue (beyond pollInterval), 0 when
 * none is. */
unsigned agent_poll_stalled_s(const struct agent *a);
/* The longest a reload or a stop waits for a read in flight, s. */
#define POLL_WAIT_S 10
void agent_poll_stop(struct agent *a);
/* The AgentX session (re)connected: reset the TimeStamps. */
void agent_poll_master_connected(struct agent *a);
/* What reload.c builds on: answer requests until no read is in flight
 * (at most POLL_WAIT_S; -1 when one still is), a poll now on the reading
 * thread waited for so, the poll timer (re)started at cfg's interval,
 * the served state described from cfg, seconds since a monotonic time. */
int agent_poll_wait_idle(struct agent *a);
int agent_poll_sync(struct agent *a);
void agent_poll_schedule(struct agent *a);
void agent_poll_describe_served(struct agent *a);
double agent_poll_seconds_since(uint64_t ns);

/* reload.c: apply a new validated config (SIGHUP); keeps the running one
 * (logged) when it cannot be applied. */
int agent_reload_apply(struct agent *a, struct config *newcfg);

/* alarms.c: the store and the writer of the alarm table */
/* The agent's state directory, made for its user if missing (before
 * init_snmp and the switch to -u), and net-snmp's persistent directory. */
void agent_alarms_state_dir(struct agent *a);
/* --dump and -t: no state directory at all (net-snmp's persistent
 * directory is /dev/null, where nothing can be made). */
void agent_alarms_no_state_dir(void);
/* After init_snmp, as root before -u: what net-snmp made in the state
 * directory (cert_indexes and its files) handed to the agent's user. */
void agent_alarms_state_hand_over(const struct agent *a);
int agent_alarms_open(struct agent *a);
void agent_alarms_close(struct agent *a);
/* The table of cfg's alarm lines and the stored rows, with the state of
 * old's unchanged rows (old may be NULL). */
int agent_alarms_build(struct agent *a, const struct config *cfg,
		       struct alarm_set *out, const struct alarm_set *old);
/* The writer over a->alarms with a->cfg's alarmSet settings (any set in
 * progress is forgotten). */
void agent_alarms_writer_configure(struct agent *a);

/* notify.c (through session.c) */
void agent_notify_discontinuity(struct agent *a);
void agent_notify_alarm(struct agent *a, size_t index, bool rising);

/* confload.c: net-snmp config handlers -> struct config */
/* net-snmp's library settings for this agent, before init_snmp(): the
 * config files, logging and alarms (the daemon's, and test_confload's). */
void agent_confload_library_setup(void);
/* The config tokens' handlers and the log's counter, reading into cl
 * (once per process: net-snmp keeps the handlers and a usage text of
 * cl's, so cl lives as long as the process; the handlers reach it
 * through confload.c's one pointer, set here). */
void agent_confload_register(struct confload *cl);
/* Start collecting lines into cfg (set to defaults). */
void agent_confload_begin(struct confload *cl, struct config *cfg);
/* Stop collecting; returns the number of problems seen (each bad line,
 * each check across lines that failed: one each). */
int agent_confload_end(struct confload *cl);
/* Re-read the config files (SIGHUP) into cfg; returns the number of
 * problems (an unreadable -c file is one, and nothing else is read). */
int agent_confload_reread(struct confload *cl, struct config *cfg);
/* Each of the comma-separated -c files is a readable regular file; logs
 * why not and returns the number of bad ones. */
int agent_confload_check_files(const char *list);
/* -t: read only the -c files that can be, and leave out the checks
 * across lines (a missing file is one problem, not also "no backend"). */
void agent_confload_leave_out_unreadable(struct confload *cl);
/* The comma-separated list with each path made absolute (malloc'ed), so
 * that a reload after daemonizing (cwd /) finds the same files. */
char *agent_confload_absolute(const char *list);

#endif
