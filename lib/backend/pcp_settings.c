/*
 * pcp_settings.c - the pcp backend's config section: its tokens, defaults
 * and their check across lines.  Built whether or not libpcp is (the
 * backend itself, backend_pcp.c, only with it), so that the config
 * language is the same in every build: a binary without the backend
 * reads and checks its lines, and refuses only "backend pcp", saying why
 * (config_section.not_built).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/backend_pcp.h"
#include "backend/registry.h"
#include "util/parse.h"

static const struct pcp_settings pcp_defaults = {.loop = false};

/* pcpMetric METRIC PCPNAME: one PCP metric feeds one counter. */
static int parse_metric(void *settings, const char *token, char **w, int n,
			char *err, size_t len)
{
	struct pcp_settings *s = settings;

	if (n != 2)
		return util_parse_fail(err, len, "%s: expected METRIC PCPNAME",
				       token);
	int c = backend_counter_arg(w[0], token, err, len);
	if (c < 0)
		return -1;
	for (int o = 0; o < COUNTER_COUNT; o++)
		if (o != c && s->metric[o] && strcmp(s->metric[o], w[1]) == 0)
			return util_parse_fail(
			    err, len,
			    "%s: PCP metric %s already feeds %s; "
			    "one PCP metric feeds one counter",
			    token, w[1], meta_counters[o].fullname);
	char *name = strdup(w[1]);
	if (!name)
		return util_parse_fail(err, len, "out of memory");
	free(s->metric[c]);
	s->metric[c] = name;
	return 0;
}

/* Every pcp token reopens the source. */
static const struct config_token pcp_tokens[] = {
    TOKEN_STRING("pcpHost", "HOST (a pmcd host spec; default local:)",
		 struct pcp_settings, host, true),
    TOKEN_STRING("pcpArchive", "PATH (a pmlogger archive instead of pmcd)",
		 struct pcp_settings, archive, true),
    TOKEN_YESNO("pcpLoop", "yes|no", struct pcp_settings, loop, true),
    TOKEN_STRINGS("pcpMetric", "METRIC PCPNAME", struct pcp_settings, metric,
		  true, parse_metric),
    TOKEN_END,
};

static int pcp_validate(const void *settings, char *err, size_t len)
{
	const struct pcp_settings *s = settings;

	if (s->host && s->archive)
		return util_parse_fail(
		    err, len,
		    "pcpHost and pcpArchive exclude each other "
		    "(a source is pmcd or an archive)");
	return 0;
}

const struct config_section backend_pcp_section = {
    .name = "pcp",
    .tokens = pcp_tokens,
    .settings_size = sizeof(struct pcp_settings),
    .defaults = &pcp_defaults,
    .validate = pcp_validate,
#ifndef HAVE_PCP_BACKEND
    .not_built =
	"configure found no libpcp; install libpcp3-dev and build again",
#endif
};
