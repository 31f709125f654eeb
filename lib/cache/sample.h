/*
 * sample.h - one reading of a counter backend: what backend->read() fills
 * and cache_update() consumes.
 */
#ifndef HWR10K_SAMPLE_H
#define HWR10K_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "meta/metrics.h"
#include "util/cpugroups.h"

#define CPUREV_MAX 32

/* Bit c set: counter index c is counted by the backend. */
typedef uint64_t counter_mask;
#define COUNTER_BIT(c) ((counter_mask)1 << (c))

struct cpu_sample {
	unsigned cpu;	/* operating system CPU number */
	bool counting;	/* false: offline or counters lost; values ignored */
	uint32_t epoch; /* changes whenever counting restarted from zero */
	/* Counts since the epoch started, 64 bits, already scaled. */
	uint64_t value[COUNTER_COUNT];
	/* Nanoseconds since the epoch started (enabled >= running). */
	uint64_t time_enabled, time_running;
	/*
	 * Counters with no reading in this sample though the CPU has some
	 * (a PCP record or replay set without them): value[] holds the
	 * last reading (0 before the first in this epoch), and the poll
	 * has no rate for them; the next reading's delta covers the time
	 * since the last one.
	 */
	counter_mask unread;
	/*
	 * Counters the source restarted since the last sample (a 64-bit
	 * reading lower than the one before): value[] already counts from
	 * the restart (the new reading is what counted since), and what
	 * was counted in the interval is unknown: a discontinuity.
	 */
	counter_mask reset;
};

struct sample {
	struct cpu_sample *cpus; /* sorted by cpu, no duplicates */
	size_t ncpus, cap;
	counter_mask counted;
	/*
	 * Counted only for the whole system (PCP's hw.r10kevctr metrics had
	 * no instances): no CPU has a value for these; their sum is
	 * total[c], counts since total_epoch started, like a CPU's values.
	 */
	counter_mask system_wide;
	uint64_t total[COUNTER_COUNT];
	uint32_t total_epoch;
	/* As a CPU's unread and reset, for the system-wide counters. */
	counter_mask total_unread, total_reset;
	/* The source could not be read (pmcd lost): the system-wide
	 * readings are not current, as CPUs that are not counting. */
	bool system_wide_stopped;
	/* The recording (replay file, archive) has ended: every value is
	 * held as it was last read; nothing is counting. */
	bool ended;
	int32_t state; /* hw.r10kevctr.state */
	char cpurev[CPUREV_MAX + 1];
	/* The backend's CPU groups (NUMA nodes; NULL: none), owned by the
	 * backend and valid while it is open; the config's cpuGroup lines
	 * replace them (the agent chooses, cache_groups_use takes them). */
	const struct cpu_groups *groups;
	unsigned errors;  /* records skipped / reads failed */
	uint64_t time_ns; /* when read, in the backend's clock */
};

/* Empty s for the next read, keeping its CPU array: no CPU, nothing
 * counted, state -1, cpurev "unknown". */
void cache_sample_clear(struct sample *s);
/* Make room for n CPUs; returns -1 when out of memory. */
int cache_sample_reserve(struct sample *s, size_t n);
/* Sort by CPU number; returns -1 (and logs nothing) on a duplicate CPU. */
int cache_sample_sort(struct sample *s);
void cache_sample_free(struct sample *s);

#endif
