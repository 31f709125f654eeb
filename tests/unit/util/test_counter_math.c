/* test_counter_math.c - wraparound and multiplex scaling. */
#include "testenv.h"

#include "util/counter_math.h"

static void wrap_32(void **state)
{
	assert_int_equal(util_wrap_delta(10, 15, 32), 5);
	assert_int_equal(util_wrap_delta(4294967000u, 704, 32), 1000);
	assert_int_equal(util_wrap_delta(0xffffffffu, 0, 32), 1);
	assert_int_equal(util_wrap_delta(5, 5, 32), 0);
}

static void wrap_48(void **state)
{
	uint64_t top = (UINT64_C(1) << 48) - 1;
	assert_int_equal(util_wrap_delta(top - 9, 20, 48), 30);
	assert_int_equal(util_wrap_delta(0, top, 48), top);
}

static void wrap_64(void **state)
{
	assert_int_equal(util_wrap_delta(UINT64_MAX, 1, 64), 2);
	assert_int_equal(util_wrap_delta(1, 2, 64), 1);
}

static void scaling(void **state)
{
	/* ran all the time: unchanged */
	assert_int_equal(util_scale_delta(1000, 100, 100), 1000);
	/* ran a quarter of the time: four times the count */
	assert_int_equal(util_scale_delta(1000, 400, 100), 4000);
	/* never ran: nothing known */
	assert_int_equal(util_scale_delta(1000, 400, 0), 0);
	/* running > enabled cannot be scaled down */
	assert_int_equal(util_scale_delta(1000, 100, 200), 1000);
	/* large values do not overflow in the middle */
	assert_int_equal(
	    util_scale_delta(UINT64_C(1) << 62, 3000000000u, 1500000000u),
	    UINT64_C(1) << 63);
	/* but saturate at the top */
	assert_int_equal(util_scale_delta(UINT64_MAX, 4, 1), UINT64_MAX);
}

/* The first reading is the base; 32-bit wraps add modulo 2^32; a 64-bit
 * reading lower than the last is a restart (the reading is counted). */
static void count_cells(void **state)
{
	struct count_cell c = {0};
	uint64_t unread = 0, reset = 0;

	assert_false(util_count_cell_take(&c, 1000, 64));
	assert_int_equal(c.acc, 0);
	util_count_cell_report(&c, 1, false, &unread, &reset);
	assert_int_equal(unread | reset, 0);
	util_count_cell_report(&c, 1, false, &unread, &reset); /* no reading */
	assert_int_equal(unread, 1);
	assert_false(util_count_cell_take(&c, 1500, 64));
	assert_int_equal(c.acc, 500);
	assert_true(util_count_cell_take(&c, 5, 64)); /* 1500 -> 5: a restart */
	assert_int_equal(c.acc, 505);
	unread = 0;
	util_count_cell_report(&c, 2, false, &unread, &reset);
	assert_int_equal(reset, 2);
	assert_int_equal(unread, 0);
	reset = 0;
	util_count_cell_report(&c, 2, true, &unread, &reset); /* held: nothing */
	assert_int_equal(unread | reset, 0);

	struct count_cell w = {0};
	util_count_cell_take(&w, 4294967000u, 32);
	assert_false(
	    util_count_cell_take(&w, 704, 32)); /* a wrap, not a reset */
	assert_int_equal(w.acc, 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(count_cells),
	    cmocka_unit_test(wrap_32),
	    cmocka_unit_test(wrap_48),
	    cmocka_unit_test(wrap_64),
	    cmocka_unit_test(scaling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
