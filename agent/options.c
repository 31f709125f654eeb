/*
 * options.c - hw-r10kevctr-agent's command line, in snmpd's habits (see
 * hw-r10kevctr-agent(8)): the usage, -H, and the parser.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "options.h"
#include "backend/perfspec.h"

void agent_options_usage(FILE *out, const char *prog)
{
	char names[128];

	fprintf(
	    out,
	    "usage: %s [-f] [-C] [-c FILE] [-x ADDRESS] [-A] [-L LOGOPTS] "
	    "[-D TOKENS] [-p PIDFILE] [-u USER] [-g GROUP]\n"
	    "       %s --dump [-C] [-c FILE] [-L LOGOPTS]\n"
	    "       %s -t [-C] [-c FILE] [-u USER] [-g GROUP]\n"
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
	    "  -t           check the config as a start would read it: "
	    "name every\n"
	    "               problem on stderr and exit 1, or exit 0 "
	    "silently\n"
	    "  -H           the config file tokens\n"
	    "  -h, --help   this help;  -v, --version  version\n"
	    "Backends built in: %s\n",
	    prog, prog, prog, prog, backend_names(names, sizeof(names)));
}

/* -H: the config tokens, generic and each backend's, as snmpd -H does. */
static void print_tokens(FILE *out)
{
	char buf[128];
	for (const struct config_token *t = config_tokens; t->token; t++)
		fprintf(out, "%-20s %s\n", t->token,
			config_token_usage(t, backend_sections(), buf,
					   sizeof(buf)));
	for (const struct config_section *const *s = backend_sections(); *s;
	     s++)
		for (const struct config_token *t = (*s)->tokens; t && t->token;
		     t++)
			fprintf(out, "%-20s %s   (backend %s%s)\n", t->token,
				t->usage, (*s)->name,
				(*s)->not_built ? ", not built in" : "");
}

#define OPTSTRING ":fACc:x:L:D:p:u:g:hHtv"

/*
 * -A must hold before -Lf opens (and would truncate) the file, and -t
 * before -L applies, wherever they stand on the command line: look for
 * the flag first, in clusters such as -fA, skipping the values of options
 * that take one.
 */
static bool has_flag(int argc, char **argv, char flag)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || a[1] == '-' || a[1] == '\0')
			continue;
		for (const char *c = a + 1; *c; c++) {
			if (*c == flag)
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

/* Past the priority of -LS/-LF/-LE... ("6", "i", "0-7"), or NULL. */
static const char *skip_priority(const char *p)
{
	if (!p || !*p)
		return NULL;
	p++;
	return p[0] == '-' && p[1] ? p + 2 : p;
}

/*
 * -t ignores -L (it writes to standard error, never opens the daemon's
 * log file): the words of an -L option are skipped as net-snmp's
 * snmp_log_options() takes them: -Le/-Lo/-Ln none, -Lf FILE and -Ls
 * FACILITY one, -LE/-LO/-LN PRI one, -LF PRI FILE and -LS PRI FACILITY
 * two, each word possibly joined to the one before (-LSid, -LfFILE).
 */
static void skip_log_option(const char *opt, int argc, char **argv)
{
	const char *rest = opt[0] ? opt + 1 : opt;
	int words = 0;

	if (*rest == '=')
		rest++;
	if (strchr("fsEON", opt[0])) {
		words = !*rest;
	} else if (opt[0] && strchr("FS", opt[0])) {
		if (!*rest) { /* the priority is the next word */
			rest = optind < argc ? argv[optind] : NULL;
			words = 1;
		}
		rest = skip_priority(rest);
		words += rest && !*rest; /* then the file or facility */
	}
	optind = optind + words < argc ? optind + words : argc;
}

/* The version, and what this build can read (operators and tests ask). */
static void print_version(FILE *out)
{
	char names[128];

	fprintf(out, "%s %s (net-snmp %s)\n", AGENT_NAME, HWR_VERSION,
		netsnmp_get_version());
	fprintf(out, "backends: %s; perf event names (pfm:): %s\n",
		backend_names(names, sizeof(names)),
		backend_perfspec_pfm_built() ? "libpfm4, loaded on first use"
					     : "no");
}

/* -h, -H, -v: print and exit 0. */
static void print_and_exit(int ch, const char *prog)
{
	if (ch == 'h')
		agent_options_usage(stdout, prog);
	else if (ch == 'H')
		print_tokens(stdout);
	else
		print_version(stdout);
	exit(0);
}

/* -L: net-snmp's logging options; a log file is checked (no symlink) and
 * a regular one remembered so that SIGHUP and -u can reopen it (a device
 * such as /dev/null is neither handed over nor reopened). */
static int apply_log_option(int argc, char **argv, struct agent *a)
{
	const char *logfile = log_file_arg(optarg, argc, argv);
	int kind = logfile ? agent_daemon_logfile_check(logfile) : 0;

	if (kind < 0)
		return OPTIONS_FAILED; /* said why; not a usage error */
	if (logfile) {
		if (kind != LOGFILE_DEVICE)
			a->priv.logfile = logfile;
		/* a file has no clock of its own (the journal and syslog
		 * do): its lines carry the time, as snmpd's -Lf lines do */
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_LOG_TIMESTAMP, 1);
	}
	if (snmp_log_options(optarg, argc, argv) < 0) {
		fprintf(stderr, "%s: bad -L option '%s'\n", argv[0], optarg);
		return -1;
	}
	return 0;
}

