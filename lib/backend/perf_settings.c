/*
 * perf_settings.c - the perf backend's config section: its tokens and
 * defaults.  Built in every binary (the backend itself, backend_perf.c,
 * where perf_event_open is), so that the config language is the same in
 * every build (config_section.not_built).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/backend_perf.h"
#include "backend/perfspec.h"
#include "backend/registry.h"
#include "util/parse.h"

static const struct perf_settings perf_defaults = {
    .group_size = PERF_GROUP_SIZE_DEFAULT,
};

const char *backend_perf_settings_sysfs(const struct perf_settings *s)
{
	return s->sysfs ? s->sysfs : "/sys";
}

const char *backend_perf_settings_spec(const struct perf_settings *s, int c)
{
	return s->event[c] ? s->event[c] : meta_counters[c].perf;
}

/* perfEvent METRIC SPEC|off (checked against perfSysfs as read so far) */
static int parse_event(void *settings, const char *token, char **w, int n,
		       char *err, size_t len)
{
	struct perf_settings *s = settings;
	struct perfspec sp;
	char why[200];

	if (n != 2)
		return util_parse_fail(err, len, "%s: expected METRIC SPEC|off",
				       token);
	int k = backend_counter_arg(w[0], token, err, len);
	if (k < 0)
		return -1;
	if (backend_perfspec_parse(w[1], backend_perf_settings_sysfs(s), &sp,
				   why, sizeof(why)))
		return util_parse_fail(err, len, "%s: %s", token, why);
	free(s->event[k]);
	s->event[k] = strdup(w[1]);
	return s->event[k] ? 0 : util_parse_fail(err, len, "out of memory");
}

/* Every perf token reopens the events. */
static const struct config_token perf_tokens[] = {
    TOKEN_STRINGS("perfEvent", "METRIC SPEC|off", struct perf_settings, event,
		  true, parse_event),
    TOKEN_UINT("perfGroupSize", "N (1..64)", struct perf_settings,
	       group_size, 1, PERF_GROUP_MAX, true),
    TOKEN_STRING("perfSysfs", "PATH", struct perf_settings, sysfs, true),
    TOKEN_END,
};

const struct config_section backend_perf_section = {
    .name = "perf",
    .tokens = perf_tokens,
    .settings_size = sizeof(struct perf_settings),
    .defaults = &perf_defaults,
    .validate = NULL, /* perfEvent lines are checked as they are read */
#ifndef HAVE_PERF_BACKEND
    .not_built = "configure found no perf_event_open (Linux only)",
#endif
};
