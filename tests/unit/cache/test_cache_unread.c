/* test_cache_unread.c - readings missing from a set (unread cells): the
 * value held, no rate across the gap, resets behind or during one. */
#include "cache_fixture.h"

static int IPC(void)
{
	return (int)meta_stat_index_by_name("stat.ipc");
}

static void missing_reading(void **state)
{
	uint64_t v;
	int cyc = meta_counter_index_by_name("hw.r10kevctr.cycles");
	int ins = meta_counter_index_by_name("hw.r10kevctr.grad.instrg");

	for (unsigned t = 0; t < 2; t++) {
		steady(&s, t);
		for (size_t i = 0; i < 2; i++) {
			s.cpus[i].value[cyc] = (i + 1) * 1000 * t;
			s.cpus[i].value[ins] = (i + 1) * 500 * t;
		}
		cache_update(&c, &s, t * 100);
	}
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_OK);
	assert_int_equal(v, 500);
	/* t 2: CPU 0 has no instructions (held at 500); CPU 1 has */
	steady(&s, 2);
	s.cpus[0].value[cyc] = 2000;
	s.cpus[0].value[ins] = 500;
	s.cpus[0].unread = COUNTER_BIT(ins);
	s.cpus[1].value[cyc] = 4000;
	s.cpus[1].value[ins] = 2000;
	assert_int_equal(cache_update(&c, &s, 200), 0); /* no discontinuity */
	assert_int_equal(cache_rate(&c, ins, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, ins, -1, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, ins, 1, &v), SAMPLE_OK);
	assert_int_equal(v, 1000);
	assert_int_equal(cache_rate(&c, cyc, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 1000);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 0, &v),
			 SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), -1, &v),
			 SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 1, &v), SAMPLE_OK);
	assert_int_equal(cache_value(&c, ins, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(v, 500); /* held */
	assert_sums(&c);
	/* t 3: CPU 0 counted 2500 instructions since t 1, in 2000 cycles */
	steady(&s, 3);
	s.cpus[0].value[cyc] = 3000;
	s.cpus[0].value[ins] = 3000;
	s.cpus[1].value[cyc] = 6000;
	s.cpus[1].value[ins] = 3000;
	assert_int_equal(cache_update(&c, &s, 300), 0);
	assert_int_equal(cache_rate(&c, ins, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 1250); /* 2500 over 2 s */
	assert_int_equal(cache_rate(&c, ins, -1, &v), SAMPLE_OK);
	assert_int_equal(v, (2500 + 2000) / 2); /* the sum: since t 1 too */
	assert_int_equal(cache_delta(&c, ins, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_OK);
	assert_int_equal(v, 2500 * 1000 / 2000);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), -1, &v),
			 SAMPLE_OK);
	assert_int_equal(v, (2500 + 2000) * 1000 / (2000 + 4000));
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 1, &v), SAMPLE_OK);
	assert_int_equal(v, 1000 * 1000 / 2000); /* CPU 1: the last second */
	/* t 4: steady again, one interval */
	steady(&s, 4);
	s.cpus[0].value[cyc] = 4000;
	s.cpus[0].value[ins] = 3100;
	s.cpus[1].value[cyc] = 8000;
	s.cpus[1].value[ins] = 4000;
	cache_update(&c, &s, 400);
	assert_int_equal(cache_rate(&c, ins, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
	assert_int_equal(c.discontinuity_time, 0);
	assert_sums(&c);
}

static void reset_of_one_cell(void **state)
{
	uint64_t v;

	for (unsigned t = 0; t < 2; t++) {
		steady(&s, t);
		cache_update(&c, &s, t * 100);
	}
	/* t 2: the backend says CPU 0's counter 0 restarted; it counted 7
	 * since (its value is already 100 + 7) */
	steady(&s, 2);
	s.cpus[0].value[0] = 107;
	s.cpus[0].reset = COUNTER_BIT(0);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.discontinuity_time, 200);
	assert_non_null(strstr(c.last_discontinuity, "CPU 0"));
	assert_non_null(strstr(c.last_discontinuity, "(reset)"));
	assert_int_equal(cache_rate(&c, 0, 0, &v), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_OK);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_OK); /* counts on */
	assert_int_equal(v, 30);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 90);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 0), 0), 107);
	assert_sums(&c);
	/* t 3: exact again */
	steady(&s, 3);
	s.cpus[0].value[0] = 207;
	assert_int_equal(cache_update(&c, &s, 300), 0);
	assert_int_equal(cache_rate(&c, 0, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
	assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 300);
	/* a reading lower than the last without the backend saying so: the
	 * cache's own rule, the same cell-wise result */
	steady(&s, 4);
	s.cpus[1].value[1] = 5;
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(cache_rate(&c, 1, 1, &v), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_OK);
	assert_int_equal(cache_cpu_row_value(&c, cache_row(&c, 1), 1), 60 * 3 + 5);
	assert_sums(&c);
}

/* A cell unread from the row's first poll has no base: no rate at its
 * first reading, one at its second. */
