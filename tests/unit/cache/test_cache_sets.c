/* test_cache_sets.c - sets that lack something: counters counted
 * system-wide only, a CPU missing from one set or back in a new epoch,
 * nothing counting, the recording ended. */
#include "cache_fixture.h"

/* A counter counted system-wide only: no per-CPU value, its sum follows
 * the backend's system-wide reading, a new epoch is a discontinuity. */
static void system_wide_counters(void **state)
{
	const unsigned cpus[] = {0, 1};
	uint64_t v;

	fill(&s, cpus, 2, 1000, 1);
	s.system_wide = COUNTER_BIT(0);
	s.total[0] = 50;
	s.total_epoch = 7;
	assert_int_equal(cache_update(&c, &s, 100), 0);
	assert_int_equal(c.total[0], 50); /* not 1000 + 2000 */
	assert_int_equal(c.total[1], 1001 + 2001);
	assert_false(cache_counted_per_cpu(&c, 0));
	assert_true(cache_counted_per_cpu(&c, 1));
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 0), 0);

	fill(&s, cpus, 2, 1500, 1);
	s.system_wide = COUNTER_BIT(0);
	s.total[0] = 80;
	s.total_epoch = 7;
	assert_int_equal(cache_update(&c, &s, 200), 0);
	assert_int_equal(c.total[0], 80);
	assert_int_equal(c.total_delta[0], 30);
	assert_int_equal(cache_value(&c, 0, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 80);
	assert_int_equal(cache_value(&c, 0, 0, &v), SAMPLE_NONE);
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_NONE);

	/* the system-wide reading restarts: its new value is the delta */
	s.total[0] = 5;
	s.total_epoch = 8;
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_non_null(strstr(c.last_discontinuity, "system-wide"));
	assert_int_equal(c.total[0], 85);
	assert_int_equal(c.discontinuity_time, 300);

	/* a restart whose first reading is above the last one: still a new
	 * epoch (its whole value counted since), not a step of 200 - 5 */
	s.total[0] = 200;
	s.total_epoch = 9;
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(c.total[0], 285);
	assert_int_equal(c.discontinuity_time, 400);
}


/* Each CPU counts +100 per set; CPU 1 is missing from one set (a replay
 * set or a PCP record without it) and comes back in the same epoch: the
 * sum is what the CPUs counted (800), never 900; CPU 1's row resumes. */
static void cpu_missing_from_one_set(void **state)
{
	const unsigned two[] = {0, 1}, one[] = {0};
	uint64_t v;

	for (uint64_t t = 0; t <= 4; t++) {
		bool gap = t == 2;
		fill(&s, gap ? one : two, gap ? 1 : 2, 0, 1);
		for (size_t i = 0; i < s.ncpus; i++)
			for (int k = 0; k < COUNTER_COUNT; k++)
				s.cpus[i].value[k] = 100 * t;
		s.time_ns = (t + 1) * 1000000000u;
		int disc = cache_update(&c, &s, (uint32_t)(100 * (t + 1)));
		assert_int_equal(disc, t == 2 || t == 3);
		assert_int_equal(c.total[0], rows_and_gone(&c, 0));
	}
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 0), 0), 400);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 1), 0), 400);
	assert_int_equal(c.total[0], 800);
	assert_int_equal(c.ngone, 0);
	/* the return's delta spans the gap: no rate for it then, and the
	 * next interval is steady again */
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_OK);
}

/* A CPU leaves and comes back in a new epoch: its value goes on from
 * where it left, plus the new epoch's counts; the sum equals rows plus
 * the departed. */
static void cpu_returns_in_new_epoch(void **state)
{
	const unsigned two[] = {0, 1}, one[] = {0};
	uint64_t v;

	fill(&s, two, 2, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, one, 1, 1100, 1);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.ngone, 1);
	assert_int_equal(c.total[0], rows_and_gone(&c, 0));
	fill(&s, two, 2, 1200, 1);
	s.cpus[1].epoch = 2;
	for (int k = 0; k < COUNTER_COUNT; k++)
		s.cpus[1].value[k] = 30;
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_non_null(strstr(c.last_discontinuity, "CPU 1 returned"));
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 1), 0), 2000 + 30);
	assert_int_equal(c.total[0], rows_and_gone(&c, 0));
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_DISCONTINUITY);
}

/* pmcd lost: every CPU stopped and the system-wide reading stopped; the
 * summed rates are unknown (no instance), never 0, poll after poll. */
static void nothing_counting_has_no_sum_rate(void **state)
{
	const unsigned two[] = {0, 1};
	uint64_t v;

	for (uint64_t t = 1; t <= 2; t++) {
		fill(&s, two, 2, 1000 * t, 1);
		s.system_wide = COUNTER_BIT(0);
		s.total[0] = 10 * t;
		s.time_ns = t * 1000000000u;
		cache_update(&c, &s, (uint32_t)(100 * t));
	}
	assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 10);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	for (uint64_t t = 3; t <= 5; t++) {
		fill(&s, two, 2, 1000 * t, 1);
		s.cpus[0].counting = s.cpus[1].counting = false;
		s.system_wide = COUNTER_BIT(0);
		s.system_wide_stopped = true;
		s.total[0] = 20;
		s.time_ns = t * 1000000000u;
		cache_update(&c, &s, (uint32_t)(100 * t));
		assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_delta(&c, 1, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_DISCONTINUITY);
	}
	/* one CPU counting again: its sum has a source */
	fill(&s, two, 2, 9000, 2);
	s.cpus[1].counting = false;
	s.time_ns = 6000000000u;
	cache_update(&c, &s, 600);
	fill(&s, two, 2, 9100, 2);
	s.cpus[1].counting = false;
	s.time_ns = 7000000000u;
	cache_update(&c, &s, 700);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
}

/* The recording ended: rows say so, values and times stand, no rate or
 * delta is served (summed or per CPU), and it is no discontinuity. */
static void recording_ended(void **state)
{
	const unsigned two[] = {0, 1};
	uint64_t v;

	fill(&s, two, 2, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, two, 2, 1500, 1);
	cache_update(&c, &s, 200);
	uint64_t total = c.total[3], enabled = c.rows[0].time_enabled;
	for (uint32_t t = 3; t <= 5; t++) {
		fill(&s, two, 2, 1500, 1);
		s.ended = true;
		s.cpus[0].time_enabled = 99999;
		assert_int_equal(cache_update(&c, &s, 100 * t), 0);
		assert_int_equal(c.rows[0].status, CPU_ENDED);
		assert_int_equal(c.rows[1].status, CPU_ENDED);
		assert_int_equal(c.total[3], total);
		assert_int_equal(c.rows[0].time_enabled, enabled);
		assert_int_equal(cache_rate(&c, 3, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_rate(&c, 3, 0, &v), SAMPLE_NONE);
		assert_int_equal(cache_value(&c, 3, 1, &v), SAMPLE_NONE);
	}
	assert_int_equal(c.discontinuity_time, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(system_wide_counters, setup, teardown),
	    cmocka_unit_test_setup_teardown(cpu_missing_from_one_set, setup, teardown),
	    cmocka_unit_test_setup_teardown(cpu_returns_in_new_epoch, setup, teardown),
	    cmocka_unit_test_setup_teardown(nothing_counting_has_no_sum_rate, setup, teardown),
	    cmocka_unit_test_setup_teardown(recording_ended, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
