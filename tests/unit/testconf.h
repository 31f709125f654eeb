/* testconf.h - config lines in unit tests, through config_apply() as the
 * agent reads them. */
#ifndef HWR10K_TESTCONF_H
#define HWR10K_TESTCONF_H

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

#endif
