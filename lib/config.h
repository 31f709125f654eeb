/*
 * config.h - the agent's validated configuration.
 *
 * Lines come from net-snmp's config machinery (agent/confload.c registers
 * each token); config_apply() checks one line and fills a staging config,
 * so a bad line never touches the running one.  Token reference:
 * conf/hw-r10kevctr.conf.
 */
#ifndef HWR10K_CONFIG_H
#define HWR10K_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alarm.h"
#include "metrics.h"
#include "sample.h"

#define CONFIG_BACKEND_MAX    16
#define CONFIG_LINE_MAX	      1024 /* longer arguments: an error, never cut */
#define POLL_INTERVAL_DEFAULT 5
#define POLL_INTERVAL_MAX     3600
#define SIM_CPUS_DEFAULT      4
#define SIM_CPUS_MAX	      4096
#define SIM_CPUREV_DEFAULT    "3.4"
/* The sim's CPU n counts rate * ((n mod SIM_CPU_FACTORS) + 1) per second;
 * a rate up to SIM_RATE_MAX keeps every simulated counter (offset
 * included) from wrapping for a century (100 * 365.25 days) of virtual
 * time. */
#define SIM_CPU_FACTORS 8
#define SIM_OFFSET_BITS 40 /* simSeed offsets are below 2^40 */
#define SIM_RATE_MAX                                                           \
	((UINT64_MAX - (UINT64_C(1) << SIM_OFFSET_BITS)) /                     \
	 (SIM_CPU_FACTORS * UINT64_C(3155760000)))
#define PERF_GROUP_SIZE_DEFAULT 4 /* general-purpose counters of most PMUs */

struct sim_config {
	unsigned cpus;
	uint64_t rate[COUNTER_COUNT]; /* events per second on CPU 0 */
	counter_mask off;	      /* counters the sim does not count */
	uint64_t seed;
	char cpurev[CPUREV_MAX + 1];
};

struct replay_config {
	char *file;
	bool loop;
	unsigned width; /* counter width in bits; 64 = no wrap */
};

struct config {
	char backend[CONFIG_BACKEND_MAX];
	bool backend_set; /* a 'backend' line was read (the agent needs one) */
	unsigned poll_interval;
	struct sim_config sim;
	char
	    *perf_event[COUNTER_COUNT]; /* per-counter override, NULL = table */
	char *perf_sysfs;		/* NULL = "/sys" */
	unsigned perf_group_size;	/* CPU PMU events read in one group */
	struct replay_config replay;
	struct alarm_config
	    *alarms; /* in config order: index + 1 = MIB index */
	size_t nalarms;
};

#define ALARMS_MAX 1024

void config_defaults(struct config *c);
void config_free(struct config *c);

/*
 * Apply one config line: token and the rest of the line.  Returns 0, or -1
 * with a message (no file/line: the caller's config machinery adds them).
 */
int config_apply(struct config *c, const char *token, const char *args,
		 char *err, size_t errlen);
/* Checks across lines, after the whole file was read. */
int config_validate(const struct config *c, char *err, size_t errlen);

/* The tokens config_apply() knows, NULL-terminated, with usage strings. */
struct config_token {
	const char *token, *usage;
};
extern const struct config_token config_tokens[];

/* The sysfs root the perf backend reads ("/sys" unless perfSysfs). */
const char *config_perf_sysfs(const struct config *c);

/* Strict unsigned decimal parse of a whole word; -1 on junk or overflow. */
int parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif
