/* backend_perf.h - the perf backend's settings (backend_perf.c). */
#ifndef HWR10K_BACKEND_PERF_H
#define HWR10K_BACKEND_PERF_H

#include "meta/metrics.h"

#define PERF_GROUP_SIZE_DEFAULT 4 /* general-purpose counters of most PMUs */

struct perf_settings {
	char *event[COUNTER_COUNT]; /* perfEvent override, NULL = table */
	char *sysfs;		    /* NULL = "/sys" */
	unsigned group_size;	    /* CPU PMU events read in one group */
};

/* Its ops, listed in backend.c's registry; others find it by name. */
struct backend_ops;
extern const struct backend_ops backend_perf;

#endif
