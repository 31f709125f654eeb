/*
 * confload.c - the agent's config tokens on net-snmp's config machinery.
 *
 * Each token is registered for the application type "hw-r10kevctr", so the
 * lines are read from hw-r10kevctr.conf on SNMPCONFPATH and from the -c
 * file.  A handler checks its line with config_apply() into a staging
 * config and reports errors with config_perror(), which names the file and
 * line.  Every message of warning or error severity logged while the
 * files are read (our errors, and net-snmp's own, such as an unknown
 * token) is counted, whatever its wording, and any makes the whole load
 * fail: the daemon refuses to start, and a SIGHUP reload keeps the
 * running config.  Only the nicer message for an unknown token reads
 * net-snmp's wording; if that changes, the line still counts.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "confcheck.h"
#include "confwhere.h"

/* The load the handlers read into and count for, set once by
 * agent_confload_register().  net-snmp calls a config handler with the token
 * and the line only (register_app_config_handler takes no closure
 * argument), and the logging callback's client argument cannot carry it
 * either: snmp_shutdown()'s clear_callback() free()s every callback's
 * client argument, which would free a pointer into the agent's context. */
static struct confload *loader;

static void on_line(const char *token, char *line)
{
	char err[256];

	if (!loader || !loader->staging)
		return; /* read outside a load (cannot happen): ignore */
	if (config_apply(loader->staging, token, line, err, sizeof(err)) != 0)
		config_perror(err); /* logs FILE: line N: Error: err */
}

/*
 * net-snmp's agent library accepts agentuser/agentgroup for every agent,
 * but only snmpd acts on them: here they would be read and ignored while
 * the agent keeps its privileges.  Refuse them rather than pretend: the
 * agent drops privileges with -u/-g (privilege.c).
 */
static void on_privilege_token(const char *token, char *line)
{
	char msg[200];
	snprintf(msg, sizeof(msg),
		 "%s: not supported: the agent takes its user and group "
		 "from the command line (-u USER, -g GROUP), not from "
		 "a config file",
		 token);
	config_perror(msg);
}

/*
 * net-snmp words an unknown token as a warning ("FILE: line N: Warning:
 * Unknown token: X."), but this agent refuses the file: agent_confload_end()
 * says so, as an error with the same file and line.  (Not from on_log:
 * net-snmp holds its callback lock there, so logging would deadlock.)
 */
static void note_unknown_token(struct confload *cl, const char *msg)
{
	regmatch_t m[4];

	if (regexec(&cl->unknown_token, msg, 4, m, 0) != 0)
		return;
	if (cl->unknown_count < CONFLOAD_UNKNOWN_MAX)
		snprintf(cl->unknown_said[cl->unknown_count],
			 sizeof(cl->unknown_said[0]),
			 "%.*s: line %.*s: Error: '%.*s' is not a token of "
			 AGENT_NAME ".conf (hw-r10kevctr-agent -H lists them)",
			 (int)(m[1].rm_eo - m[1].rm_so), msg + m[1].rm_so,
			 (int)(m[2].rm_eo - m[2].rm_so), msg + m[2].rm_so,
			 (int)(m[3].rm_eo - m[3].rm_so), msg + m[3].rm_so);
	cl->unknown_count++;
}

static void say_unknown_tokens(struct confload *cl)
{
	cl->replaying = true;
	for (unsigned i = 0; i < cl->unknown_count && i < CONFLOAD_UNKNOWN_MAX;
	     i++)
		snmp_log(LOG_ERR, "%s\n", cl->unknown_said[i]);
	if (cl->unknown_count > CONFLOAD_UNKNOWN_MAX)
		snmp_log(LOG_ERR, "config: %u more unknown tokens\n",
			 cl->unknown_count - CONFLOAD_UNKNOWN_MAX);
	cl->replaying = false;
	cl->unknown_count = 0;
}

