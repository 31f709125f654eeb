/*
 * main.c - hw-r10kevctr-agent: command line, AgentX session, signals, and
 * the main loop.  See hw-r10kevctr-agent(8) in README.md.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "agentx_fast.h"
#include "agentx_transport.h"
#include "options.h"
#include "daemon.h"
#include "dump.h"
#include "log.h"

static struct agent agent_ctx; /* the agent's one mutable context */

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

/* -x wins over agentXSocket in the config: applied right before the
 * subagent connects (POST_READ_CONFIG, ahead of the subagent's own). */
static int apply_xaddr(int major, int minor, void *server, void *client)
{
	/* --dump initialised the agent library as a master (so no AgentX
	 * session was set up); from here on it is a subagent again, which
	 * also spares it the master's "no access control" warning. */
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE,
			       1);
	if (agent_ctx.xaddr)
		netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID,
				      NETSNMP_DS_AGENT_X_SOCKET,
				      agent_ctx.xaddr);
	return SNMPERR_SUCCESS;
}

/* -c files, made absolute (a reload after daemonizing runs in /), must
 * exist and be readable: net-snmp would read a missing one as empty. */
static int use_config_files(const char *list)
{
	char *abs = confload_absolute(list);

	if (!abs) {
		snmp_log(LOG_ERR, "out of memory\n");
		return -1;
	}
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
			      NETSNMP_DS_LIB_OPTIONALCONFIG, abs);
	free(abs);
	return confload_check_files(netsnmp_ds_get_string(
		   NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_OPTIONALCONFIG))
		   ? -1
		   : 0;
}

static void reload(struct agent *a)
{
	struct config next;
	int bad = confload_reread(&next);

	if (bad) {
		snmp_log(LOG_ERR,
			 "reload: %d bad config line(s); keeping the "
			 "running config\n",
			 bad);
		config_free(&next);
		return;
	}
	if (poll_reconfigure(a, &next) != 0)
		config_free(&next);
}

static void run(struct agent *a)
{
	while (!a->stop_requested) {
		agent_check_and_process(1);
		agentx_transport_check();
		if (a->reload_requested) {
			a->reload_requested = 0;
			/* reopen -Lf files (after logrotate's mv), never
			 * truncating one that was not rotated */
			netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
					       NETSNMP_DS_LIB_APPEND_LOGFILES,
					       1);
			netsnmp_logging_restart();
			snmp_log(LOG_INFO, "SIGHUP: reloading the config\n");
			reload(a);
		}
	}
}

/* net-snmp's settings for this agent, before init_agent(). */
static void setup_netsnmp(const struct options *opt)
{
	/* The subagent works with numeric OIDs only: load no MIB modules
	 * (Debian's default list would only log errors about missing ones). */
	setenv("MIBS", "", 1);
	setenv("MIBDIRS", "", 1);
	/* A subagent; --dump needs no master at all (no AgentX session). */
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE,
			       !opt->dump);
	/* The agent keeps no state between runs: net-snmp's persistent
	 * store (/var/lib/snmp/hw-r10kevctr.conf, written at exit) would
	 * only fail for an unprivileged service user. */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			       NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			       NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	netsnmp_register_callback(SNMP_CALLBACK_LIBRARY,
				  SNMP_CALLBACK_POST_READ_CONFIG, apply_xaddr,
				  NULL, NETSNMP_CALLBACK_HIGHEST_PRIORITY);
}

/* The agent library, the config (read by init_snmp) and the AgentX
 * session; the number of bad config lines. */
static int load(struct agent *a, bool dump)
{
	cache_init(&a->cache);
	served_init(&a->served);
	a->view = (struct mib_view){.cache = &a->cache, .served = &a->served};
	init_agent(AGENT_NAME);
	/* Notice a restarted master and reconnect within seconds (keepalived
	 * does the same).  Set after init_agent(), which sets net-snmp's
	 * default of 15 s; agentxPingInterval in the config overrides it. */
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
			   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, 2);
	/* --dump runs the library as a master, which does not know the
	 * subagent's agentxPingInterval: a production config must dump as
	 * it runs, so the token is taken (and checked) the same way. */
	if (dump)
		netsnmp_ds_register_config(
		    ASN_INTEGER,
		    netsnmp_ds_get_string(NETSNMP_DS_LIBRARY_ID,
					  NETSNMP_DS_LIB_APPTYPE),
		    "agentxPingInterval", NETSNMP_DS_APPLICATION_ID,
		    NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL);
	confload_register();
	poll_watch_master(a);
	notify_watch_master();
	agentx_fast_init(a);
	confload_begin(&a->cfg);
	init_snmp(AGENT_NAME);
	return confload_end();
}

/* Register, open the backend, detach, write the pid file, drop root;
 * 0 when serving, else the exit status. */
static int start(struct agent *a, const struct options *opt, int *failed)
{
	char err[256] = "";

	*failed = 1;
	if (handler_register(a) != 0 || poll_start(a, err, sizeof(err)) != 0) {
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
	if (!opt->foreground &&
	    (ready = daemon_detach(snmp_stderrlog_status())) < 0)
		return -1;
	a->priv.keep_perfmon = backend_needs_perfmon(a->cfg.backend);
	if ((opt->pidfile &&
	     pidfile_write(opt->pidfile,
			   a->priv.user ? a->priv.uid : (uid_t)-1,
			   a->priv.user || a->priv.group ? a->priv.gid
							 : (gid_t)-1) != 0) ||
	    privilege_drop(&a->priv) != 0) {
		daemon_ready(ready, false);
		return -1;
	}
	daemon_ready(ready, true);
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt = {0};
	struct agent *a = &agent_ctx;
	int rc = 1;

	umask(027); /* files we create (logs) are not world-readable */
	int parsed = options_parse(argc, argv, &opt, a);
	if (parsed != 0) {
		if (parsed == OPTIONS_USAGE)
			options_usage(stderr, argv[0]);
		return 1;
	}
	if (!opt.logging_set)
		snmp_enable_stderrlog();
	if (opt.config && use_config_files(opt.config) != 0) {
		snmp_log(LOG_ERR, "bad config file; not starting\n");
		return 1;
	}
	setup_netsnmp(&opt);
	install_signals();
	hwr_log_set(log_to_netsnmp);
	int bad = load(a, opt.dump);
	if (bad)
		snmp_log(LOG_ERR, "%d bad config line(s); not starting\n", bad);
	else if (opt.dump)
		rc = dump_run(&a->cfg, &a->stop_requested, stdout, stderr);
	if (bad || opt.dump || start(a, &opt, &rc) != 0) {
		snmp_shutdown(AGENT_NAME);
		config_free(&a->cfg);
		return rc;
	}
	snmp_log(LOG_INFO, "%s %s started\n", AGENT_NAME, HWR_VERSION);

	run(a);

	snmp_log(LOG_INFO, "%s stopping\n", AGENT_NAME);
	poll_stop(a);
	handler_unregister();
	if (opt.pidfile) /* while logging works: it may have to say why not */
		pidfile_remove(opt.pidfile);
	snmp_shutdown(AGENT_NAME);
	cache_free(&a->cache);
	sample_free(&a->sample);
	config_free(&a->cfg);
	return 0;
}
