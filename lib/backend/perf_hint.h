/*
 * perf_hint.h - what counts on a host where no configured perf event does
 * (no hardware PMU: most virtual machines and containers), and the config
 * lines that use it (perf_hint.c).  The perf backend probes at open when
 * its state is -1, logs one message, and --dump prints the same.
 */
#ifndef HWR10K_PERF_HINT_H
#define HWR10K_PERF_HINT_H

#include <stdio.h>

#define PERF_HINT_MAX 16 /* the software events and a PMU's few */

struct perf_hint {
	unsigned n;		      /* events that opened on the probed CPU */
	char key[PERF_HINT_MAX][40];  /* software:cpu-clock, msr/tsc */
	char spec[PERF_HINT_MAX][40]; /* perfEvent syntax: msr:0x00 */
	const char *what[PERF_HINT_MAX]; /* what it counts, for people */
};

/*
 * Test-open, on cpu, the events that count without a hardware PMU: the
 * kernel's software events (cpu-clock, task-clock, page-faults,
 * context-switches, cpu-migrations) and, when SYSFS/bus/event_source/
 * devices/msr exists, the msr PMU's events (x86: tsc, aperf, mperf...).
 */
void backend_perf_hint_probe(const char *sysfs, int cpu, struct perf_hint *h);
/* The one log line: what counts here, the config lines, backend pcp. */
void backend_perf_hint_log(const struct perf_hint *h);
/* The same for --dump: comment lines, and the config lines as they go
 * into hw-r10kevctr.conf (so `grep ^perfEvent` takes them). */
void backend_perf_hint_print(const struct perf_hint *h, FILE *out);

#endif