static int on_log(int major, int minor, void *server, void *client)
{
	const struct snmp_log_message *m = server;
	struct confload *cl = loader;

	/* counted by severity, not by wording (doc/architecture.md) */
	if (cl->replaying || !cl->staging || m->priority > LOG_WARNING)
		return SNMPERR_SUCCESS;
	cl->bad_lines++;
	note_unknown_token(cl, m->msg);
	return SNMPERR_SUCCESS;
}

/* net-snmp's library settings for this agent, before init_snmp(): it is
 * used for the config files, logging and alarms only; the AgentX session
 * is session.c's. */
void agent_confload_library_setup(void)
{
	/* The subagent works with numeric OIDs only: load no MIB modules
	 * (Debian's default list would only log errors about missing ones). */
	setenv("MIBS", "", 1);
	setenv("MIBDIRS", "", 1);
	/* the config files are AGENT_NAME.conf (set before the handlers are
	 * registered) */
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_APPTYPE,
			      AGENT_NAME);
	/* alarms run from the main loop (snmp_select_info, run_alarms),
	 * never from SIGALRM */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			       NETSNMP_DS_LIB_ALARM_DONT_USE_SIG, 1);
	/* net-snmp's own persistent store (PERSISTDIR/hw-r10kevctr.conf,
	 * written at exit, read as config) is off: the agent has nothing
	 * of net-snmp's to keep, and an unprivileged service user could
	 * not write it.  The alarm rows created over SNMP have a file of
	 * their own in the same directory, written at each change
	 * (alarms.c). */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			       NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			       NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
}

void agent_confload_register(struct confload *cl)
{
	if (cl->registered)
		return;
	loader = cl;
	regcomp(&cl->unknown_token,
		"^(.*): line ([0-9]+): Warning: Unknown token: ([^ \n]*)\\.",
		REG_EXTENDED);
	for (const struct config_token *t = config_tokens; t->token; t++)
		register_app_config_handler(
		    t->token, on_line, NULL,
		    config_token_usage(t, backend_sections(), cl->backends,
				       sizeof(cl->backends)));
	for (const struct config_section *const *s = backend_sections(); *s;
	     s++)
		for (const struct config_token *t = (*s)->tokens; t && t->token;
		     t++)
			register_app_config_handler(t->token, on_line, NULL,
						    t->usage);
	register_app_config_handler("agentuser", on_privilege_token, NULL,
				    NULL);
	register_app_config_handler("agentgroup", on_privilege_token, NULL,
				    NULL);
	netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK, LOG_WARNING);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
			       on_log, NULL);
	cl->registered = true;
}

void agent_confload_begin(struct confload *cl, struct config *cfg)
{
	config_defaults(cfg, backend_sections());
	cl->staging = cfg;
	cl->bad_lines = 0;
	cl->unknown_count = 0;
}

/*
 * An installed agent with no backend configured must not pretend (the sim
 * would serve invented counters): name the files it read (or where it
 * looked, when there were none) and stop.
 */
static void no_backend(void)
{
	char files[1024], names[128];
	bool only = netsnmp_ds_get_boolean(NETSNMP_DS_LIBRARY_ID,
					   NETSNMP_DS_LIB_DONT_READ_CONFIGS);

	agent_confwhere_files(files, sizeof(files));
	if (!files[0])
		snprintf(files, sizeof(files), "config (no file: %s%s)",
			 only ? "" : AGENT_NAME ".conf in ",
			 only ? "-C without -c" : get_configuration_directory());
	snmp_log(LOG_ERR,
		 "%s: no 'backend' line; add one: 'backend BACKEND', BACKEND "
		 "one of %s (sim serves invented demo counters)\n",
		 files, backend_names(names, sizeof(names)));
}

int agent_confload_end(struct confload *cl)
{
	struct config *staging = cl->staging;
	char err[256];

	say_unknown_tokens(cl);
	/* Logged as FILE: line N: Error, so on_log() counts each. */
	if (staging)
		agent_confwhere_nul_lines();

	/* The checks across lines run once every line is good (a bad
	 * 'backend' or replayFile line is one problem, not two).  Their
	 * messages are errors logged while staging is set: on_log() counts
	 * each once, as every other problem. */
	bool whole = cl->bad_lines == 0 && !cl->files_left_out;
	if (staging && whole && !staging->backend_set)
		no_backend();
	if (staging && whole && config_validate(staging, err, sizeof(err)) != 0)
		agent_confcheck_say_across(staging, err);
	cl->staging = NULL;
	return cl->bad_lines;
}