static void unread_from_the_start(void **state)
{
	uint64_t v;

	steady(&s, 0);
	s.cpus[0].unread = COUNTER_BIT(1);
	s.cpus[0].value[1] = 0;
	cache_update(&c, &s, 0);
	steady(&s, 1);
	s.cpus[0].unread = COUNTER_BIT(1);
	s.cpus[0].value[1] = 0;
	cache_update(&c, &s, 100);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_UNREAD);
	steady(&s, 2);
	s.cpus[0].value[1] = 0; /* its first reading: the base */
	cache_update(&c, &s, 200);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_UNREAD);
	steady(&s, 3);
	s.cpus[0].value[1] = 30;
	cache_update(&c, &s, 300);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 30);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 90);
}


/* The sum's rate and IPC must not span a reset of one of its cells,
 * also when the reset comes at a poll where another CPU has no reading
 * of that counter (issue 38): CPU 0's cycles 1000, 2000, 7, 1007 and
 * CPU 1's 1000, 2000, (none), 4000 once served a summed rate of 1503
 * where the rows say 1000 + 1000 and the truth is none. */
static void reset_behind_missing_reading(void **state)
{
	const long long v[][2][2] = {
	    {{1000, 500}, {1000, 400}}, {{2000, 1000}, {2000, 800}},
	    {{7, 1500}, {-1, -1}},	{{1007, 2000}, {4000, 1600}},
	    {{2007, 2500}, {5000, 2000}},
	};
	int cyc = meta_counter_index_by_name("hw.r10kevctr.cycles");
	int ins = meta_counter_index_by_name("hw.r10kevctr.grad.instrg");
	uint64_t held[2][2] = {{0}}, r;

	poll_two(&c, &s, 0, v[0], held);
	poll_two(&c, &s, 1, v[1], held);
	/* t 2: CPU 0's cycles restart, CPU 1 has no cycles */
	assert_int_equal(poll_two(&c, &s, 2, v[2], held), 1);
	assert_non_null(strstr(c.last_discontinuity, "CPU 0"));
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_UNREAD);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			 SAMPLE_UNREAD);
	/* t 3: the rows are exact; the sum's span holds the reset */
	assert_int_equal(poll_two(&c, &s, 3, v[3], held), 0);
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_OK);
	assert_int_equal(r, 1000);
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 2000 over 2 s */
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_delta(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_not_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			     SAMPLE_OK);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 0, &r), SAMPLE_OK);
	assert_int_equal(r, 500 * 1000 / 1000);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), 1, &r), SAMPLE_OK);
	assert_int_equal(r, 800 * 1000 / 2000); /* since t 1 */
	assert_int_equal(cache_rate(&c, ins, -1, &r), SAMPLE_OK);
	assert_int_equal(r, (1000 + 800) / 2); /* no reset: since t 1 */
	assert_sums(&c);
	/* t 4: one interval with every reading: exact again */
	assert_int_equal(poll_two(&c, &s, 4, v[4], held), 0);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000 + 1000);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			 SAMPLE_OK);
	assert_int_equal(r, (500 + 400) * 1000 / 2000);
	assert_sums(&c);
}

/* The other orders: CPU 1's reading goes missing first and CPU 0 resets
 * while it still waits (t 2, 3); then CPU 0 resets while CPU 1 has no
 * reading, and CPU 0 has none at the next poll while CPU 1 has one (t
 * 6, 7): the sum's next reading with every CPU (t 4, t 8) has no rate
 * and no IPC, the one after has both. */
static void reset_while_waiting(void **state)
{
	const long long v[][2][2] = {
	    {{1000, 500}, {1000, 400}},	 {{2000, 1000}, {2000, 800}},
	    {{3000, 1500}, {-1, -1}},	 {{5, 2000}, {-1, -1}},
	    {{1005, 2500}, {5000, 2000}}, {{2005, 3000}, {6000, 2400}},
	    {{9, 3500}, {-1, -1}},	 {{-1, -1}, {8000, 3200}},
	    {{2009, 4500}, {9000, 3600}}, {{3009, 5000}, {10000, 4000}},
	};
	int cyc = meta_counter_index_by_name("hw.r10kevctr.cycles");
	uint64_t held[2][2] = {{0}}, r;

	for (unsigned t = 0; t < 4; t++)
		poll_two(&c, &s, t, v[t], held);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_UNREAD);
	poll_two(&c, &s, 4, v[4], held);
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_OK);
	assert_int_equal(r, 1000);
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 3000 over 3 s */
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_not_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			     SAMPLE_OK);
	poll_two(&c, &s, 5, v[5], held);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_OK);
	assert_int_equal(r, 2000);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			 SAMPLE_OK);
	assert_int_equal(r, (500 + 400) * 1000 / 2000);
	for (unsigned t = 6; t < 8; t++) {
		poll_two(&c, &s, t, v[t], held);
		assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_UNREAD);
	}
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 2000 over 2 s */
	poll_two(&c, &s, 8, v[8], held);
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 2000 since its reset's 9, over 2 s */
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_not_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			     SAMPLE_OK);
	assert_sums(&c);
	poll_two(&c, &s, 9, v[9], held);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_OK);
	assert_int_equal(r, 2000);
	assert_int_equal(cache_stat_value(&c, (size_t)IPC(), -1, &r),
			 SAMPLE_OK);
	assert_int_equal(r, (500 + 400) * 1000 / 2000);
	assert_sums(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(missing_reading, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_of_one_cell, setup, teardown),
	    cmocka_unit_test_setup_teardown(unread_from_the_start, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_behind_missing_reading, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_while_waiting, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
