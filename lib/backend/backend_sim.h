/* backend_sim.h - the sim backend's settings (backend_sim.c). */
#ifndef HWR10K_BACKEND_SIM_H
#define HWR10K_BACKEND_SIM_H

#include <stdint.h>

#include "meta/metrics.h"
#include "cache/sample.h"

#define SIM_CPUS_DEFAULT   4
#define SIM_CPUS_MAX	   4096
#define SIM_CPUREV_DEFAULT "3.4"
/* The sim's CPU n counts rate * ((n mod SIM_CPU_FACTORS) + 1) per second;
 * a rate up to SIM_RATE_MAX keeps every simulated counter (offset
 * included) from wrapping for a century (100 * 365.25 days) of virtual
 * time. */
#define SIM_CPU_FACTORS 8
#define SIM_OFFSET_BITS 40 /* simSeed offsets are below 2^40 */
#define SIM_RATE_MAX                                                           \
	((UINT64_MAX - (UINT64_C(1) << SIM_OFFSET_BITS)) /                     \
	 (SIM_CPU_FACTORS * UINT64_C(3155760000)))

struct sim_settings {
	unsigned cpus;
	uint64_t rate[COUNTER_COUNT]; /* events per second on CPU 0 ... */
	counter_mask rate_set;	      /* ... where set, else SIMRATE */
	counter_mask off;	      /* counters the sim does not count */
	uint64_t seed;
	char cpurev[CPUREV_MAX + 1];
	unsigned nodes; /* simNodes: NUMA-like groups of the CPUs */
};

/* The rate of counter k on CPU 0 with these settings. */
uint64_t backend_sim_rate(const struct sim_settings *s, int k);

/* Its config section and ops, listed in registry.c; others find them by
 * name. */
struct config_section;
extern const struct config_section backend_sim_section;
struct backend_ops;
extern const struct backend_ops backend_sim;

#endif
