/* test_stats_values.c - the derived statistics of lib/tables/stats.def:
 * predicted values on the sim and on a replay recording, differences and
 * their gaps, the revision rule, no instance without an input or a
 * denominator, and alarms that watch them. */
#include "stats_fixture.h"

/* Every statistic on the sim equals what its row predicts from the sim
 * rates: the CPU factor and the interval cancel in ratios. */
static void sim_predicted(void **state)
{
	struct config cfg;
	struct cache c;
	uint64_t v;

	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpus", "3");
	cfg.poll_interval = 2;
	two_polls(&cfg, &c);
	for (size_t i = 0; i < meta_stat_count; i++) {
		const struct stat_def *s = &meta_stat_defs[i];
		uint64_t num = rate(s->num) - rate(s->minus);
		uint64_t den = rate(s->den) + rate(s->plus);
		for (long cpu = -1; cpu < 3; cpu++) {
			uint64_t factor =
			    cpu < 0 ? 1 + 2 + 3 : (uint64_t)cpu + 1;
			uint64_t want =
			    s->scale ? (uint64_t)((unsigned __int128)num *
						  s->scale / den)
				     : num * factor * 2;
			if (cache_stat_value(&c, i, cpu, &v) != SAMPLE_OK)
				fail_msg("%s, cpu %ld: no value", s->name, cpu);
			if (v != want)
				fail_msg("%s, cpu %ld: %llu, predicted %llu",
					 s->name, cpu, (unsigned long long)v,
					 (unsigned long long)want);
		}
	}
	cache_free(&c);

	/* an R10000 before 3.0: no misprediction rate; an input off: none */
	CONF(&cfg, "simCpurev", "2.6");
	CONF(&cfg, "simRate", "hw.r10kevctr.cycles off");
	two_polls(&cfg, &c);
	assert_int_equal(
	    cache_stat_value(
		&c, (size_t)meta_stat_index_by_name("stat.branch.mispredict"),
		-1, &v),
	    SAMPLE_NONE);
	assert_int_equal(
	    cache_stat_value(&c, (size_t)meta_stat_index_by_name("stat.ipc"), 0,
			     &v),
	    SAMPLE_NONE);
	assert_int_equal(
	    cache_stat_value(
		&c, (size_t)meta_stat_index_by_name("stat.scond.ok"), 0, &v),
	    SAMPLE_OK);
	cache_free(&c);
	config_free(&cfg);
}
/* One replay interval: IPC per CPU and summed from the same deltas; at
 * the end (no deltas) no instance; before the second poll none. */
