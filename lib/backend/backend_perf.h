/* backend_perf.h - the perf backend's settings (perf_settings.c, built in
 * every binary) and ops (backend_perf.c, where perf_event_open is). */
#ifndef HWR10K_BACKEND_PERF_H
#define HWR10K_BACKEND_PERF_H

#include "meta/metrics.h"

#define PERF_GROUP_SIZE_DEFAULT 4 /* general-purpose counters of most PMUs */
#define PERF_GROUP_MAX 64	  /* perfGroupSize's upper bound */

struct perf_settings {
	char *event[COUNTER_COUNT]; /* perfEvent override, NULL = table */
	char *sysfs;		    /* NULL = "/sys" */
	unsigned group_size;	    /* CPU PMU events read in one group */
};

/* The sysfs root of s ("/sys" by default) and the spec of counter c. */
const char *backend_perf_settings_sysfs(const struct perf_settings *s);
const char *backend_perf_settings_spec(const struct perf_settings *s, int c);

/* Its config section (perf_settings.c), listed by the registry in every
 * build, and its ops (backend_perf.c), where built: others find both by
 * name. */
struct config_section;
extern const struct config_section backend_perf_section;
struct backend_ops;
extern const struct backend_ops backend_perf;

#endif
