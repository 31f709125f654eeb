/*
 * main.c - hw-r10kevctr-agent: command line, AgentX session, signals, and
 * the main loop.  See hw-r10kevctr-agent(8) in README.md.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "confcheck.h"
#include "options.h"
#include "sdnotify.h"
#include "service.h"
#include "session.h"
#include "daemon.h"
#include "dump.h"
#include "util/log.h"

/* the agent's one mutable context (signal handlers reach it here) */
static struct agent agent_ctx = {.sd = SDNOTIFY_INIT,
				 .daemon = DAEMON_STATE_INIT};

/* lib/ code logs through net-snmp, so -L applies to it too. */
static void log_to_netsnmp(int priority, const char *msg)
{
	snmp_log(priority, "%s", msg);
}

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		agent_ctx.reload_requested = 1;
	else
		agent_ctx.stop_requested = 1;
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: wake up select() */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* -c files, made absolute (a reload after daemonizing runs in /), must
 * exist and be readable: net-snmp would read a missing one as empty.
 * The number of problems: each file that is not (named). */
static int use_config_files(const char *list)
{
	char *abs = agent_confload_absolute(list);

	if (!abs) {
		snmp_log(LOG_ERR, "out of memory\n");
		return 1;
	}
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
			      NETSNMP_DS_LIB_OPTIONALCONFIG, abs);
	free(abs);
	return agent_confload_check_files(netsnmp_ds_get_string(
	    NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_OPTIONALCONFIG));
}

static void on_master_up(void *ctx)
{
	agent_poll_master_connected(ctx);
	agent_service_status(ctx);
}

static void on_master_down(void *ctx)
{
	agent_service_status(ctx);
}

/* A SIGHUP reload that keeps the running config: logged, and said in
 * STATUS until a reload succeeds (service.c). */
static void refuse_reload(struct agent *a, struct config *next, const char *why)
{
	snprintf(a->reload_refused, sizeof(a->reload_refused),
		 "reload refused: %s, running config kept", why);
	snmp_log(LOG_ERR, "%s\n", a->reload_refused);
	config_free(next);
}

static void reload(struct agent *a)
{
	struct config next;
	char why[64];
	int bad = agent_confload_reread(&a->confload, &next);

	if (bad) { /* each problem was named as it was read */
		snprintf(why, sizeof(why), "%d config problem(s)", bad);
		refuse_reload(a, &next, why);
		return;
	}
	char address[AGENTX_SOCKET_MAX];
	unsigned ping = a->cfg.agentx_ping;
	snprintf(address, sizeof(address), "%s", a->cfg.agentx_socket);
	if (agent_reload_apply(a, &next) != 0) { /* reload.c said why */
		refuse_reload(a, &next, "the new config could not be applied");
		return;
	}
	a->reload_refused[0] = '\0';
	/* a new agentXSocket (without -x) or agentxPingInterval: a new
	 * session on it */
	if ((!a->xaddr && strcmp(address, a->cfg.agentx_socket) != 0) ||
	    ping != a->cfg.agentx_ping) {
		const struct session_events ev = {.up = on_master_up,
						  .down = on_master_down,
						  .ctx = a,
						  .writer = &a->writer};
		snmp_log(LOG_INFO, "reload: AgentX settings changed; "
				   "connecting again\n");
		agent_session_stop(&a->session);
		agent_session_start(&a->session,
				    a->xaddr ? a->xaddr : a->cfg.agentx_socket,
				    a->cfg.agentx_ping, &a->view, &ev);
	}
}

/*
 * One turn of the main loop: wait (at most until the next net-snmp
 * alarm: polls, session timers) for the master's socket, the end of a
 * backend read (poll.c) or a signal, then serve what came, run the
 * due alarms, and fold in a reading held while requests came (publish.c:
 * select() waits no longer than its time).  Nothing in it waits for the
 * master or the backend.
 */
static void loop_once(struct agent *a, bool block)
{
	int nfds = 0, fakeblock = 0;
	fd_set r, w;
	struct timeval tv = {1, 0};

	FD_ZERO(&r);
	FD_ZERO(&w);
	snmp_select_info(&nfds, &r, &tv, &fakeblock);
	agent_session_fds(&a->session, &nfds, &r, &w);
	agent_poll_fds(a, &nfds, &r);
	if (!block || tv.tv_sec > 1)
		tv = (struct timeval){block ? 1 : 0, 0};
	agent_publish_timeout(a, &tv);
	int n = select(nfds, &r, &w, NULL, &tv);
	if (n > 0) {
		if (agent_session_io(&a->session, &r, &w))
			agent_publish_request_seen(a);
		agent_poll_io(a, &r);
	} else if (n < 0) {
		FD_ZERO(&r);
	}
	run_alarms();
	agent_poll_publish_due(a);
}

