/*
 * registry.h - what a backend is (its ops table: its config section, with
 * its name, tokens and settings, and its callbacks) and the backends
 * built into this binary (registry.c): found by name, by position, and as
 * the config's sections (backend_sections, which the caller hands to
 * config_defaults: the config knows no backend).  backend.c opens what
 * the config names.
 */
#ifndef HWR10K_REGISTRY_H
#define HWR10K_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

struct backend;
struct sample;

struct backend_ops {
	/*
	 * The backend's own settings, as a libpfm4 PMU owns its event table:
	 * section->name is the backend's name ('backend' line), its config
	 * tokens, the size and defaults of its settings struct and their
	 * check across lines (config.h).  config.c parses, compares and
	 * frees them through the section.  The section is built in every
	 * binary, the backend only where its library is: backend_sections()
	 * lists them all, backend_find() the built ones.
	 */
	const struct config_section *section;
	/* What the agent must keep for this backend when it gives up root
	 * (-u): CAP_PERFMON, to open events again after the switch (a CPU
	 * back online, a reload).  The agent asks this, never the name. */
	bool needs_perfmon;
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
/* The backend at registry position index; NULL past the last. */
const struct backend_ops *backend_at(size_t index);
/* Every backend's config section, built or not (not_built says why not),
 * NULL-terminated: what config_defaults takes.  The config language is
 * the same in every build; only the 'backend' line refuses what is not
 * built in. */
const struct config_section *const *backend_sections(void);
/* "sim, perf, replay" (those built in) into buf, for messages. */
const char *backend_names(char *buf, size_t len);
/* The counter index of a METRIC argument of token, or -1 with a message. */
int backend_counter_arg(const char *name, const char *token, char *err,
			size_t len);

#endif
