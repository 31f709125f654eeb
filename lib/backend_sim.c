/*
 * backend_sim.c - deterministic simulated counters, for demos and tests.
 *
 * The sim has a virtual clock that advances by pollInterval seconds at
 * every read, so values do not depend on scheduling:
 *
 *   value(cpu, counter) = offset(seed, cpu, counter)
 *                         + rate(counter) * ((cpu mod 8) + 1)
 *                           * virtual seconds (pollInterval per read)
 *
 * rate is simRate (default: metrics.def SIMRATE); offset is 0 with simSeed
 * 0 (the default) and a splitmix64 value below 2^40 otherwise.  The CPU
 * factor repeats every SIM_CPU_FACTORS CPUs, so that with rates up to
 * SIM_RATE_MAX no counter wraps within a century at any simCpus.  CPUs are
 * numbered 0..simCpus-1.  The sim counts every counter that is not 'off'
 * and that exists on the simulated CPU revision (vcc before 3.1, fucomp
 * from 3.1), and reports that number as hw.r10kevctr.state.
 */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim {
	struct sim_config cfg;
	unsigned interval;
	uint64_t vtime; /* virtual seconds: pollInterval per read */
	uint32_t epoch;
	counter_mask counted;
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
	s->cfg = cfg->sim;
	s->interval = cfg->poll_interval;
	s->epoch = backend_new_epoch();
	for (int i = 0; i < COUNTER_COUNT; i++)
		if (!(s->cfg.off & COUNTER_BIT(i)) &&
		    metric_in_revision(&counters[i], s->cfg.cpurev))
			s->counted |= COUNTER_BIT(i);
	b->priv = s;
	return 0;
}

static int sim_read(struct backend *b, struct sample *out)
{
	struct sim *s = b->priv;

	if (sample_reserve(out, s->cfg.cpus) < 0)
		return -1;
	s->vtime += s->interval;
	uint64_t t = s->vtime;
	for (unsigned cpu = 0; cpu < s->cfg.cpus; cpu++) {
		struct cpu_sample *cs = &out->cpus[cpu];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = cpu;
		cs->counting = true;
		cs->epoch = s->epoch;
		cs->time_enabled = cs->time_running = t * 1000000000u;
		for (int i = 0; i < COUNTER_COUNT; i++)
			if (s->counted & COUNTER_BIT(i))
				cs->value[i] = sim_offset(s->cfg.seed, cpu, i) +
					       s->cfg.rate[i] *
						   (cpu % SIM_CPU_FACTORS + 1) *
						   t;
	}
	out->ncpus = s->cfg.cpus;
	out->time_ns = t * 1000000000u; /* the virtual clock */
	out->counted = s->counted;
	out->state = __builtin_popcountll(s->counted);
	snprintf(out->cpurev, sizeof(out->cpurev), "%s", s->cfg.cpurev);
	return 0;
}

static bool sim_keep(struct backend *b, const struct config *cfg)
{
	struct sim *s = b->priv;
	const struct sim_config *n = &cfg->sim;

	if (s->cfg.cpus != n->cpus || s->cfg.off != n->off ||
	    s->cfg.seed != n->seed || strcmp(s->cfg.cpurev, n->cpurev) != 0 ||
	    memcmp(s->cfg.rate, n->rate, sizeof(n->rate)) != 0)
		return false;
	s->interval = cfg->poll_interval; /* the virtual clock's step */
	return true;
}

static void sim_close(struct backend *b)
{
	free(b->priv);
}

const struct backend_ops backend_sim = {
    .name = "sim",
    .validate = NULL,
    .open = sim_open,
    .read = sim_read,
    .close = sim_close,
    .keep = sim_keep,
};
