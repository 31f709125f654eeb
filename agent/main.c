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
#include "daemon.h"
#include "dump.h"
#include "log.h"

static struct agent agent_ctx; /* the agent's one mutable context */

static void usage(FILE *out, const char *prog)
{
	char names[128];

	fprintf(
	    out,
	    "usage: %s [-f] [-C] [-c FILE] [-x ADDRESS] [-A] [-L LOGOPTS] "
	    "[-D TOKENS] [-p PIDFILE] [-u USER] [-g GROUP]\n"
	    "       %s --dump [-C] [-c FILE] [-L LOGOPTS]\n"
	    "       %s -h | --help | -H | -v | --version\n"
	    "AgentX subagent exporting HW-R10KEVCTR-MIB (CPU event counters).\n"
	    "  -f           stay in the foreground\n"
	    "  -C           do not read the default config files, only -c\n"
	    "  -c FILE      read FILE as a " AGENT_NAME ".conf too\n"
	    "  -x ADDRESS   master agent's AgentX address (unix:/path, "
	    "tcp:127.0.0.1:705)\n"
	    "  -A           append to the -Lf file instead of truncating it\n"
	    "  -L LOGOPTS   log as net-snmp's -L: -Le, -Lo, -Lf FILE, -Ls "
	    "FACILITY, -LS PRI FACILITY...\n"
	    "  -D TOKENS    debug output for these tokens (e.g. "
	    "hwr10k,agentx)\n"
	    "  -p PIDFILE   write the process id here\n"
	    "  -u USER      run as USER (name or number) once started; the "
	    "perf\n"
	    "               backend keeps CAP_PERFMON, the others nothing\n"
	    "  -g GROUP     run as GROUP (name or number) once started\n"
	    "  --dump       read the backend twice, one pollInterval apart, "
	    "print\n"
	    "               every counted value and rate, and exit (no "
	    "master)\n"
	    "  -H           the config file tokens\n"
	    "  -h, --help   this help;  -v, --version  version\n"
	    "Backends built in: %s\n",
	    prog, prog, prog, backend_names(names, sizeof(names)));
}

/* -H: the config tokens, generic and each backend's, as snmpd -H does. */
static void print_tokens(FILE *out)
{
	for (const struct config_token *t = config_tokens; t->token; t++)
		fprintf(out, "%-20s %s\n", t->token, t->usage);
	for (size_t i = 0; backend_at(i); i++)
		for (const struct config_token *t = backend_at(i)->tokens;
		     t && t->token; t++)
			fprintf(out, "%-20s %s   (backend %s)\n", t->token,
				t->usage, backend_at(i)->name);
}

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

struct options {
	bool foreground, logging_set, dump;
	const char *pidfile;
	const char *config; /* -c: comma-separated files */
};

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

#define OPTSTRING ":fACc:x:L:D:p:u:g:hHv"

/*
 * -A must hold before -Lf opens (and would truncate) the file, wherever it
 * stands on the command line: look for it first, in clusters such as -fA,
 * skipping the values of options that take one.
 */
static bool wants_append(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || a[1] == '-' || a[1] == '\0')
			continue;
		for (const char *c = a + 1; *c; c++) {
			if (*c == 'A')
				return true;
			const char *spec = strchr(OPTSTRING, *c);
			if (spec && spec[1] == ':') {
				if (c[1] == '\0')
					i++; /* the value is the next word */
				break;
			}
		}
	}
	return false;
}

/* The file of -Lf FILE / -LfFILE / -LF PRI FILE, if that is what this is. */
static const char *log_file_arg(const char *opt, int argc, char **argv)
{
	int next = optind;
	if (opt[0] == 'F' && opt[1] == '\0')
		next++; /* -LF PRI FILE */
	else if (opt[0] == 'f' && opt[1] != '\0')
		return opt + 1;
	else if (opt[0] != 'f' && opt[0] != 'F')
		return NULL;
	return next < argc ? argv[next] : NULL;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'v'},
	    {"dump", no_argument, NULL, 'd'},
	    {NULL, 0, NULL, 0},
	};
	const char *logfile;
	int ch;

	if (wants_append(argc, argv))
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_APPEND_LOGFILES, 1);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, OPTSTRING, longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'f':
			o->foreground = true;
			break;
		case 'C':
			netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
					       NETSNMP_DS_LIB_DONT_READ_CONFIGS,
					       1);
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'x':
			agent_ctx.xaddr = optarg;
			break;
		case 'A':
			break; /* applied by wants_append() */
		case 'd':
			o->dump = true;
			break;
		case 'L':
			logfile = log_file_arg(optarg, argc, argv);
			if (logfile && logfile_check(logfile) != 0)
				return -1;
			if (logfile)
				agent_ctx.priv.logfile = logfile;
			if (snmp_log_options(optarg, argc, argv) < 0) {
				fprintf(stderr, "%s: bad -L option '%s'\n",
					argv[0], optarg);
				return -1;
			}
			o->logging_set = true;
			break;
		case 'D':
			debug_register_tokens(optarg);
			snmp_set_do_debugging(1);
			break;
		case 'p':
			o->pidfile = optarg;
			break;
		case 'u':
			agent_ctx.priv.user = optarg;
			break;
		case 'g':
			agent_ctx.priv.group = optarg;
			break;
		case 'h':
			usage(stdout, argv[0]);
			exit(0);
		case 'H':
			print_tokens(stdout);
			exit(0);
		case 'v':
			printf("%s %s (net-snmp %s)\n", AGENT_NAME, HWR_VERSION,
			       netsnmp_get_version());
			exit(0);
		case ':':
			fprintf(stderr, "%s: option -%c needs a value\n",
				argv[0], optopt);
			return -1;
		default:
			if (optopt)
				fprintf(stderr, "%s: unknown option -%c\n",
					argv[0], optopt);
			else
				fprintf(stderr, "%s: unknown option %s\n",
					argv[0], argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0],
			argv[optind]);
		return -1;
	}
	return privilege_resolve(&agent_ctx.priv);
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

