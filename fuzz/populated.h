/*
 * populated.h - the cache the read-path targets query (fuzz_mibview,
 * fuzz_agentx): sim-like CPUs 0, 2 and 5 (CPU 2 stopped) in two CPU
 * groups (0-2 and 5-7), one counter uncounted, two polls (rates and
 * statistics), two alarms.  Built once.
 */
#ifndef HWR10K_FUZZ_POPULATED_H
#define HWR10K_FUZZ_POPULATED_H

#include "alarm/alarm.h"
#include "cache/cache.h"
#include "fuzz.h"
#include "view/mibview.h"

static const struct mib_view *populated_view(void)
{
	static struct cache cache;
	static struct alarm_set alarms;
	static struct served served;
	static const struct mib_view view = {&cache, &served};
	struct sample s = {0};
	struct alarm_config cfg[2];
	char err[256];

	if (cache.rows)
		return &view;
	struct cpu_groups groups = {0};
	util_log_set(fuzz_quiet);
	cache_init(&cache);
	util_cpu_groups_add(&groups, "node0", "0-2", err, sizeof(err));
	util_cpu_groups_add(&groups, "node1", "5-7", err, sizeof(err));
	cache_groups_use(&cache, &groups);
	util_cpu_groups_free(&groups);
	cache_sample_reserve(&s, 3);
	s.ncpus = 3;
	s.counted = ~COUNTER_BIT(7) & ((UINT64_C(1) << COUNTER_COUNT) - 1);
	s.state = 30;
	for (unsigned i = 0; i < 3; i++) {
		s.cpus[i].cpu = i == 2 ? 5 : i * 2;
		s.cpus[i].counting = i != 1;
		s.cpus[i].epoch = 1;
		for (int k = 0; k < COUNTER_COUNT; k++)
			s.cpus[i].value[k] = (uint64_t)(i + 1) * 1000 + k;
	}
	cache_update(&cache, &s, 100);
	for (unsigned i = 0; i < 3; i++)
		for (int k = 0; k < COUNTER_COUNT; k++)
			s.cpus[i].value[k] *= 2;
	s.time_ns = 5000000000u;
	cache_update(&cache, &s, 600);
	alarm_config_parse("a hw.r10kevctr.tlb sum rate 10 5", &cfg[0], err,
			   sizeof(err));
	alarm_config_parse("b hw.r10kevctr.cycles 2 absolute 10 5", &cfg[1],
			   err, sizeof(err));
	alarm_set_build(&alarms, cfg, 2, NULL);
	view_served_configure(&served, "sim", 5, &alarms);
	cache_sample_free(&s);
	return &view;
}

#endif
