/*
 * config.h - the agent's validated configuration.
 *
 * Lines come from net-snmp's config machinery (agent/confload.c registers
 * every token); config_apply() checks one line into a staging config, so
 * a bad line never touches the running one.  This file knows the generic
 * tokens (backend, pollInterval, the AgentX ones, alarm); every other
 * token belongs to a section, whose settings it stores: the caller hands
 * the sections in (config_defaults), each backend's ops holding one
 * (backend/registry.h), so the config knows no backend.
 * Every token is a row of a table (config_token.h): parsing, -H and the
 * reload decision come from the rows.  Reference: hw-r10kevctr.conf(5).
 */
#ifndef HWR10K_CONFIG_H
#define HWR10K_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alarm/alarm.h"
#include "config/config_token.h"
#include "util/cpugroups.h"
#include "util/parse.h"

#define CONFIG_BACKEND_MAX    16
#define POLL_INTERVAL_DEFAULT 5
#define POLL_INTERVAL_MAX     3600
#define ALARMS_MAX	      ALARM_CONFIG_INDEX_MAX
#define ALARM_SET_MAX_ROWS_DEFAULT 100
#define ALARM_SET_NOT_READY_DEFAULT 300 /* s: RFC 2579 "about 5 minutes" */
#define AGENTX_SOCKET_DEFAULT "unix:/var/agentx/master"
#define AGENTX_SOCKET_MAX     256
#define AGENTX_PING_DEFAULT   2
#define AGENTX_PING_MAX	      3600
/* The most words a config line has (alarm takes 8). */
#define CONFIG_WORDS_MAX      10
/* The most sections a config has (backends a binary can have built in). */
#define CONFIG_SECTIONS_MAX   8

/*
 * A section of the config beyond the generic tokens, with settings of its
 * own (a backend's): its name, as the 'backend' line gives it, its config
 * tokens (config_token.h rows over its settings struct, NULL-terminated),
 * the size and defaults of that struct, the check of the settings
 * across lines (message in err; NULL: none), and whether its backend is
 * built in.  config.c parses, compares,
 * checks and frees them through these.
 */
struct config_section {
	const char *name;
	const struct config_token *tokens;
	size_t settings_size;
	const void *defaults;
	int (*validate)(const void *settings, char *err, size_t errlen);
	/* NULL where the section's backend is built into this binary; else
	 * why not ("configure found no libpcp ..."): its lines are read and
	 * checked all the same, and a 'backend' line naming it is refused
	 * with this reason. */
	const char *not_built;
};

struct config {
	char backend[CONFIG_BACKEND_MAX];
	bool backend_set; /* a 'backend' line was read (the agent needs one) */
	unsigned poll_interval;
	char agentx_socket[AGENTX_SOCKET_MAX]; /* agentXSocket (-x wins) */
	unsigned agentx_ping;		       /* agentxPingInterval, s */
	/* the sections config_defaults was given (NULL-terminated) and
	 * each one's settings, by position; NULL until a line of that
	 * section is read (its defaults apply) */
	const struct config_section *const *sections;
	void *settings[CONFIG_SECTIONS_MAX];
	struct alarm_config
	    *alarms; /* in config order: index + 1 = MIB index */
	size_t nalarms;
	bool alarm_set;		     /* alarmSet: sets are accepted */
	unsigned alarm_set_max_rows; /* alarmSetMaxRows */
	unsigned alarm_set_not_ready; /* alarmSetNotReadyTimeout, s */
	/* cpuGroup lines, in order (index + 1 = the MIB's index); when
	 * there is one they replace the backend's groups (NUMA nodes) */
	struct cpu_groups groups;
};

/* The defaults, with the sections whose tokens c takes besides the
 * generic ones (NULL-terminated, at most CONFIG_SECTIONS_MAX; NULL: none):
 * the backends', backend_sections(). */
void config_defaults(struct config *c,
		     const struct config_section *const *sections);
void config_free(struct config *c);

/*
 * Apply one config line: token and the rest of the line.  Returns 0, or -1
 * with a message (no file/line: the caller's config machinery adds them).
 */
int config_apply(struct config *c, const char *token, const char *args,
		 char *err, size_t errlen);
/* Checks across lines, after the whole file was read. */
int config_validate(const struct config *c, char *err, size_t errlen);

/* The generic tokens, NULL-terminated (each backend lists its own). */
extern const struct config_token config_tokens[];
/* A token's usage; for 'backend', made from the sections' names into
 * buf. */
const char *config_token_usage(const struct config_token *t,
			       const struct config_section *const *sections,
			       char *buf, size_t len);

/* The settings of section s in c: its own, or its defaults. */
const void *config_settings(const struct config *c,
			    const struct config_section *s);

#endif