int main(int argc, char **argv)
{
	struct options opt = {0};
	struct agent *a = &agent_ctx;
	char err[256] = "";
	int rc = 1;

	umask(027); /* files we create (logs) are not world-readable */

	if (parse_args(argc, argv, &opt) != 0) {
		usage(stderr, argv[0]);
		return 1;
	}
	if (!opt.logging_set)
		snmp_enable_stderrlog();
	if (opt.config && use_config_files(opt.config) != 0) {
		snmp_log(LOG_ERR, "bad config file; not starting\n");
		return 1;
	}
	/* The subagent works with numeric OIDs only: load no MIB modules
	 * (Debian's default list would only log errors about missing ones). */
	setenv("MIBS", "", 1);
	setenv("MIBDIRS", "", 1);
	/* A subagent; --dump needs no master at all (no AgentX session). */
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE,
			       !opt.dump);
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
	install_signals();
	hwr_log_set(log_to_netsnmp);
	cache_init(&a->cache);
	served_init(&a->served);
	a->view = (struct mib_view){.cache = &a->cache, .served = &a->served};

	init_agent(AGENT_NAME);
	/* Notice a restarted master and reconnect within seconds (keepalived
	 * does the same).  Set after init_agent(), which sets net-snmp's
	 * default of 15 s; agentxPingInterval in the config overrides it. */
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
			   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, 2);
	confload_register();
	poll_watch_master(a);
	notify_watch_master();
	confload_begin(&a->cfg);
	init_snmp(AGENT_NAME);
	int bad = confload_end();
	if (bad) {
		snmp_log(LOG_ERR, "%d bad config line(s); not starting\n", bad);
		config_free(&a->cfg);
		snmp_shutdown(AGENT_NAME);
		return 1;
	}
	if (opt.dump) {
		rc = dump_run(&a->cfg, &a->stop_requested, stdout, stderr);
		snmp_shutdown(AGENT_NAME);
		config_free(&a->cfg);
		return rc;
	}
	if (handler_register(a) != 0 || poll_start(a, err, sizeof(err)) != 0) {
		if (a->stop_requested) {
			snmp_log(LOG_INFO, "stopped while starting%s%s\n",
				 err[0] ? ": " : "", err);
			rc = 0;
		} else if (err[0]) {
			snmp_log(LOG_ERR, "%s\n", err);
		}
		snmp_shutdown(AGENT_NAME);
		config_free(&a->cfg);
		return rc;
	}
	int ready = -1; /* the waiting parent, when daemonized */
	if (!opt.foreground &&
	    (ready = daemon_detach(snmp_stderrlog_status())) < 0)
		return 1;
	a->priv.keep_perfmon = strcmp(a->cfg.backend, "perf") == 0;
	if ((opt.pidfile && pidfile_write(opt.pidfile) != 0) ||
	    privilege_drop(&a->priv) != 0) {
		daemon_ready(ready, false);
		return 1;
	}
	daemon_ready(ready, true);
	snmp_log(LOG_INFO, "%s %s started\n", AGENT_NAME, HWR_VERSION);

	run(a);

	snmp_log(LOG_INFO, "%s stopping\n", AGENT_NAME);
	poll_stop(a);
	handler_unregister();
	snmp_shutdown(AGENT_NAME);
	cache_free(&a->cache);
	sample_free(&a->sample);
	config_free(&a->cfg);
	if (opt.pidfile)
		pidfile_remove(opt.pidfile);
	return 0;
}