/* poll.c's calls take no argument: the one context */
static void serve_pending(void)
{
	loop_once(&agent_ctx, false);
}

static void serve_wait(void)
{
	loop_once(&agent_ctx, true);
}

/*
 * Close net-snmp's -Lf file handle: its file handler opens the file again
 * (appending) at the next line.  netsnmp_logging_restart() and
 * snmp_shutdown() would end the file with an empty line each time.
 */
static void close_log_file(const char *path)
{
	netsnmp_log_handler *logh = path ? netsnmp_find_loghandler(path) : NULL;

	if (logh && logh->type == NETSNMP_LOGHANDLER_FILE && logh->magic) {
		fclose((FILE *)logh->magic);
		logh->magic = NULL;
	}
}

/*
 * SIGHUP reopens the -Lf file (after logrotate's mv), never truncating
 * one that was not rotated.  net-snmp closes the old file first and goes
 * silent if the new one cannot be made, which is what happens under -u in
 * a directory the user cannot write: try first, and when it fails keep
 * writing to the old file and say so there.
 */
static void reopen_log(const char *path)
{
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		      0640);
	if (fd < 0) {
		snmp_log(LOG_ERR,
			 "SIGHUP: cannot reopen the log file %s: %s; logging "
			 "on to the file as it was (rotate with logrotate's "
			 "'create' for this user, or copytruncate)\n",
			 path, strerror(errno));
		return;
	}
	close(fd);
	close_log_file(path);
}

static void run(struct agent *a)
{
	while (!a->stop_requested) {
		loop_once(a, true);
		if (a->reload_requested) {
			a->reload_requested = 0;
			reopen_log(a->priv.logfile);
			snmp_log(LOG_INFO, "SIGHUP: reloading the config\n");
			agent_service_reloading(a);
			reload(a);
			agent_service_ready(a);
		}
	}
}

/* The library and the config (read by init_snmp); the number of bad
 * config lines. */
static int load(struct agent *a)
{
	cache_init(&a->cache);
	view_served_init(&a->served);
	agent_reader_init(&a->reader);
	a->serve_wait = serve_wait;
	a->view = (struct mib_view){.cache = &a->cache, .served = &a->served};
	agent_confload_register(&a->confload);
	agent_confload_begin(&a->confload, &a->cfg);
	init_snmp(AGENT_NAME);
	return agent_confload_end(&a->confload);
}

/* The state directory and the config: --dump and -t read and report
 * only, so they make nothing (no state directory, nothing of net-snmp's
 * in it) and say nothing of its owner; a start makes it for the agent's
 * user before net-snmp's init would make it as root, and hands what that
 * init made in it to the user.  The number of bad config lines. */
static int load_state(struct agent *a, const struct options *opt)
{
	if (opt->dump || opt->check) {
		agent_alarms_no_state_dir();
		return load(a);
	}
	agent_alarms_state_dir(a);
	int bad = load(a);
	agent_alarms_state_hand_over(a);
	return bad;
}

/* Connect to the master, open the backend, detach, write the pid file,
 * drop root; 0 when serving, else the exit status. */
