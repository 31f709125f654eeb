/* testconf.h - configs in unit tests, made as the agent makes them: the
 * defaults with the backends' sections, then lines through
 * config_apply() as the agent reads them. */
#ifndef HWR10K_TESTCONF_H
#define HWR10K_TESTCONF_H

#include "backend/registry.h"
#include "config/config.h"

/* Apply "token args" to c; the test fails on a refused line. */
#define CONF(c, token, ...)                                                    \
	do {                                                                   \
		char conf_args_[256], conf_err_[256];                          \
		snprintf(conf_args_, sizeof(conf_args_), __VA_ARGS__);         \
		if (config_apply((c), (token), conf_args_, conf_err_,          \
				 sizeof(conf_err_)) != 0)                      \
			fail_msg("%s %s: %s", (token), conf_args_, conf_err_); \
	} while (0)

/* The defaults, taking every built-in backend's tokens, and the line
 * 'backend NAME' unless backend is NULL (the default, sim). */
static inline void conf_init(struct config *c, const char *backend)
{
	config_defaults(c, backend_sections());
	if (backend)
		CONF(c, "backend", "%s", backend);
}

#endif