static int bad_option(int ch, char **argv)
{
	if (ch == ':')
		fprintf(stderr, "%s: option -%c needs a value\n", argv[0],
			optopt);
	else if (optopt)
		fprintf(stderr, "%s: unknown option -%c\n", argv[0], optopt);
	else
		fprintf(stderr, "%s: unknown option %s\n", argv[0],
			argv[optind - 1]);
	return -1;
}

/* One option returned by getopt_long; -1 after a message. */
static int apply_option(int ch, int argc, char **argv, struct options *o,
			struct agent *a)
{
	switch (ch) {
	case 'f':
		o->foreground = true;
		return 0;
	case 'C':
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
		return 0;
	case 'c':
		o->config = optarg;
		return 0;
	case 'x':
		a->xaddr = optarg;
		return 0;
	case 'A':
		return 0; /* append to the log: set by has_flag() */
	case 'd':
		o->dump = true;
		return 0;
	case 't':
		return 0; /* o->check, set by has_flag() */
	case 'L':
		if (o->check) { /* -t: standard error, never the daemon's
				 * log file (-Lf would truncate it) */
			skip_log_option(optarg, argc, argv);
			return 0;
		}
		o->logging_set = true;
		return apply_log_option(argc, argv, a);
	case 'D':
		debug_register_tokens(optarg);
		snmp_set_do_debugging(1);
		return 0;
	case 'p':
		o->pidfile = optarg;
		return 0;
	case 'u':
		a->priv.user = optarg;
		return 0;
	case 'g':
		a->priv.group = optarg;
		return 0;
	case 'h':
	case 'H':
	case 'v':
		print_and_exit(ch, argv[0]);
		return 0;
	default:
		return bad_option(ch, argv);
	}
}

int agent_options_parse(int argc, char **argv, struct options *o,
			struct agent *a)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'v'},
	    {"dump", no_argument, NULL, 'd'},
	    {NULL, 0, NULL, 0},
	};
	int ch;

	o->check = has_flag(argc, argv, 't');
	if (!o->check && has_flag(argc, argv, 'A'))
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_APPEND_LOGFILES, 1);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, OPTSTRING, longopts, NULL)) != -1) {
		int rc = apply_option(ch, argc, argv, o, a);
		if (rc != 0)
			return rc;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0],
			argv[optind]);
		return -1;
	}
	return agent_privilege_resolve(&a->priv) != 0 ? OPTIONS_FAILED : 0;
}
