/*
 * config.h - the agent's validated configuration.
 *
 * Lines come from net-snmp's config machinery (agent/confload.c registers
 * every token); config_apply() checks one line into a staging config, so
 * a bad line never touches the running one.  This file knows the generic
 * tokens (backend, pollInterval, the AgentX ones, alarm); every other
 * token belongs to a backend, whose settings it stores (backend.h).
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
#include "util/parse.h"
#include "backend/registry.h"

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

struct backend_ops;

struct config {
	char backend[CONFIG_BACKEND_MAX];
	bool backend_set; /* a 'backend' line was read (the agent needs one) */
	unsigned poll_interval;
	char agentx_socket[AGENTX_SOCKET_MAX]; /* agentXSocket (-x wins) */
	unsigned agentx_ping;		       /* agentxPingInterval, s */
	/* each backend's own settings, by registry position; NULL until a
	 * line of that backend is read (its defaults apply) */
	void *settings[BACKENDS_MAX];
	struct alarm_config
	    *alarms; /* in config order: index + 1 = MIB index */
	size_t nalarms;
	bool alarm_set;		     /* alarmSet: sets are accepted */
	unsigned alarm_set_max_rows; /* alarmSetMaxRows */
	unsigned alarm_set_not_ready; /* alarmSetNotReadyTimeout, s */
};

void config_defaults(struct config *c);
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
/* A token's usage; for 'backend', made from the registry into buf. */
const char *config_token_usage(const struct config_token *t, char *buf,
			       size_t len);

/* The settings of backend ops in c: its own, or its defaults. */
const void *config_settings(const struct config *c,
			    const struct backend_ops *ops);

#endif
