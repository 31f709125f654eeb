/* backend.c - the registry of built-in backends. */
#include "backend.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "metrics.h"

/* The backends, each defined in its own file: adding one is a line here
 * (and its files in lib/Makefile.inc); the rest reach it by name. */
extern const struct backend_ops backend_sim, backend_replay;
#ifdef HAVE_PERF_BACKEND
extern const struct backend_ops backend_perf;
#endif
#ifdef HAVE_PCP_BACKEND
extern const struct backend_ops backend_pcp;
#endif

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
_Static_assert(NREG <= CONFIG_BACKENDS_MAX, "raise CONFIG_BACKENDS_MAX");

const struct backend_ops *backend_find(const char *name)
{
	for (size_t i = 0; name && i < NREG; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const struct backend_ops *backend_owning(const char *token)
{
	for (size_t i = 0; i < NREG; i++)
		for (const struct config_token *t = registry[i]->tokens;
		     t && t->token; t++)
			if (strcasecmp(t->token, token) == 0)
				return registry[i];
	return NULL;
}

long backend_index(const struct backend_ops *ops)
{
	for (size_t i = 0; i < NREG; i++)
		if (registry[i] == ops)
			return (long)i;
	return -1;
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
				 registry[i]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int backend_counter_arg(const char *name, const char *token, char *err,
			size_t len)
{
	int c = counter_index_by_name(name);
	if (c < 0)
		parse_fail(err, len,
			   "%s: '%s' is not a counter metric (expected e.g. "
			   "hw.r10kevctr.cycles)",
			   token, name);
	return c;
}

uint64_t backend_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t backend_new_epoch(void)
{
	static uint32_t epoch;
	return ++epoch;
}

bool backend_needs_perfmon(const char *name)
{
	const struct backend_ops *ops = backend_find(name);
	return ops && ops->needs_perfmon;
}

int backend_open(struct backend *b, const struct config *cfg, char *err,
		 size_t errlen)
{
	const struct backend_ops *ops = backend_find(cfg->backend);
	if (!b->clock_ns)
		b->clock_ns = backend_monotonic_ns;
	if (!ops) {
		snprintf(err, errlen, "backend '%s' is not built in",
			 cfg->backend);
		return -1;
	}
	b->ops = ops;
	b->priv = NULL;
	return ops->open(b, cfg, err, errlen);
}

int backend_read(struct backend *b, struct sample *s)
{
	sample_clear(s);
	s->time_ns = b->clock_ns ? b->clock_ns() : backend_monotonic_ns();
	return b->ops->read(b, s);
}

bool backend_keep(struct backend *b, const struct config *running,
		  const struct config *next)
{
	if (!b->ops || strcmp(b->ops->name, next->backend) != 0 ||
	    strcmp(running->backend, next->backend) != 0 ||
	    !token_table_same(b->ops->tokens, config_settings(running, b->ops),
			      config_settings(next, b->ops)))
		return false;
	return !b->ops->keep || b->ops->keep(b, next);
}

void backend_close(struct backend *b)
{
	if (b->ops && b->ops->close)
		b->ops->close(b);
	b->ops = NULL;
	b->priv = NULL;
}
