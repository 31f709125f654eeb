/*
 * backend.h - the counter backend interface.
 *
 * A backend is an ops table (data + callbacks, no state) and an instance
 * (struct backend) that holds the state.  The registry (registry.c) lists
 * the backends built into this binary.
 */
#ifndef HWR10K_BACKEND_H
#define HWR10K_BACKEND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "backend/registry.h"
#include "cache/sample.h"

struct backend;

struct backend {
	const struct backend_ops *ops;
	void *priv;
	/* Monotonic clock in nanoseconds; tests replace it. */
	uint64_t (*clock_ns)(void);
	/* Set by the caller for a long open (a large replay file): it calls
	 * progress() now and then (the agent answers requests meanwhile from
	 * the cache, so the master never sees it stall) and gives up when
	 * *cancel becomes non-zero (the agent's stop request). */
	const volatile sig_atomic_t *cancel;
	void (*progress)(void);
};

/* Open the configured backend into b; -1 with a message. */
int backend_open(struct backend *b, const struct config *cfg, char *err,
		 size_t errlen);
int backend_read(struct backend *b, struct sample *s);
/* Can the open backend b, opened with running, serve next without a
 * reopen?  The same backend, every token row that reopens unchanged, and
 * ops->keep. */
bool backend_keep(struct backend *b, const struct config *running,
		  const struct config *next);
void backend_close(struct backend *b);
/* The open backend's advice when it counts nothing (ops->advise). */
void backend_advise(struct backend *b, FILE *out);

/* A new counting epoch, unique in this process (see sample.h). */
uint32_t backend_new_epoch(void);
uint64_t backend_monotonic_ns(void);


#endif
