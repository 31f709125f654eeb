/*
 * backend_sim.c - deterministic simulated counters, for demos and tests.
 *
 * The sim counts by elapsed time, in whole seconds: T is the number of
 * whole seconds of the sim clock between this sim's first read (its base,
 * as replay's and pcp's first values are; the poll that opens a backend
 * reads it at once) and now.  The sim clock counts whole seconds on the
 * backend's clock (b->clock_ns) from the first read of any sim in the
 * process, so:
 *  - reads on the poll schedule (which starts right after that first
 *    read, and whose timers fire late, never early) see exactly
 *    pollInterval more seconds each: values are deterministic, and every
 *    rate is exact (whole seconds of exact per-second rates);
 *  - extra reads (a reload's) add only the time that passed, and a
 *    reopened sim starts where the one before ended on the same clock, so
 *    over any wall time the counts are rate * time, whatever the number
 *    of reads and reopens.
 *
 * rate is simRate (default: metrics.def SIMRATE); offset is 0 with simSeed
 * 0 (the default) and a splitmix64 value below 2^40 otherwise.  The CPU
 * factor repeats every SIM_CPU_FACTORS CPUs, so that with rates up to
 * SIM_RATE_MAX no counter wraps within a century at any simCpus.  CPUs are
 * numbered 0..simCpus-1.  The sim counts every counter that is not 'off'
 * and that exists on the simulated CPU revision (vcc before 3.1, fucomp
 * from 3.1), and reports that number as hw.r10kevctr.state.
 */
#include "backend/backend_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/backend.h"

struct sim {
	struct sim_settings cfg;
	uint64_t (*clock_ns)(void);
	uint64_t base_s; /* the sim clock at the first read */
	uint64_t t_s;	 /* T at the last read */
	uint64_t reads;
	uint32_t epoch;
	counter_mask counted;
	struct cpu_groups groups; /* simNodes: the CPUs split evenly */
};

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

static uint64_t sim_offset(uint64_t seed, unsigned cpu, int counter)
{
	if (seed == 0)
		return 0;
	return splitmix64(seed ^ ((uint64_t)cpu << 32) ^ (uint64_t)counter) &
	       ((UINT64_C(1) << SIM_OFFSET_BITS) - 1);
}

static int sim_open(struct backend *b, const struct config *cfg, char *err,
		    size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "sim: out of memory");
		return -1;
	}
	s->cfg = *(const struct sim_settings *)config_settings(
	    cfg, &backend_sim_section);
	s->clock_ns = b->clock_ns ? b->clock_ns : backend_monotonic_ns;
	s->base_s = s->t_s = 0; /* base_s: at the first read */
	s->epoch = backend_new_epoch();
	for (int i = 0; i < COUNTER_COUNT; i++)
		if (!(s->cfg.off & COUNTER_BIT(i)) &&
		    meta_metric_in_revision(&meta_counters[i], s->cfg.cpurev))
			s->counted |= COUNTER_BIT(i);
	if (util_cpu_groups_even(&s->groups, s->cfg.nodes, s->cfg.cpus) != 0) {
		util_cpu_groups_free(&s->groups);
		free(s);
		snprintf(err, errlen, "sim: out of memory");
		return -1;
	}
	b->priv = s;
	return 0;
}

/* The sim clock: whole seconds since the first read of any sim in this
 * process (one clock for all, so that reopened sims continue it). */
static uint64_t sim_clock_s(uint64_t now)
{
	static bool started;
	static uint64_t origin;
	if (!started || now < origin) { /* a test's clock may start over */
		origin = now;
		started = true;
	}
	return (now - origin) / 1000000000u;
}

/* T at now: whole seconds since the first read, never less than before. */
static uint64_t sim_time(struct sim *s, uint64_t now)
{
	uint64_t c = sim_clock_s(now);
	if (!s->reads++)
		s->base_s = c;
	uint64_t t = c > s->base_s ? c - s->base_s : 0;
	return t > s->t_s ? t : s->t_s;
}

/*
 * Without a seed every CPU's values are one of SIM_CPU_FACTORS rows,
 * computed once per read and copied: a read of 4096 CPUs is a copy, not
 * 127k multiplications (it runs in the agent's idle cost every second).
 */
static int sim_read(struct backend *b, struct sample *out)
{
	struct sim *s = b->priv;
	uint64_t row[SIM_CPU_FACTORS][COUNTER_COUNT] = {{0}};

	if (cache_sample_reserve(out, s->cfg.cpus) < 0)
		return -1;
	uint64_t t = s->t_s = sim_time(s, s->clock_ns());
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (!(s->counted & COUNTER_BIT(i)))
			continue;
		uint64_t step = backend_sim_rate(&s->cfg, i) * t;
		for (unsigned f = 0; f < SIM_CPU_FACTORS; f++)
			row[f][i] = step * (f + 1);
	}
	for (unsigned cpu = 0; cpu < s->cfg.cpus; cpu++) {
		struct cpu_sample *cs = &out->cpus[cpu];
		cs->cpu = cpu;
		cs->counting = true;
		cs->epoch = s->epoch;
		cs->time_enabled = cs->time_running = t * 1000000000u;
		memcpy(cs->value, row[cpu % SIM_CPU_FACTORS],
		       sizeof(cs->value));
		if (s->cfg.seed)
			for (int i = 0; i < COUNTER_COUNT; i++)
				if (s->counted & COUNTER_BIT(i))
					cs->value[i] +=
					    sim_offset(s->cfg.seed, cpu, i);
	}
	out->ncpus = s->cfg.cpus;
	out->groups = &s->groups;
	out->time_ns = t * 1000000000u; /* the sim's own clock */
	out->counted = s->counted;
	out->state = __builtin_popcountll(s->counted);
	snprintf(out->cpurev, sizeof(out->cpurev), "%s", s->cfg.cpurev);
	return 0;
}