static void replay_predicted(void **state)
{
	const char *text = "0 - hw.r10kevctr.cpurev 3.1\n"
			   "0 0 hw.r10kevctr.cycles 1000\n"
			   "0 1 hw.r10kevctr.cycles 1000\n"
			   "0 0 hw.r10kevctr.grad.instrg 10\n"
			   "0 1 hw.r10kevctr.grad.instrg 10\n"
			   "5 0 hw.r10kevctr.cycles 3000\n"
			   "5 1 hw.r10kevctr.cycles 4000\n"
			   "5 0 hw.r10kevctr.grad.instrg 210\n"
			   "5 1 hw.r10kevctr.grad.instrg 410\n";
	struct cache c;
	uint64_t v;
	size_t ipc = (size_t)meta_stat_index_by_name("stat.ipc");
	replay_two_polls(text, &c);
	assert_int_equal(cache_stat_value(&c, ipc, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 200 * 1000 / 2000); /* 100 */
	assert_int_equal(cache_stat_value(&c, ipc, 1, &v), SAMPLE_OK);
	assert_int_equal(v, 400 * 1000 / 3000); /* 133 */
	assert_int_equal(cache_stat_value(&c, ipc, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 600 * 1000 / 5000); /* 120, not 100 + 133 */
	assert_int_equal(
	    cache_stat_value(
		&c, (size_t)meta_stat_index_by_name("stat.pcache.dmiss.ratio"),
		-1, &v),
	    SAMPLE_NONE); /* not recorded */
	cache_free(&c);
}

/* Successful store-conditionals: per CPU, graduated minus failed, 0 when
 * a CPU's failures exceed its graduations in the interval; the summed
 * value is the sum of the CPUs' values (6 + 0), not the difference of
 * the sums (12 - 9 = 3). */
static void difference_sums_its_rows(void **state)
{
	struct cache c;
	uint64_t v0, v1, sum;
	size_t ok = (size_t)meta_stat_index_by_name("stat.scond.ok");

	replay_two_polls("0 0 hw.r10kevctr.grad.scondg 100\n"
			 "0 1 hw.r10kevctr.grad.scondg 100\n"
			 "0 0 hw.r10kevctr.fail.scondf 50\n"
			 "0 1 hw.r10kevctr.fail.scondf 50\n"
			 "5 0 hw.r10kevctr.grad.scondg 110\n"
			 "5 1 hw.r10kevctr.grad.scondg 102\n"
			 "5 0 hw.r10kevctr.fail.scondf 54\n"
			 "5 1 hw.r10kevctr.fail.scondf 55\n",
			 &c);
	assert_int_equal(cache_stat_value(&c, ok, 0, &v0), SAMPLE_OK);
	assert_int_equal(cache_stat_value(&c, ok, 1, &v1), SAMPLE_OK);
	assert_int_equal(cache_stat_value(&c, ok, -1, &sum), SAMPLE_OK);
	assert_int_equal(v0, 6);
	assert_int_equal(v1, 0);
	assert_int_equal(sum, v0 + v1);
	cache_free(&c);
}

/* One input counted system-wide only (a PMDA's sum, no CPUs): the
 * summed value is the floored difference of the sums (20 - 9), and no
 * CPU has one. */
static void difference_of_a_system_wide_input(void **state)
{
	struct cache c;
	uint64_t v;
	size_t ok = (size_t)meta_stat_index_by_name("stat.scond.ok");

	replay_two_polls("0 - hw.r10kevctr.grad.scondg 100\n"
			 "0 0 hw.r10kevctr.fail.scondf 50\n"
			 "0 1 hw.r10kevctr.fail.scondf 50\n"
			 "5 - hw.r10kevctr.grad.scondg 120\n"
			 "5 0 hw.r10kevctr.fail.scondf 54\n"
			 "5 1 hw.r10kevctr.fail.scondf 55\n",
			 &c);
	assert_int_equal(cache_stat_value(&c, ok, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 11);
	assert_int_equal(cache_stat_value(&c, ok, 0, &v), SAMPLE_NONE);
	cache_free(&c);
}

/* hw.help: in rev 2.x grad.loadg misses loads that graduate with a
 * store, so the primary data miss ratio is served from rev 3 only. */
static void pcache_ratio_needs_rev3(void **state)
{
	static const char *const revs[] = {"2.6", "3.1"};
	size_t pc = (size_t)meta_stat_index_by_name("stat.pcache.dmiss.ratio");
	char text[1024];
	struct cache c;
	uint64_t v;

	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof(text),
			 "0 - hw.r10kevctr.cpurev %s\n"
			 "0 0 hw.r10kevctr.pcache.dmiss 0\n"
			 "0 0 hw.r10kevctr.grad.loadg 0\n"
			 "0 0 hw.r10kevctr.grad.storeg 0\n"
			 "5 0 hw.r10kevctr.pcache.dmiss 30\n"
			 "5 0 hw.r10kevctr.grad.loadg 700\n"
			 "5 0 hw.r10kevctr.grad.storeg 300\n",
			 revs[i]);
		replay_two_polls(text, &c);
		enum sample_status st = cache_stat_value(&c, pc, -1, &v);
		if (i == 0) {
			assert_int_equal(st, SAMPLE_NONE);
		} else {
			assert_int_equal(st, SAMPLE_OK);
			assert_int_equal(v, 30 * 1000000 / 1000);
		}
		cache_free(&c);
	}
}

static void emit_count(void *ctx, const struct alarm *a, size_t index,
		       enum alarm_event_kind kind)
{
	(*(unsigned *)ctx)++;
}

/* "stat.NAME" in an alarm line: absolute only, and it fires. */
static void alarms_on_statistics(void **state)
{
	struct alarm_config ac;
	struct alarm_set set = {0};
	struct config cfg;
	struct cache c;
	char err[256];
	unsigned fired = 0;

	assert_int_not_equal(alarm_config_parse("x stat.ipc sum rate 2 1", &ac,
						err, sizeof(err)),
			     0);
	assert_non_null(strstr(err, "use absolute"));
	assert_int_not_equal(
	    alarm_config_parse("x stat.nosuch sum absolute 2 1", &ac, err,
			       sizeof(err)),
	    0);
	assert_int_equal(
	    alarm_config_parse("ipc stat.ipc each absolute 700 500", &ac, err,
			       sizeof(err)),
	    0);
	assert_string_equal(ac.metric, "stat.ipc");
	assert_int_equal(alarm_set_build(&set, &ac, 1, NULL), 0);
	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpus", "2");
	two_polls(&cfg, &c);
	/* IPC 0.769 on each CPU: both rise over 0.700 at startup */
	assert_int_equal(alarm_evaluate(&c, &set, emit_count, &fired), 2);
	assert_int_equal(fired, 2);
	alarm_set_free(&set);
	cache_free(&c);
	config_free(&cfg);
}

/* Poll t of two CPUs: ScondOk's inputs (grad.scondg, fail.scondf) count
 * (cpu + 1) * {300, 100} a second; fail.scondf of CPU 0 has no reading
 * when gap (its value held). */
static void scond_poll(struct cache *c, struct sample *s, uint64_t t,
		       bool gap)
{
	const int ok = C("grad.scondg"), fail = C("fail.scondf");
	assert_int_equal(cache_sample_reserve(s, 2), 0);
	s->ncpus = 2;
	s->counted = (counter_mask)((UINT64_C(1) << COUNTER_COUNT) - 1);
	s->state = COUNTER_COUNT;
	s->time_ns = t * 1000000000u;
	snprintf(s->cpurev, sizeof(s->cpurev), "3.4");
	for (unsigned i = 0; i < 2; i++) {
		struct cpu_sample *cs = &s->cpus[i];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = i;
		cs->counting = true;
		cs->epoch = 1;
		cs->value[ok] = (i + 1) * 300 * t;
		cs->value[fail] = (i + 1) * 100 * t;
	}
	if (gap) {
		s->cpus[0].value[fail] = 100 * (t - 1);
		s->cpus[0].unread = COUNTER_BIT(fail);
	}
	assert_int_equal(cache_update(c, s, t * 100), 0);
}

/* A difference (a count per poll interval, ScondOk) is never served over
 * a longer span: after an input's missing reading it waits for a whole
 * interval with both inputs read, on the CPU and in the sum. */
static void difference_across_a_gap(void **state)
{
	const size_t k = meta_stat_index_by_name("stat.scond.ok");
	struct sample s = {0};
	struct cache c;
	uint64_t v = 0;

	cache_init(&c);
	scond_poll(&c, &s, 1, false);
	scond_poll(&c, &s, 2, false);
	assert_int_equal(cache_stat_value(&c, k, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 200);
	scond_poll(&c, &s, 3, true);
	assert_int_equal(cache_stat_value(&c, k, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, k, -1, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, k, 1, &v), SAMPLE_OK);
	assert_int_equal(v, 400);
	/* t 4: read again, but CPU 0's span reaches back to t 2 */
	scond_poll(&c, &s, 4, false);
	assert_int_equal(cache_stat_value(&c, k, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, k, -1, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, k, 1, &v), SAMPLE_OK);
	assert_int_equal(v, 400);
	/* t 5: one whole interval again */
	scond_poll(&c, &s, 5, false);
	assert_int_equal(cache_stat_value(&c, k, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 200);
	assert_int_equal(cache_stat_value(&c, k, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 600);
	cache_free(&c);
	cache_sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sim_predicted),
	    cmocka_unit_test(replay_predicted),
	    cmocka_unit_test(alarms_on_statistics),
	    cmocka_unit_test(difference_sums_its_rows),
	    cmocka_unit_test(difference_of_a_system_wide_input),
	    cmocka_unit_test(pcache_ratio_needs_rev3),
	    cmocka_unit_test(difference_across_a_gap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
