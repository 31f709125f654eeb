/*
 * config.c - the generic tokens; every other token is handed to the
 * backend that owns it (backend.h), whatever its prefix.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend.h"

const struct config_token config_tokens[] = {
    {"backend", NULL}, /* the backends built in: config_token_usage() */
    {"pollInterval", "SECONDS (1..3600)"},
    {"agentXSocket", "ADDRESS (unix:PATH, PATH or tcp:HOST:PORT; -x wins)"},
    {"agentxPingInterval", "SECONDS (1..3600)"},
    {"alarm", "NAME METRIC sum|each|CPU rate|absolute RISING FALLING "
	      "[rising|falling|both]"},
    {NULL, NULL},
};

const char *config_token_usage(const struct config_token *t, char *buf,
			       size_t len)
{
	if (t->usage)
		return t->usage;
	/* 'backend': the registry's names, as -v lists them */
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; backend_at(i) && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? "|" : "",
				 backend_at(i)->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->backend, sizeof(c->backend), "sim");
	c->poll_interval = POLL_INTERVAL_DEFAULT;
	snprintf(c->agentx_socket, sizeof(c->agentx_socket), "%s",
		 AGENTX_SOCKET_DEFAULT);
	c->agentx_ping = AGENTX_PING_DEFAULT;
}

void config_free(struct config *c)
{
	for (size_t i = 0; i < CONFIG_BACKENDS_MAX; i++) {
		const struct backend_ops *ops = backend_at(i);
		if (c->settings[i] && ops && ops->settings_free)
			ops->settings_free(c->settings[i]);
		free(c->settings[i]);
	}
	free(c->alarms);
	memset(c, 0, sizeof(*c));
}

const void *config_settings(const struct config *c,
			    const struct backend_ops *ops)
{
	long i = backend_index(ops);
	return i >= 0 && c->settings[i] ? c->settings[i] : ops->defaults;
}

/* The settings of ops in c, made from its defaults on first use. */
static void *settings_for(struct config *c, const struct backend_ops *ops)
{
	long i = backend_index(ops);
	if (i < 0)
		return NULL;
	if (!c->settings[i] && (c->settings[i] = malloc(ops->settings_size)))
		memcpy(c->settings[i], ops->defaults, ops->settings_size);
	return c->settings[i];
}

static int apply_alarm(struct config *c, const char *args, char *err,
		       size_t len)
{
	struct alarm_config a;
	if (alarm_config_parse(args, &a, err, len))
		return -1;
	for (size_t i = 0; i < c->nalarms; i++)
		if (strcmp(c->alarms[i].name, a.name) == 0)
			return parse_fail(
			    err, len, "alarm: name '%s' used twice", a.name);
	if (c->nalarms == ALARMS_MAX)
		return parse_fail(err, len, "alarm: more than %d alarms",
				  ALARMS_MAX);
	struct alarm_config *p =
	    realloc(c->alarms, (c->nalarms + 1) * sizeof(*p));
	if (!p)
		return parse_fail(err, len, "out of memory");
	c->alarms = p;
	c->alarms[c->nalarms++] = a;
	return 0;
}

static int apply_generic(struct config *c, const char *token, char **w, int n,
			 char *err, size_t len)
{
	uint64_t v;

	if (strcasecmp(token, "backend") == 0) {
		char names[128];
		if (n != 1 || !backend_find(w[0]))
			return parse_fail(
			    err, len, "backend: expected one of %s, got '%s'",
			    backend_names(names, sizeof(names)), n ? w[0] : "");
		snprintf(c->backend, sizeof(c->backend), "%s", w[0]);
		c->backend_set = true;
		return 0;
	}
	if (strcasecmp(token, "agentXSocket") == 0) {
		if (n != 1 || strlen(w[0]) >= sizeof(c->agentx_socket) ||
		    (strncmp(w[0], "unix:", 5) && w[0][0] != '/' &&
		     strncmp(w[0], "tcp:", 4) && strncmp(w[0], "tcp6:", 5)))
			return parse_fail(err, len,
					  "%s: expected one address: unix:PATH, "
					  "PATH or tcp:HOST:PORT",
					  token);
		snprintf(c->agentx_socket, sizeof(c->agentx_socket), "%s",
			 w[0]);
		return 0;
	}
	if (strcasecmp(token, "agentxPingInterval") == 0) {
		if (parse_number(token, w, n, 1, AGENTX_PING_MAX, &v, err, len))
			return -1;
		c->agentx_ping = (unsigned)v;
		return 0;
	}
	if (parse_number(token, w, n, 1, POLL_INTERVAL_MAX, &v, err, len))
		return -1;
	c->poll_interval = (unsigned)v;
	return 0;
}

int config_apply(struct config *c, const char *token, const char *args,
		 char *err, size_t len)
{
	char buf[PARSE_LINE_MAX];
	char *w[BACKEND_WORDS_MAX + 1];

	if (strlen(args ? args : "") >= PARSE_LINE_MAX)
		return parse_fail(err, len, "%s: line too long", token);
	if (strcasecmp(token, "alarm") == 0)
		return apply_alarm(c, args, err, len);
	int n = parse_words_copy(args, buf, sizeof(buf), w, BACKEND_WORDS_MAX);
	for (const struct config_token *t = config_tokens; t->token; t++)
		if (strcasecmp(token, t->token) == 0)
			return apply_generic(c, token, w, n, err, len);
	const struct backend_ops *ops = backend_owning(token);
	if (!ops)
		return parse_fail(err, len, "unknown token '%s'", token);
	void *s = settings_for(c, ops);
	if (!s)
		return parse_fail(err, len, "out of memory");
	return ops->apply(s, token, w, n, err, len);
}

int config_validate(const struct config *c, char *err, size_t len)
{
	const struct backend_ops *b = backend_find(c->backend);
	if (!b)
		return parse_fail(err, len, "backend '%s' is not built in",
				  c->backend);
	if (b->validate)
		return b->validate(config_settings(c, b), err, len);
	return 0;
}
