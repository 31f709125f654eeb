/*
 * config.c - the generic tokens; every other token is handed to the
 * section that owns it (a backend's), whatever its prefix.
 */
#include "config/config.h"

#include "config/ax_address.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* The section at position i of sections; NULL past the last. */
static const struct config_section *
section_at(const struct config_section *const *sections, size_t i)
{
	if (!sections || i >= CONFIG_SECTIONS_MAX)
		return NULL;
	for (size_t k = 0; k < i; k++)
		if (!sections[k])
			return NULL;
	return sections[i];
}

/* The sections' names joined by sep into buf: all of them, or only
 * those built in. */
static const char *section_names(const struct config_section *const *sections,
				 const char *sep, bool built_only, char *buf,
				 size_t len)
{
	size_t used = 0;
	const struct config_section *s;
	buf[0] = '\0';
	for (size_t i = 0; (s = section_at(sections, i)) && used < len; i++) {
		if (built_only && s->not_built)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s",
				 used ? sep : "", s->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

const char *config_token_usage(const struct config_token *t,
			       const struct config_section *const *sections,
			       char *buf, size_t len)
{
	if (t->usage)
		return t->usage;
	/* 'backend': every section's name, built in or not (-h says which
	 * are; a section's tokens say "not built in") */
	return section_names(sections, "|", false, buf, len);
}

void config_defaults(struct config *c,
		     const struct config_section *const *sections)
{
	memset(c, 0, sizeof(*c));
	c->sections = sections;
	snprintf(c->backend, sizeof(c->backend), "sim");
	c->poll_interval = POLL_INTERVAL_DEFAULT;
	snprintf(c->agentx_socket, sizeof(c->agentx_socket), "%s",
		 AGENTX_SOCKET_DEFAULT);
	c->agentx_ping = AGENTX_PING_DEFAULT;
	c->alarm_set_max_rows = ALARM_SET_MAX_ROWS_DEFAULT;
	c->alarm_set_not_ready = ALARM_SET_NOT_READY_DEFAULT;
}

void config_free(struct config *c)
{
	for (size_t i = 0; i < CONFIG_SECTIONS_MAX; i++) {
		const struct config_section *s = section_at(c->sections, i);
		if (c->settings[i] && s)
			config_token_table_release(s->tokens, c->settings[i]);
		free(c->settings[i]);
	}
	config_token_table_release(config_tokens, c);
	memset(c, 0, sizeof(*c));
}

/* The position of s among c's sections; -1 if it is none of them. */
static long section_index(const struct config *c,
			  const struct config_section *s)
{
	for (size_t i = 0; section_at(c->sections, i); i++)
		if (section_at(c->sections, i) == s)
			return (long)i;
	return -1;
}

/* The section of c called name; NULL if none. */
static const struct config_section *section_named(const struct config *c,
						  const char *name)
{
	const struct config_section *s;
	for (size_t i = 0; name && (s = section_at(c->sections, i)); i++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* The section of c whose tokens include token (any case); NULL if none. */
static const struct config_section *section_owning(const struct config *c,
						   const char *token)
{
	const struct config_section *s;
	for (size_t i = 0; (s = section_at(c->sections, i)); i++)
		if (config_token_find(s->tokens, token))
			return s;
	return NULL;
}

const void *config_settings(const struct config *c,
			    const struct config_section *s)
{
	long i = section_index(c, s);
	return i >= 0 && c->settings[i] ? c->settings[i] : s->defaults;
}

/* The settings of s in c, made from its defaults on first use. */
static void *settings_for(struct config *c, const struct config_section *s)
{
	long i = section_index(c, s);
	if (i < 0)
		return NULL;
	if (!c->settings[i] && (c->settings[i] = malloc(s->settings_size)))
		memcpy(c->settings[i], s->defaults, s->settings_size);
	return c->settings[i];
}

/* alarm NAME METRIC ...: the words joined again for the alarm parser. */
static int parse_alarm(void *settings, const char *token, char **w, int n,
		       char *err, size_t len)
{
	struct config *c = settings;
	char args[PARSE_LINE_MAX] = "";
	struct alarm_config a;

	for (int i = 0; i < n; i++) {
		size_t used = strlen(args);
		snprintf(args + used, sizeof(args) - used, "%s%s", i ? " " : "",
			 w[i]);
	}
	if (alarm_config_parse(args, &a, err, len))
		return -1;
	for (size_t i = 0; i < c->nalarms; i++)
		if (strcmp(c->alarms[i].name, a.name) == 0)
			return util_parse_fail(
			    err, len, "alarm: name '%s' used twice", a.name);
	if (c->nalarms == ALARMS_MAX)
		return util_parse_fail(err, len, "alarm: more than %d alarms",
				       ALARMS_MAX);
	struct alarm_config *p =
	    realloc(c->alarms, (c->nalarms + 1) * sizeof(*p));
	if (!p)
		return util_parse_fail(err, len, "out of memory");
	c->alarms = p;
	c->alarms[c->nalarms++] = a;
	return 0;
}

static void release_alarms(void *settings)
{
	struct config *c = settings;
	free(c->alarms);
	c->alarms = NULL;
	c->nalarms = 0;
}

static int parse_backend(void *settings, const char *token, char **w, int n,
			 char *err, size_t len)
{
	struct config *c = settings;
	char names[128];
	const struct config_section *s = n == 1 ? section_named(c, w[0]) : NULL;
	if (s && s->not_built)
		return util_parse_fail(err, len,
				       "%s %s: not built into this agent (%s); "
				       "built in: %s",
				       token, w[0], s->not_built,
				       section_names(c->sections, ", ", true,
						     names, sizeof(names)));
	if (!s)
		return util_parse_fail(
		    err, len, "%s: expected one of %s, got '%s'", token,
		    section_names(c->sections, ", ", true, names,
				  sizeof(names)),
		    n ? w[0] : "");
	snprintf(c->backend, sizeof(c->backend), "%s", w[0]);
	c->backend_set = true;
	return 0;
}

static int parse_agentx_socket(void *settings, const char *token, char **w,
			       int n, char *err, size_t len)
{
	struct config *c = settings;
	struct ax_address a;
	char why[400];
	if (n != 1)
		return util_parse_fail(
		    err, len, "%s: expected one address: " AX_ADDRESS_GRAMMAR,
		    token);
	if (strlen(w[0]) >= sizeof(c->agentx_socket))
		return util_parse_fail(err, len, "%s: the address is too long",
				       token);
	if (config_address_parse(w[0], &a, why, sizeof(why)) != 0)
		return util_parse_fail(err, len, "%s: %s", token, why);
	snprintf(c->agentx_socket, sizeof(c->agentx_socket), "%s", w[0]);
	return 0;
}

/* cpuGroup NAME CPULIST: groups never overlap, names are unique. */
static int parse_cpu_group(void *settings, const char *token, char **w, int n,
			   char *err, size_t len)
{
	struct config *c = settings;
	char why[300];
	if (n != 2)
		return util_parse_fail(
		    err, len, "%s: expected NAME CPULIST (as 0-3,8)", token);
	if (util_cpu_groups_add(&c->groups, w[0], w[1], why, sizeof(why)) != 0)
		return util_parse_fail(err, len, "%s: %s", token, why);
	return 0;
}

static bool same_cpu_groups(const void *a, const void *b)
{
	return util_cpu_groups_same(&((const struct config *)a)->groups,
				    &((const struct config *)b)->groups);
}

static void release_cpu_groups(void *settings)
{
	util_cpu_groups_free(&((struct config *)settings)->groups);
}

/* The generic tokens over struct config (what a change does is the
 * agent's business: poll.c and main.c apply each). */
const struct config_token config_tokens[] = {
    TOKEN_CUSTOM("backend", NULL, struct config, backend, true,
		 parse_backend, NULL, NULL),
    TOKEN_UINT("pollInterval", "SECONDS (1..3600)", struct config,
	       poll_interval, 1, POLL_INTERVAL_MAX, false),
    TOKEN_CUSTOM("agentXSocket",
		 "ADDRESS (" AX_ADDRESS_GRAMMAR "; -x wins)",
		 struct config, agentx_socket, false, parse_agentx_socket,
		 NULL, NULL),
    TOKEN_UINT("agentxPingInterval", "SECONDS (1..3600)", struct config,
	       agentx_ping, 1, AGENTX_PING_MAX, false),
    TOKEN_CUSTOM("alarm",
		 "NAME METRIC|stat.NAME sum|each|CPU rate|absolute RISING "
		 "FALLING [rising|falling|both]",
		 struct config, alarms, false, parse_alarm, NULL,
		 release_alarms),
    TOKEN_YESNO("alarmSet",
		"yes|no (default no: managers may create, change and "
		"destroy alarms over SNMP)",
		struct config, alarm_set, false),
    TOKEN_UINT("alarmSetMaxRows", "ROWS (0..64511, default 100)",
	       struct config, alarm_set_max_rows, 0,
	       ALARM_INDEX_MAX - ALARM_CONFIG_INDEX_MAX, false),
    TOKEN_UINT("alarmSetNotReadyTimeout",
	       "SECONDS (0..86400, default 300; 0: never): a row created "
	       "over SNMP and left notReady is removed after it",
	       struct config, alarm_set_not_ready, 0, 86400, false),
    TOKEN_CUSTOM("cpuGroup",
		 "NAME CPULIST (repeatable; replaces the backend's groups, "
		 "NUMA nodes): a group of CPUs summed in hwR10kEvCtrGroupTable",
		 struct config, groups, false, parse_cpu_group, same_cpu_groups,
		 release_cpu_groups),
    TOKEN_END,
};

int config_apply(struct config *c, const char *token, const char *args,
		 char *err, size_t len)
{
	char buf[PARSE_LINE_MAX];
	char *w[CONFIG_WORDS_MAX + 1];
	const struct config_token *t = config_token_find(config_tokens, token);
	void *settings = c;

	if (strlen(args ? args : "") >= PARSE_LINE_MAX)
		return util_parse_fail(err, len, "%s: line too long", token);
	int n =
	    util_parse_words_copy(args, buf, sizeof(buf), w, CONFIG_WORDS_MAX);
	if (n > CONFIG_WORDS_MAX)
		return util_parse_fail(err, len, "%s: more than %d words",
				       token, CONFIG_WORDS_MAX);
	if (!t) {
		const struct config_section *s = section_owning(c, token);
		if (!s)
			return util_parse_fail(err, len, "unknown token '%s'",
					       token);
		t = config_token_find(s->tokens, token);
		if (!(settings = settings_for(c, s)))
			return util_parse_fail(err, len, "out of memory");
	}
	return config_token_apply(t, settings, w, n, err, len);
}

int config_validate(const struct config *c, char *err, size_t len)
{
	const struct config_section *s = section_named(c, c->backend);
	if (!s || s->not_built)
		return util_parse_fail(err, len, "backend '%s' is not built in",
				       c->backend);
	if (s->validate)
		return s->validate(config_settings(c, s), err, len);
	return 0;
}
