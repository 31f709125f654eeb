/*
 * perfspec.h - perf event specifications: the PERF column of metrics.def
 * and the perfEvent config token use the same syntax.
 *
 *   SPEC  := "off" | TERM ("+" TERM)*       (terms are summed)
 *   TERM  := hardware:NAME                  cpu-cycles, instructions, ...
 *          | software:NAME                  cpu-clock, task-clock, page-faults,
 * ... | hw_cache:CACHE.OP.RESULT       l1d|l1i|ll|dtlb|itlb|bpu|node .
 *                                           read|write|prefetch . access|miss
 *          | raw:0xCONFIG                   the CPU PMU's raw event
 *          | PMU:0xCONFIG                   a PMU of
 * /sys/bus/event_source/devices | pfm:EVENT                      a libpfm4
 * event name (if built with it) The full name tables are in perfspec.c and
 * doc/perf-mapping.md.
 */
#ifndef HWR10K_PERFSPEC_H
#define HWR10K_PERFSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERFSPEC_MAX_TERMS 4

/* perf_event_attr.type values (Linux ABI, include/uapi/linux/perf_event.h) */
enum { PT_HARDWARE = 0, PT_SOFTWARE = 1, PT_HW_CACHE = 3, PT_RAW = 4 };

struct perf_term {
	uint32_t type;
	uint64_t config;
	bool hardware; /* counts on a PMU (not a kernel software event) */
};

struct perfspec {
	unsigned nterms; /* 0 = off */
	struct perf_term term[PERFSPEC_MAX_TERMS];
};

/*
 * Parse spec; PMU names are looked up under sysfs (normally "/sys").
 * Returns 0, or -1 with a message.
 */
/* Whether pfm: names are understood (built with libpfm4's headers; the
 * library itself is loaded on the first such name). */
bool backend_perfspec_pfm_built(void);

int backend_perfspec_parse(const char *spec, const char *sysfs,
			   struct perfspec *out, char *err, size_t errlen);

#endif
