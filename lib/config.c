/* config.c - validates config lines into struct config. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "perfspec.h"

const struct config_token config_tokens[] = {
    {"backend", "sim|perf|replay"},
    {"pollInterval", "SECONDS (1..3600)"},
    {"simCpus", "N (1..4096)"},
    {"simRate", "METRIC PER_SECOND|off"},
    {"simSeed", "N"},
    {"simCpurev", "MAJOR.MINOR"},
    {"perfEvent", "METRIC SPEC|off"},
    {"perfGroupSize", "N (1..64)"},
    {"perfSysfs", "PATH"},
    {"replayFile", "PATH"},
    {"replayLoop", "yes|no"},
    {"replayCounterWidth", "BITS (32, 48 or 64)"},
    {"alarm", "NAME METRIC sum|each|CPU rate|absolute RISING FALLING "
	      "[rising|falling|both]"},
    {NULL, NULL},
};

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->backend, sizeof(c->backend), "sim");
	c->poll_interval = POLL_INTERVAL_DEFAULT;
	c->sim.cpus = SIM_CPUS_DEFAULT;
	for (int i = 0; i < COUNTER_COUNT; i++)
		c->sim.rate[i] = counters[i].sim_rate;
	snprintf(c->sim.cpurev, sizeof(c->sim.cpurev), SIM_CPUREV_DEFAULT);
	c->replay.width = 64;
	c->perf_group_size = PERF_GROUP_SIZE_DEFAULT;
}

const char *config_perf_sysfs(const struct config *c)
{
	return c->perf_sysfs ? c->perf_sysfs : "/sys";
}

void config_free(struct config *c)
{
	for (int i = 0; i < COUNTER_COUNT; i++)
		free(c->perf_event[i]);
	free(c->replay.file);
	free(c->perf_sysfs);
	free(c->alarms);
	memset(c, 0, sizeof(*c));
}

int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int fail(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split args into at most n words (copied into buf); returns word count. */
static int words(const char *args, char *buf, size_t buflen, char **w, int n)
{
	int k = 0;
	snprintf(buf, buflen, "%s", args ? args : "");
	for (char *save = NULL, *t = strtok_r(buf, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (k == n)
			return n + 1;
		w[k++] = t;
	}
	return k;
}

static int counter_arg(const char *name, const char *token, char *err,
		       size_t len)
{
	int c = counter_index_by_name(name);
	if (c < 0)
		fail(err, len,
		     "%s: '%s' is not a counter metric (expected e.g. "
		     "hw.r10kevctr.cycles)",
		     token, name);
	return c;
}

static int apply_number(const char *token, char **w, int n, uint64_t min,
			uint64_t max, uint64_t *out, char *err, size_t len)
{
	if (n != 1 || parse_u64(w[0], max, out) || *out < min)
		return fail(
		    err, len, "%s: expected one whole number from %llu to %llu",
		    token, (unsigned long long)min, (unsigned long long)max);
	return 0;
}

static bool valid_cpurev(const char *s)
{
	unsigned a, b;
	return strlen(s) <= CPUREV_MAX && cpurev_parse(s, &a, &b) == 0;
}

static int apply_sim(struct config *c, const char *token, char **w, int n,
		     char *err, size_t len)
{
	uint64_t v;

	if (strcasecmp(token, "simCpus") == 0) {
		if (apply_number(token, w, n, 1, SIM_CPUS_MAX, &v, err, len))
			return -1;
		c->sim.cpus = (unsigned)v;
	} else if (strcasecmp(token, "simSeed") == 0) {
		if (apply_number(token, w, n, 0, UINT64_MAX, &v, err, len))
			return -1;
		c->sim.seed = v;
	} else if (strcasecmp(token, "simCpurev") == 0) {
		if (n != 1 || !valid_cpurev(w[0]))
			return fail(
			    err, len,
			    "%s: expected a revision like 3.4 (MAJOR.MINOR, "
			    "each 0..%d)",
			    token, CPUREV_PART_MAX);
		snprintf(c->sim.cpurev, sizeof(c->sim.cpurev), "%s", w[0]);
	} else if (strcasecmp(token, "simRate") == 0) {
		if (n != 2)
			return fail(err, len, "%s: expected METRIC PER_SECOND",
				    token);
		int k = counter_arg(w[0], token, err, len);
		if (k < 0)
			return -1;
		if (strcmp(w[1], "off") == 0) {
			c->sim.off |= COUNTER_BIT(k);
			return 0;
		}
		if (parse_u64(w[1], UINT64_MAX, &v))
			return fail(err, len,
				    "%s: rate '%s' is not a whole number of "
				    "events per second (or 'off')",
				    token, w[1]);
		if (v > SIM_RATE_MAX)
			return fail(err, len,
				    "%s: rate %s is above %llu: the busiest "
				    "simulated CPU's counter would wrap within "
				    "a century",
				    token, w[1],
				    (unsigned long long)SIM_RATE_MAX);
		c->sim.rate[k] = v;
		c->sim.off &= ~COUNTER_BIT(k);
	} else {
		return fail(err, len, "unknown token '%s'", token);
	}
	return 0;
}

static int apply_replay(struct config *c, const char *token, char **w, int n,
			char *err, size_t len)
{
	if (strcasecmp(token, "replayFile") == 0) {
		if (n != 1)
			return fail(err, len, "%s: expected one PATH", token);
		free(c->replay.file);
		c->replay.file = strdup(w[0]);
		return c->replay.file ? 0 : fail(err, len, "out of memory");
	}
	if (strcasecmp(token, "replayLoop") == 0) {
		if (n != 1 || (strcmp(w[0], "yes") && strcmp(w[0], "no")))
			return fail(err, len, "%s: expected yes or no", token);
		c->replay.loop = strcmp(w[0], "yes") == 0;
		return 0;
	}
	if (strcasecmp(token, "replayCounterWidth") != 0)
		return fail(err, len, "unknown token '%s'", token);
	uint64_t v;
	if (apply_number(token, w, n, 1, 64, &v, err, len) ||
	    (v != 32 && v != 48 && v != 64))
		return fail(err, len, "%s: expected 32, 48 or 64", token);
	c->replay.width = (unsigned)v;
	return 0;
}

static int apply_alarm(struct config *c, const char *args, char *err,
		       size_t len)
{
	struct alarm_config a;
	if (alarm_config_parse(args, &a, err, len))
		return -1;
	for (size_t i = 0; i < c->nalarms; i++)
		if (strcmp(c->alarms[i].name, a.name) == 0)
			return fail(err, len, "alarm: name '%s' used twice",
				    a.name);
	if (c->nalarms == ALARMS_MAX)
		return fail(err, len, "alarm: more than %d alarms", ALARMS_MAX);
	struct alarm_config *p =
	    realloc(c->alarms, (c->nalarms + 1) * sizeof(*p));
	if (!p)
		return fail(err, len, "out of memory");
	c->alarms = p;
	c->alarms[c->nalarms++] = a;
	return 0;
}

int config_apply(struct config *c, const char *token, const char *args,
		 char *err, size_t len)
{
	if (strlen(args ? args : "") >= CONFIG_LINE_MAX)
		return fail(err, len, "%s: line too long", token);
	if (strcasecmp(token, "alarm") == 0)
		return apply_alarm(c, args, err, len);
	char buf[CONFIG_LINE_MAX];
	char *w[3] = {NULL, NULL, NULL};
	int n = words(args, buf, sizeof(buf), w, 2);
	uint64_t v;

	if (strcasecmp(token, "backend") == 0) {
		if (n != 1 || !backend_find(w[0]))
			return fail(err, len,
				    "backend: expected one of %s, got '%s'",
				    backend_names(), n ? w[0] : "");
		snprintf(c->backend, sizeof(c->backend), "%s", w[0]);
		c->backend_set = true;
		return 0;
	}
	if (strcasecmp(token, "pollInterval") == 0) {
		if (apply_number(token, w, n, 1, POLL_INTERVAL_MAX, &v, err,
				 len))
			return -1;
		c->poll_interval = (unsigned)v;
		return 0;
	}
	if (strncasecmp(token, "sim", 3) == 0)
		return apply_sim(c, token, w, n, err, len);
	if (strncasecmp(token, "replay", 6) == 0)
		return apply_replay(c, token, w, n, err, len);
	if (strcasecmp(token, "perfEvent") == 0) {
		struct perfspec sp;
		char why[200];
		if (n != 2)
			return fail(err, len, "%s: expected METRIC SPEC|off",
				    token);
		int k = counter_arg(w[0], token, err, len);
		if (k < 0)
			return -1;
		if (perfspec_parse(w[1], config_perf_sysfs(c), &sp, why,
				   sizeof(why)))
			return fail(err, len, "%s: %s", token, why);
		free(c->perf_event[k]);
		c->perf_event[k] = strdup(w[1]);
		return c->perf_event[k] ? 0 : fail(err, len, "out of memory");
	}
	if (strcasecmp(token, "perfGroupSize") == 0) {
		if (apply_number(token, w, n, 1, 64, &v, err, len))
			return -1;
		c->perf_group_size = (unsigned)v;
		return 0;
	}
	if (strcasecmp(token, "perfSysfs") == 0) {
		if (n != 1)
			return fail(err, len, "%s: expected one PATH", token);
		free(c->perf_sysfs);
		c->perf_sysfs = strdup(w[0]);
		return c->perf_sysfs ? 0 : fail(err, len, "out of memory");
	}
	return fail(err, len, "unknown token '%s'", token);
}

int config_validate(const struct config *c, char *err, size_t len)
{
	const struct backend_ops *b = backend_find(c->backend);
	if (!b)
		return fail(err, len, "backend '%s' is not built in",
			    c->backend);
	if (b->validate)
		return b->validate(c, err, len);
	return 0;
}
