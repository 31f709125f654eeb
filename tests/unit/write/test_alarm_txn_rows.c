/* test_alarm_txn_rows.c - the alarm table's rows across commits
 * (lib/write/alarm_write*.c): the row limit, a destroy with columns, the
 * owner column, notReady rows aging out, a TestSet of 20,000 varbinds,
 * and a writer with no store. */
#include "alarm_txn_fixture.h"

static void row_limit(void **state)
{
	uint16_t idx;
	(void)state;
	/* 3 rows at most here: two made, then a request with two new
	 * rows names the second, the one over the limit */
	active_row(2, 1600, "r0");
	active_row(4, 1601, "r1");
	assert_int_equal(
	    SET(6, I(AC_ROW_STATUS, 1602, AW_RS_CREATE_AND_WAIT),
		I(AC_ROW_STATUS, 1603, AW_RS_CREATE_AND_WAIT)),
	    AX_ERR_RESOURCEUNAVAILABLE);
	assert_int_equal(idx, 2);
	assert_int_equal(SET(8, I(AC_ROW_STATUS, 1602, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOERROR);
	/* at the limit: a destroy makes room for a create in one request */
	assert_int_equal(SET(10, I(AC_ROW_STATUS, 1603, AW_RS_CREATE_AND_WAIT),
			     I(AC_ROW_STATUS, 1600, AW_RS_DESTROY)),
			 AX_ERR_NOERROR);
	assert_null(alarm_set_find(&set, 1600));
	assert_non_null(alarm_set_find(&set, 1603));
}

static void destroy_with_columns(void **state)
{
	uint16_t idx;
	(void)state;
	/* a missing row: destroy alone is nothing; with a column, the
	 * column names a row that is not there */
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 1700, AW_RS_DESTROY)),
			 AX_ERR_NOERROR);
	assert_int_equal(SET(4, I(AC_ROW_STATUS, 1700, AW_RS_DESTROY),
			     S(AC_NAME, 1700, "ghost")),
			 AX_ERR_INCONSISTENTNAME);
	assert_int_equal(idx, 2);
	/* a row that is there: destroyed and changed at once, refused */
	active_row(6, 1701, "there");
	assert_int_equal(SET(8, S(AC_NAME, 1701, "other"),
			     I(AC_ROW_STATUS, 1701, AW_RS_DESTROY)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_non_null(alarm_set_find(&set, 1701));
}

static void owner(void **state)
{
	uint16_t idx;
	(void)state;
	active_row(2, 1800, "owned");
	assert_string_equal(alarm_set_find(&set, 1800)->owner, "");
	assert_string_equal(alarm_set_find(&set, 1)->owner, "monitor");
	/* written while active; kept with spaces and '%' as they are */
	assert_int_equal(SET(4, S(AC_OWNER, 1800, "noc 10.0.0.1 100% - ok")),
			 AX_ERR_NOERROR);
	assert_string_equal(alarm_set_find(&set, 1800)->owner,
			    "noc 10.0.0.1 100% - ok");
	assert_non_null(strstr(file(), " noc%2010.0.0.1%20100%25%20-%20ok\n"));
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	assert_int_equal(write_store_load(&store, NULL, 0, &rows, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].owner, "noc 10.0.0.1 100% - ok");
	free(rows);
	/* "-" alone and the empty owner differ in the file */
	assert_int_equal(SET(6, S(AC_OWNER, 1800, "-")), AX_ERR_NOERROR);
	assert_non_null(strstr(file(), " %2D\n"));
	/* 127 octets at most, printable */
	char longer[129];
	memset(longer, 'o', 128);
	longer[128] = '\0';
	assert_int_equal(SET(8, S(AC_OWNER, 1800, longer)),
			 AX_ERR_WRONGLENGTH);
	assert_int_equal(SET(10, S(AC_OWNER, 1800, "tab\there")),
			 AX_ERR_WRONGVALUE);
}

static void not_ready_ages(void **state)
{
	uint16_t idx, i2;
	(void)state;
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 1900, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOERROR);
	assert_int_equal(alarm_set_find(&set, 1900)->row, ROW_NOT_READY);
	now_s += 100;
	/* a column that leaves it notReady does not restart its age */
	assert_int_equal(SET(4, S(AC_NAME, 1900, "later")), AX_ERR_NOERROR);
	now_s += 199;
	assert_int_equal(write_expire_not_ready(&w), 0);
	assert_non_null(alarm_set_find(&set, 1900));
	now_s += 1;
	/* held by a set in progress: not now */
	struct vb x[] = {U(AC_RISING_LOW, 1900, 5)};
	assert_int_equal(phase(AX_PDU_TESTSET, 6, x, 1, &idx), 0);
	assert_int_equal(write_expire_not_ready(&w), 0);
	phase(AX_PDU_CLEANUPSET, 6, NULL, 0, &i2);
	assert_int_equal(write_expire_not_ready(&w), 1);
	assert_null(alarm_set_find(&set, 1900));
	assert_logged("alarm table: row 1900 (later) removed: notReady for "
		      "300 s");
}