static void sim_close(struct backend *b)
{
	struct sim *s = b->priv;
	if (s)
		util_cpu_groups_free(&s->groups);
	free(s);
}

/* ------------------------------------------------------------ settings */

uint64_t backend_sim_rate(const struct sim_settings *s, int k)
{
	return s->rate_set & COUNTER_BIT(k) ? s->rate[k]
					    : meta_counters[k].sim_rate;
}

static const struct sim_settings sim_defaults = {
    .cpus = SIM_CPUS_DEFAULT,
    .cpurev = SIM_CPUREV_DEFAULT,
};

/* simRate METRIC PER_SECOND|off */
static int parse_rate(void *settings, const char *token, char **w, int n,
		      char *err, size_t len)
{
	struct sim_settings *s = settings;
	uint64_t v;

	if (n != 2)
		return util_parse_fail(err, len,
				       "%s: expected METRIC PER_SECOND", token);
	int k = backend_counter_arg(w[0], token, err, len);
	if (k < 0)
		return -1;
	if (strcmp(w[1], "off") == 0) {
		s->off |= COUNTER_BIT(k);
		return 0;
	}
	if (util_parse_u64(w[1], UINT64_MAX, &v))
		return util_parse_fail(err, len,
				       "%s: rate '%s' is not a whole number of "
				       "events per second (or 'off')",
				       token, w[1]);
	if (v > SIM_RATE_MAX)
		return util_parse_fail(
		    err, len,
		    "%s: rate %s is above %llu: the busiest "
		    "simulated CPU's counter would wrap within "
		    "a century",
		    token, w[1], (unsigned long long)SIM_RATE_MAX);
	s->rate[k] = v;
	s->rate_set |= COUNTER_BIT(k);
	s->off &= ~COUNTER_BIT(k);
	return 0;
}

/* The rates in effect and the counters off, whatever lines gave them. */
static bool same_rates(const void *a, const void *b)
{
	const struct sim_settings *x = a, *y = b;
	if (x->off != y->off)
		return false;
	for (int k = 0; k < COUNTER_COUNT; k++)
		if (backend_sim_rate(x, k) != backend_sim_rate(y, k))
			return false;
	return true;
}

static int parse_cpurev(void *settings, const char *token, char **w, int n,
			char *err, size_t len)
{
	struct sim_settings *s = settings;
	unsigned a, b;
	if (n != 1 || strlen(w[0]) > CPUREV_MAX ||
	    meta_cpurev_parse(w[0], &a, &b) != 0)
		return util_parse_fail(err, len,
				       "%s: expected a revision like 3.4 "
				       "(MAJOR.MINOR, each 0..%d)",
				       token, CPUREV_PART_MAX);
	snprintf(s->cpurev, sizeof(s->cpurev), "%s", w[0]);
	return 0;
}

static bool same_cpurev(const void *a, const void *b)
{
	return strcmp(((const struct sim_settings *)a)->cpurev,
		      ((const struct sim_settings *)b)->cpurev) == 0;
}

/* Every sim token reopens the sim: its counters change with them. */
static const struct config_token sim_tokens[] = {
    TOKEN_UINT("simCpus", "N (1..4096)", struct sim_settings, cpus, 1,
	       SIM_CPUS_MAX, true),
    TOKEN_CUSTOM("simRate", "METRIC PER_SECOND|off", struct sim_settings,
		 rate, true, parse_rate, same_rates, NULL),
    TOKEN_U64("simSeed", "N", struct sim_settings, seed, 0, UINT64_MAX,
	      true),
    TOKEN_CUSTOM("simCpurev", "MAJOR.MINOR", struct sim_settings, cpurev,
		 true, parse_cpurev, same_cpurev, NULL),
    TOKEN_UINT("simNodes",
	       "N (0..1024, default 0: none): CPU groups node0..nodeN-1, "
	       "the simulated CPUs split evenly",
	       struct sim_settings, nodes, 0, CPU_GROUPS_MAX, true),
    TOKEN_END,
};

const struct config_section backend_sim_section = {
    .name = "sim",
    .tokens = sim_tokens,
    .settings_size = sizeof(struct sim_settings),
    .defaults = &sim_defaults,
    .validate = NULL,
};

const struct backend_ops backend_sim = {
    .section = &backend_sim_section,
    .open = sim_open,
    .read = sim_read,
    .close = sim_close,
};
