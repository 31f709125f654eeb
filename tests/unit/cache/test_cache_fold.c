/* test_cache_fold.c - folding samples into monotonic counters: deltas,
 * CPUs leaving and joining, restarts, stops, the counted set, the
 * counting time. */
#include "cache_fixture.h"

static void first_poll_and_deltas(void **state)
{
	const unsigned cpus[] = {0, 1, 3};

	fill(&s, cpus, 3, 1000, 1);
	assert_int_equal(cache_update(&c, &s, 100), 0);
	assert_int_equal(c.nrows, 3);
	assert_int_equal(c.rows[2].cpu, 3);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[2], 0), 4000);
	assert_int_equal(c.total[0], 1000 + 2000 + 4000);
	assert_int_equal(c.discontinuity_time, 0);
	assert_false(c.total_delta_valid);
	assert_sums(&c);

	fill(&s, cpus, 3, 1500, 1);
	assert_int_equal(cache_update(&c, &s, 200), 0);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[1], 5), 3005);
	assert_int_equal(c.rows[1].delta[5], 1000);
	assert_true(c.rows[1].delta_valid);
	assert_true(c.total_delta_valid);
	assert_int_equal(c.total_delta[0], 500 + 1000 + 2000);
	assert_int_equal(c.rows[0].duty_cycle, 50);
	assert_int_equal(c.rows[0].time_enabled, 15000);
	assert_int_equal(c.last_poll_time, 200);
	assert_int_equal(c.polls, 2);
	assert_sums(&c);
	assert_non_null(cache_row(&c, 3));
	assert_null(cache_row(&c, 2));
	assert_int_equal(cache_row_after(&c, 1), 2);
	assert_int_equal(cache_row_after(&c, 3), 3);
}

static void cpu_leaves_and_joins(void **state)
{
	const unsigned two[] = {0, 1}, one[] = {0}, three[] = {0, 1, 2};

	fill(&s, two, 2, 1000, 1);
	cache_update(&c, &s, 100);
	uint64_t before = c.total[0];
	fill(&s, one, 1, 1100, 1);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.discontinuity_time, 200);
	assert_non_null(strstr(c.last_discontinuity, "CPU 1 left"));
	assert_int_equal(c.nrows, 1);
	/* the total never goes backwards: CPU 1's counts stay in it */
	assert_int_equal(c.total[0], before + 100);
	assert_false(c.total_delta_valid);

	fill(&s, three, 3, 1200, 1);
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_int_equal(c.discontinuity_time, 300);
	assert_int_equal(c.nrows, 3);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 0), 0), 1200);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 2), 0),
			 3600); /* since its epoch */
	assert_true(c.total[0] >= before);
}

static void restart_and_reset(void **state)
{
	const unsigned one[] = {0};

	fill(&s, one, 1, 1000, 1);
	cache_update(&c, &s, 100);
	/* new epoch: counting restarted, the new reading is the delta */
	fill(&s, one, 1, 10, 2);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 0), 1010);
	assert_false(c.rows[0].delta_valid);
	/* same epoch, value lower: a reset the backend did not announce */
	fill(&s, one, 1, 5, 2);
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 0), 1015);
	assert_int_equal(c.total[0], 1015);
	/* steady again */
	fill(&s, one, 1, 7, 2);
	assert_int_equal(cache_update(&c, &s, 400), 0);
	assert_int_equal(c.discontinuity_time, 300);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 0), 1017);
	/* a CPU joins: the rows move, CPU 0's value goes on from 1017 */
	const unsigned two[] = {0, 1};
	fill(&s, two, 2, 8, 2);
	assert_int_equal(cache_update(&c, &s, 500), 1);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 0), 0), 1018);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 1), 0), 16);
}

static void stop_and_resume(void **state)
{
	const unsigned one[] = {4};

	fill(&s, one, 1, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, one, 1, 9999, 1);
	s.cpus[0].counting = false;
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.rows[0].status, CPU_STOPPED);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 0), 5000);	/* frozen */
	assert_int_equal(cache_update(&c, &s, 300), 0); /* still stopped */
	fill(&s, one, 1, 20, 7);
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(c.rows[0].status, CPU_COUNTING);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 0), 5100);
	assert_non_null(strstr(c.last_discontinuity, "CPU 4 resumed"));
}