/* A whole set straight through the writer (a PDU of 20,000 varbinds is
 * more than the fixture's builder holds): the error and varbind. */
static enum ax_error set_big(uint32_t txn, const struct vb *v, size_t n,
			     uint16_t *index)
{
	struct aw_varbind *x = calloc(n, sizeof(*x));
	struct aw_key key = {11, txn};
	size_t bad = 0;
	assert_non_null(x);
	for (size_t i = 0; i < n; i++) {
		x[i] = (struct aw_varbind){.column = v[i].col,
					   .index = v[i].row,
					   .num = v[i].num,
					   .str = v[i].str,
					   .len = v[i].str ? strlen(v[i].str)
							   : 0};
	}
	enum ax_error e = write_test_set(&w, key, x, n, &bad);
	if (e == AX_ERR_NOERROR)
		e = write_commit_set(&w, key);
	write_cleanup_set(&w, key);
	free(x);
	*index = (uint16_t)bad;
	return e;
}

/* 20,000 createAndWait varbinds in one TestSet: every row made (the
 * time it takes is bench/bench_alarm_write's). */
static void many_rows(void **state)
{
	enum { N = 20000 };
	uint16_t idx;
	(void)state;
	w.env.max_rows = 64511;
	w.env.store = NULL; /* nothing kept: the time is the table's */
	struct vb *v = calloc(N, sizeof(*v));
	assert_non_null(v);
	for (unsigned i = 0; i < N; i++)
		v[i] = (struct vb)I(AC_ROW_STATUS, 2000 + i,
				    AW_RS_CREATE_AND_WAIT);
	assert_int_equal(set_big(2, v, N, &idx), AX_ERR_NOERROR);
	assert_int_equal(set.count, N + 1);
	/* and again with a name taken: refused at its varbind */
	for (unsigned i = 0; i < N; i++)
		v[i] = (struct vb)I(AC_ROW_STATUS, 30000 + i,
				    AW_RS_CREATE_AND_WAIT);
	v[N - 1] = (struct vb)S(AC_NAME, 2005, "alarm2004");
	assert_int_equal(set_big(4, v, N, &idx), AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, N);
	assert_int_equal(set.count, N + 1);
	free(v);
}

/* A writer with no store (as bench/ and fuzz/ make one) commits a
 * nonVolatile row and keeps it in the table; nothing is written. */
static void no_store(void **state)
{
	(void)state;
	w.env.store = NULL;
	active_row(2, 1900, "unkept");
	assert_non_null(alarm_set_find(&set, 1900));
	assert_int_equal(alarm_set_find(&set, 1900)->storage,
			 STORAGE_NONVOLATILE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(row_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(destroy_with_columns, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(owner, setup, teardown),
	    cmocka_unit_test_setup_teardown(not_ready_ages, setup, teardown),
	    cmocka_unit_test_setup_teardown(many_rows, setup, teardown),
	    cmocka_unit_test_setup_teardown(no_store, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
