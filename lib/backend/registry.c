/*
 * registry.c - the backends built into this binary, by name and position,
 * and their config sections (the caller hands them to the config, which
 * parses and stores each one's settings by them; backend.c opens the
 * configured one).  The config knows no backend: the backends know it.
 */
#include "backend/registry.h"

#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/backend_pcp.h"
#include "backend/backend_perf.h"
#include "backend/backend_replay.h"
#include "backend/backend_sim.h"
#include "meta/metrics.h"
#include "util/parse.h"

/* The backends, each defined in its own file: adding one is a line here
 * (and its files in lib/Makefile.inc); the rest reach it by name. */
static const struct backend_ops *const registry[] = {
    &backend_sim,
#ifdef HAVE_PERF_BACKEND
    &backend_perf,
#endif
    &backend_replay,
#ifdef HAVE_PCP_BACKEND
    &backend_pcp,
#endif
};
#define NREG (sizeof(registry) / sizeof(registry[0]))
_Static_assert(NREG <= CONFIG_SECTIONS_MAX, "raise CONFIG_SECTIONS_MAX");

/* Every backend's config section, built in or not (its not_built says
 * why not), in the same order: the config language is the same in every
 * build. */
static const struct config_section *const sections[] = {
    &backend_sim_section,
    &backend_perf_section,
    &backend_replay_section,
    &backend_pcp_section,
    NULL,
};
_Static_assert(sizeof(sections) / sizeof(sections[0]) - 1 <=
		   CONFIG_SECTIONS_MAX,
	       "raise CONFIG_SECTIONS_MAX");

const struct backend_ops *backend_find(const char *name)
{
	for (size_t i = 0; name && i < NREG; i++)
		if (strcmp(registry[i]->section->name, name) == 0)
			return registry[i];
	return NULL;
}

const struct config_section *const *backend_sections(void)
{
	return sections;
}

const struct backend_ops *backend_at(size_t index)
{
	return index < NREG ? registry[index] : NULL;
}

const char *backend_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < NREG && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 registry[i]->section->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int backend_counter_arg(const char *name, const char *token, char *err,
			size_t len)
{
	int c = meta_counter_index_by_name(name);
	if (c < 0)
		util_parse_fail(
		    err, len,
		    "%s: '%s' is not a counter metric (expected e.g. "
		    "hw.r10kevctr.cycles)",
		    token, name);
	return c;
}

bool backend_needs_perfmon(const char *name)
{
	const struct backend_ops *ops = backend_find(name);
	return ops && ops->needs_perfmon;
}