static void counted_set_changes(void **state)
{
	const unsigned one[] = {0};

	fill(&s, one, 1, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, one, 1, 2000, 1);
	s.counted = ALL & ~COUNTER_BIT(3);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_false(cache_counted(&c, 3));
	assert_true(cache_counted(&c, 2));
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 3), 1003); /* kept, not served */
	assert_int_equal(c.rows[0].delta[3], 1003);
	/* an uncounted counter's value is ignored, even a lower one */
	fill(&s, one, 1, 2500, 1);
	s.counted = ALL & ~COUNTER_BIT(3);
	s.cpus[0].value[3] = 1;
	assert_int_equal(cache_update(&c, &s, 300), 0);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 3), 1003);
	assert_int_equal(c.rows[0].delta[3], 1003);
	assert_int_equal(c.rows[0].raw[3], 1003);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 2), 2502);
	/* counted again: the delta since its last reading */
	fill(&s, one, 1, 3000, 1);
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(cache_cpu_row_value(&c, &c.rows[0], 3), 3003);
	assert_int_equal(c.rows[0].delta[3], 2000);
	assert_null(strstr(c.last_discontinuity, "backwards"));
}

static void duplicate_cpu_rejected(void **state)
{
	const unsigned dup[] = {2, 1, 2};
	fill(&s, dup, 3, 1, 1);
	assert_int_equal(cache_sample_sort(&s), -1);
	const unsigned ok[] = {5, 1, 3};
	fill(&s, ok, 3, 1, 1);
	assert_int_equal(cache_sample_sort(&s), 0);
	assert_int_equal(s.cpus[0].cpu, 1);
	assert_int_equal(s.cpus[2].cpu, 5);
}

/* hwR10kEvCtrCountingTime: the known intervals, summed; with the
 * counters it gives the exact rate between any two polls. */
static void counting_time(void **state)
{
	/* poll k at times[k] s; CPU 0 counts rates[k] per s before it */
	const unsigned times[] = {5, 8, 9, 14, 20};
	const uint64_t rates[] = {0, 1000, 5000, 2000, 3000};
	uint64_t v = 0, e[5], t[5];

	for (int k = 0; k < 5; k++) {
		steady(&s, times[k]);
		v += k ? rates[k] * (times[k] - times[k - 1]) : 0;
		s.cpus[0].value[0] = v;
		cache_update(&c, &s, times[k] * 100);
		e[k] = cache_cpu_row_value(&c, &c.rows[0], 0);
		t[k] = c.counting_ns;
	}
	assert_int_equal(t[0], 0);
	assert_int_equal(t[4], 15 * 1000000000ull);
	/* polls 1 to 4: 5000 + 10000 + 18000 events in 12 s */
	assert_int_equal((e[4] - e[1]) * 1000000000ull / (t[4] - t[1]),
			 33000 / 12);
	/* a clock that went backwards adds nothing, nor does the first poll
	 * of another backend's clock */
	steady(&s, 3);
	cache_update(&c, &s, 2100);
	assert_int_equal(c.counting_ns, t[4]);
	assert_int_equal(c.interval_ns, 0);
	cache_clock_restart(&c);
	steady(&s, 100);
	cache_update(&c, &s, 2200);
	assert_int_equal(c.counting_ns, t[4]);
	steady(&s, 102);
	cache_update(&c, &s, 2300);
	assert_int_equal(c.counting_ns, t[4] + 2 * 1000000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(first_poll_and_deltas, setup, teardown),
	    cmocka_unit_test_setup_teardown(cpu_leaves_and_joins, setup, teardown),
	    cmocka_unit_test_setup_teardown(restart_and_reset, setup, teardown),
	    cmocka_unit_test_setup_teardown(stop_and_resume, setup, teardown),
	    cmocka_unit_test_setup_teardown(counted_set_changes, setup, teardown),
	    cmocka_unit_test_setup_teardown(duplicate_cpu_rejected, setup, teardown),
	    cmocka_unit_test_setup_teardown(counting_time, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
