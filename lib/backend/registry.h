/*
 * registry.h - what a backend is (its ops table: name, tokens, settings,
 * callbacks) and the backends built into this binary (registry.c): found
 * by name, by token, by position.  No config here: config.c uses it, and
 * backend.c, which opens what the config names.
 */
#ifndef HWR10K_REGISTRY_H
#define HWR10K_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* backends a binary can have built in */
#define BACKENDS_MAX 8

struct backend;
struct config;
struct config_token;
struct sample;

/* The most words a config line has (alarm takes 8). */
#define BACKEND_WORDS_MAX 10

struct backend_ops {
	const char *name;
	/* What the agent must keep for this backend when it gives up root
	 * (-u): CAP_PERFMON, to open events again after the switch (a CPU
	 * back online, a reload).  The agent asks this, never the name. */
	bool needs_perfmon;
	/*
	 * The backend's own settings, as a libpfm4 PMU owns its event table:
	 * its config tokens (config_token.h rows, over its settings struct,
	 * NULL-terminated), the size and defaults of that struct.  config.c
	 * parses, compares and frees them through the rows.
	 */
	const struct config_token *tokens;
	size_t settings_size;
	const void *defaults;
	/* Check the settings across lines; message in err.  NULL: none. */
	int (*validate)(const void *settings, char *err, size_t errlen);
	/* Allocate b->priv and start counting; -1 with a message in err. */
	int (*open)(struct backend *b, const struct config *cfg, char *err,
		    size_t errlen);
	/*
	 * Fill s with the current counts (s->ncpus etc. are reset by the
	 * caller).  Problems with single CPUs or records are reported in the
	 * sample (counting = false, s->errors) and logged; -1 only if nothing
	 * could be read.
	 */
	int (*read)(struct backend *b, struct sample *s);
	void (*close)(struct backend *b);
	/*
	 * A reload whose token rows that reopen are all unchanged: false when
	 * the backend must reopen all the same (replay: the file changed on
	 * disk), else true after taking what changes live (the poll
	 * interval).  NULL: keep.
	 */
	bool (*keep)(struct backend *b, const struct config *cfg);
	/*
	 * When it counts nothing: what would count on this host and the
	 * config lines for it, as comment and config lines on out (--dump
	 * prints them).  NULL, or nothing printed: no advice.
	 */
	void (*advise)(struct backend *b, FILE *out);
};


const struct backend_ops *backend_find(const char *name);
/* Does the backend called name need CAP_PERFMON (false if unknown)? */
bool backend_needs_perfmon(const char *name);
/* The backend whose tokens include token (any case); NULL if none. */
const struct backend_ops *backend_owning(const char *token);
/* Registry position of ops (-1 if not built in), and the reverse. */
long backend_index(const struct backend_ops *ops);
const struct backend_ops *backend_at(size_t index);
/* "sim, perf, replay" (those built in) into buf, for messages. */
const char *backend_names(char *buf, size_t len);
/* The counter index of a METRIC argument of token, or -1 with a message. */
int backend_counter_arg(const char *name, const char *token, char *err,
			size_t len);

#endif
