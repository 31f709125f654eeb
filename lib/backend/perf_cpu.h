/* perf_cpu.h - one CPU's perf events, in groups read with one read(2)
 * each (perf_cpu.c); the perf backend keeps one per CPU. */
#ifndef HWR10K_PERF_CPU_H
#define HWR10K_PERF_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend_perf.h"
#include "meta/metrics.h"
#include "backend/perfspec.h"
#include "cache/sample.h"

struct perf_group {
	int fd[PERF_GROUP_MAX];	     /* fd[0] is the leader */
	int counter[PERF_GROUP_MAX]; /* which counter each event adds to */
	unsigned n;
	uint64_t raw[PERF_GROUP_MAX];
	uint64_t enabled, running; /* last readings */
};

struct perf_cpu {
	unsigned cpu;
	bool open, ever_open;
	uint32_t epoch;
	struct perf_group *groups;
	unsigned ngroups;
	uint64_t value[COUNTER_COUNT]; /* scaled counts since the epoch */
	uint64_t enabled, running;     /* summed over groups, since the epoch */
};

/* Open every term of the counted metrics on pc->cpu, at most group_size
 * events per group; a new epoch. -1 (logged, nothing left open) when an
 * event cannot be opened or memory runs out. */
int backend_perf_cpu_open(struct perf_cpu *pc, const struct perfspec *spec,
			  counter_mask counted, unsigned group_size);
/* Add the scaled deltas of every group to pc->value; -1 (logged, the CPU
 * closed) when a read failed. */
int backend_perf_cpu_read(struct perf_cpu *pc);
void backend_perf_cpu_close(struct perf_cpu *pc);
/* The metrics none of whose events on pc has run since it opened,
 * although enabled for min_ns or more: the kernel accepted the events but
 * never scheduled them (their PMU cannot count them, or other events hold
 * the counters they need).  Their counts are unknown, not zero. */
counter_mask backend_perf_cpu_never_ran(const struct perf_cpu *pc,
					uint64_t min_ns);
/* Test-open a metric's terms on cpu; 0 or the first errno. */
int backend_perf_probe(const struct perfspec *sp, int cpu);

#endif