static int start(struct agent *a, const struct options *opt, int *failed)
{
	char err[256] = "";
	const struct session_events ev = {.up = on_master_up,
					  .down = on_master_down,
					  .ctx = a,
					  .writer = &a->writer};

	*failed = 1;
	/* the pid file first: a second instance stops before it touches
	 * the master or the backend */
	if (opt->pidfile &&
	    agent_daemon_pidfile_lock(&a->daemon, opt->pidfile,
			       a->priv.user ? a->priv.uid : (uid_t)-1,
			       a->priv.user || a->priv.group ? a->priv.gid
							     : (gid_t)-1) != 0)
		return -1;
	if (agent_session_start(&a->session,
				a->xaddr ? a->xaddr : a->cfg.agentx_socket,
				a->cfg.agentx_ping, &a->view, &ev) != 0)
		return -1;
	if (agent_poll_start(a, err, sizeof(err)) != 0) {
		if (a->stop_requested) {
			snmp_log(LOG_INFO, "stopped while starting%s%s\n",
				 err[0] ? ": " : "", err);
			*failed = 0;
		} else if (err[0]) {
			snmp_log(LOG_ERR, "%s\n", err);
		}
		return -1;
	}
	int ready = -1; /* the waiting parent, when daemonized */
	if (!opt->foreground && (ready = agent_daemon_detach(&a->daemon)) < 0)
		return -1;
	a->priv.keep_perfmon = backend_needs_perfmon(a->cfg.backend);
	if ((opt->pidfile &&
	     agent_daemon_pidfile_write(&a->daemon, opt->pidfile) != 0) ||
	    agent_privilege_drop(&a->priv) != 0) {
		agent_daemon_ready(&a->daemon, ready, false);
		return -1;
	}
	agent_daemon_ready(&a->daemon, ready, true);
	return 0;
}

/* Not serving (a config problem, --dump, -t, a failed start): rc. */
static int end_early(struct agent *a, const struct options *opt, int rc)
{
	if (opt->pidfile) /* ours only if it was locked */
		agent_daemon_pidfile_remove(&a->daemon, opt->pidfile);
	agent_session_stop(&a->session);
	agent_poll_stop(a);
	cache_free(&a->cache);
	cache_sample_free(&a->sample);
	snmp_shutdown(AGENT_NAME);
	config_free(&a->cfg);
	return rc;
}

/* After the main loop: the session, the polls, the pid file and the
 * log, in that order. */
static void stop(struct agent *a, const struct options *opt)
{
	snmp_log(LOG_INFO, "%s stopping\n", AGENT_NAME);
	agent_service_stopping(a);
	agent_session_stop(&a->session);
	agent_poll_stop(a);
	if (opt->pidfile) /* while logging works: it may have to say why not */
		agent_daemon_pidfile_remove(&a->daemon, opt->pidfile);
	close_log_file(a->priv.logfile);
	snmp_shutdown(AGENT_NAME);
	cache_free(&a->cache);
	if (!a->reader.abandoned) /* else still the reading thread's */
		cache_sample_free(&a->sample);
	config_free(&a->cfg);
}

int main(int argc, char **argv)
{
	struct options opt = {0};
	struct agent *a = &agent_ctx;
	a->serve_pending = serve_pending;
	int rc = 1;

	agent_daemon_std_fds();
	int parsed = agent_options_parse(argc, argv, &opt, a);
	if (parsed != 0) {
		if (parsed == OPTIONS_USAGE)
			agent_options_usage(stderr, argv[0]);
		return 1;
	}
	if (opt.check) /* problems only, not net-snmp's "Created directory" */
		netsnmp_register_loghandler(NETSNMP_LOGHANDLER_STDERR,
					    LOG_WARNING);
	else if (!opt.logging_set)
		snmp_enable_stderrlog();
	else if (!opt.foreground && !opt.dump)
		agent_daemon_early_stderr(
		    &a->daemon); /* a refused start says why */
	/* -t goes on to name the problems of the other files too */
	int bad = opt.config ? use_config_files(opt.config) : 0;
	if (bad && !opt.check) {
		snmp_log(LOG_ERR, "%d config problem(s); not starting\n", bad);
		return 1;
	}
	if (bad)
		agent_confload_leave_out_unreadable(&a->confload);
	agent_confload_library_setup();
	install_signals();
	if (!opt.dump && !opt.check && !agent_sdnotify_init(&a->sd))
		return 1;
	util_log_set(log_to_netsnmp);
	bad += load_state(a, &opt);
	if (opt.check) /* the files a start opens, as its user */
		bad += agent_confcheck_files(&a->cfg, &a->priv);
	if (bad)
		snmp_log(LOG_ERR, "%d config problem(s)%s\n", bad,
			 opt.check ? "" : "; not starting");
	else if (opt.check)
		rc = 0; /* -t: silent when good, as sshd -t */
	else if (opt.dump)
		rc = dump_run(&a->cfg, &a->stop_requested, stdout, stderr);
	if (bad || opt.dump || opt.check || start(a, &opt, &rc) != 0)
		return end_early(a, &opt, rc);
	snmp_log(LOG_INFO, "%s %s started\n", AGENT_NAME, HWR_VERSION);
	agent_service_ready(a);

	run(a);
	stop(a, &opt);
	return 0;
}