/*
 * A file named with -c must be there: net-snmp reads an optional config
 * file that is missing, unreadable or a directory as if it were empty,
 * which would start (or reload) the defaults in its place.
 */
static int check_file(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0) {
		snmp_log(LOG_ERR, "%s: cannot read the config file: %s\n", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		snmp_log(LOG_ERR, "%s: not a regular file\n", path);
		return -1;
	}
	return 0;
}

/*
 * -t goes on after a -c file that cannot be read (named by check_file):
 * net-snmp reads only the others (it would add two warnings of its own
 * for each such file), and the checks across lines are left out, as
 * after a bad line: a missing file is one problem, not also "no backend".
 */
void agent_confload_leave_out_unreadable(struct confload *cl)
{
	const char *list = netsnmp_ds_get_string(NETSNMP_DS_LIBRARY_ID,
						 NETSNMP_DS_LIB_OPTIONALCONFIG);
	char *copy = list ? strdup(list) : NULL, *save = NULL;
	char *keep = list ? calloc(1, strlen(list) + 1) : NULL;
	struct stat st;

	for (char *f = copy && keep ? strtok_r(copy, ",", &save) : NULL; f;
	     f = strtok_r(NULL, ",", &save)) {
		if (access(f, R_OK) != 0 || stat(f, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (keep[0])
			strcat(keep, ",");
		strcat(keep, f);
	}
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
			      NETSNMP_DS_LIB_OPTIONALCONFIG,
			      keep && keep[0] ? keep : NULL);
	cl->files_left_out = true;
	free(copy);
	free(keep);
}

int agent_confload_check_files(const char *list)
{
	char *copy = list ? strdup(list) : NULL, *save = NULL;
	int bad = 0;

	if (list && !copy)
		return 1;
	for (char *f = copy ? strtok_r(copy, ",", &save) : NULL; f;
	     f = strtok_r(NULL, ",", &save))
		bad += check_file(f) != 0;
	free(copy);
	return bad;
}

char *agent_confload_absolute(const char *list)
{
	char *copy = strdup(list), *save = NULL, *out = NULL;
	size_t used = 0;

	if (!copy)
		return NULL;
	for (char *f = strtok_r(copy, ",", &save); f;
	     f = strtok_r(NULL, ",", &save)) {
		char *abs = realpath(f, NULL);
		const char *name = abs ? abs : f; /* check_file says why */
		size_t n = strlen(name);
		char *grown = realloc(out, used + n + 2);
		if (!grown) {
			free(abs);
			free(out);
			free(copy);
			return NULL;
		}
		out = grown;
		if (used)
			out[used++] = ',';
		memcpy(out + used, name, n + 1);
		used += n;
		free(abs);
	}
	free(copy);
	return out;
}

int agent_confload_reread(struct confload *cl, struct config *cfg)
{
	const char *optional = netsnmp_ds_get_string(
	    NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_OPTIONALCONFIG);

	int unreadable = agent_confload_check_files(optional);
	if (unreadable) { /* each named: FILE: cannot read ... */
		config_defaults(cfg, backend_sections());
		return unreadable;
	}
	agent_confload_begin(cl, cfg);
	if (!netsnmp_ds_get_boolean(NETSNMP_DS_LIBRARY_ID,
				    NETSNMP_DS_LIB_DONT_READ_CONFIGS))
		read_config_files(NORMAL_CONFIG);
	if (optional) { /* as read_configs() does: comma-separated files */
		char *list = strdup(optional), *save = NULL;
		for (char *f = list ? strtok_r(list, ",", &save) : NULL; f;
		     f = strtok_r(NULL, ",", &save))
			read_config_with_type(f, AGENT_NAME);
		free(list);
	}
	return agent_confload_end(cl);
}
