/* backend.c - opening, reading, keeping and closing the configured
 * backend (the registry of those built in is registry.c). */
#include "backend/backend.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>


uint64_t backend_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t backend_new_epoch(void)
{
	/* atomic: a read on the agent's reading thread and an open on its
	 * main loop (a reload) may both take one */
	static _Atomic uint32_t epoch;
	return atomic_fetch_add(&epoch, 1) + 1;
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
	cache_sample_clear(s);
	s->time_ns = b->clock_ns ? b->clock_ns() : backend_monotonic_ns();
	return b->ops->read(b, s);
}

bool backend_keep(struct backend *b, const struct config *running,
		  const struct config *next)
{
	if (!b->ops || strcmp(b->ops->section->name, next->backend) != 0 ||
	    strcmp(running->backend, next->backend) != 0 ||
	    !config_token_table_same(b->ops->section->tokens,
				     config_settings(running, b->ops->section),
				     config_settings(next, b->ops->section)))
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

void backend_advise(struct backend *b, FILE *out)
{
	if (b->ops && b->ops->advise && b->priv)
		b->ops->advise(b, out);
}
