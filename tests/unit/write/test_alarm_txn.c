/* test_alarm_txn.c - what happens around a commit of the alarm table
 * (lib/write/alarm_write*.c): UndoSet after a commit (the table and the store
 * both back), a failed save, interleaved transactions (RFC 2741 allows
 * them; net-snmp's master serializes, others need not), the one validity
 * rule whatever a row's status, the CPU column and the scope, counters
 * that never go backwards, the row limit, the owner column, notReady
 * rows aging out, and a TestSet of 20,000 varbinds. */
#include "alarm_fixture.h"

#define ROW(i) "alarmRow " #i " "

/* TestSet and CommitSet of transaction txn, without its end. */
static void committed(uint32_t txn, const struct vb *v, size_t n)
{
	uint16_t idx;
	assert_int_equal(phase(AX_PDU_TESTSET, txn, v, n, &idx), 0);
	assert_int_equal(phase(AX_PDU_COMMITSET, txn, NULL, 0, &idx), 0);
}
#define COMMITTED(txn, ...)                                                    \
	committed(txn, (struct vb[]){__VA_ARGS__},                             \
		  sizeof((struct vb[]){__VA_ARGS__}) / sizeof(struct vb))

/* An active nonVolatile row at index, named name. */
static void active_row(uint32_t txn, unsigned index, const char *name)
{
	uint16_t idx;
	assert_int_equal(set_(txn,
			      (struct vb[]){
				  S(AC_NAME, index, name),
				  S(AC_METRIC, index, "hw.r10kevctr.cycles"),
				  U(AC_RISING_LOW, index, 10),
				  I(AC_ROW_STATUS, index, AW_RS_CREATE_AND_GO)},
			      4, &idx),
			 AX_ERR_NOERROR);
}

/* The store holds exactly the table's nonVolatile rows (not notReady). */
static void store_is_table(void)
{
	char *f = file(), line[768], want[800];
	size_t rows = 0;
	for (size_t i = 0; i < set.count; i++) {
		const struct alarm *a = &set.alarm[i];
		if (a->storage != STORAGE_NONVOLATILE || a->row == ROW_NOT_READY)
			continue;
		struct alarm_def d = alarm_def_of(a);
		alarm_def_format(&d, line, sizeof(line));
		snprintf(want, sizeof(want), "\nalarmRow %s\n", line);
		if (!strstr(f, want))
			fail_msg("row %u not stored as '%s':\n%s", a->index,
				 line, f);
		rows++;
	}
	size_t lines = 0;
	for (const char *p = f; (p = strstr(p, "\nalarmRow ")); p++)
		lines++;
	assert_int_equal(lines, rows);
}

static void undo_of_a_destroy(void **state)
{
	uint16_t idx, i2;
	(void)state;
	active_row(2, 1100, "kept");
	store_is_table();
	/* destroy committed, then undone (another varbind of the request
	 * failed at commit, in another subagent): the row is back in the
	 * table and in the store, and survives a reload */
	COMMITTED(4, I(AC_ROW_STATUS, 1100, AW_RS_DESTROY));
	assert_null(alarm_set_find(&set, 1100));
	assert_null(strstr(file(), ROW(1100)));
	assert_int_equal(phase(AX_PDU_UNDOSET, 4, NULL, 0, &i2), 0);
	assert_non_null(alarm_set_find(&set, 1100));
	assert_non_null(strstr(file(), ROW(1100) "active nonVolatile kept"));
	store_is_table();
	assert_logged("row 1100 destroyed and undone over SNMP");
	/* nonVolatile -> volatile, undone: stored again */
	COMMITTED(6, I(AC_STORAGE, 1100, STORAGE_VOLATILE));
	assert_null(strstr(file(), ROW(1100)));
	assert_int_equal(phase(AX_PDU_UNDOSET, 6, NULL, 0, &i2), 0);
	assert_non_null(strstr(file(), ROW(1100)));
	store_is_table();
	/* the UndoSet ended the transaction (net-snmp sends no CleanupSet
	 * after it): the row is free for the next set */
	assert_int_equal(SET(8, U(AC_FALLING_LOW, 1100, 1),
			     I(AC_ROW_STATUS, 1100, AW_RS_NOT_IN_SERVICE)),
			 AX_ERR_NOERROR);
	store_is_table();
}

static void failed_save(void **state)
{
	uint16_t idx, i2;
	char before[2048], after[2048];
	(void)state;
	snapshot(before, sizeof(before));
	fail_saves = 1;
	/* as net-snmp's master runs it: TestSet, CommitSet (fails),
	 * UndoSet, and no CleanupSet */
	struct vb go[] = {S(AC_METRIC, 1200, "hw.r10kevctr.cycles"),
			  U(AC_RISING_LOW, 1200, 10),
			  I(AC_ROW_STATUS, 1200, AW_RS_CREATE_AND_GO)};
	assert_int_equal(phase(AX_PDU_TESTSET, 2, go, 3, &idx), 0);
	assert_int_equal(phase(AX_PDU_COMMITSET, 2, NULL, 0, &i2),
			 AX_ERR_COMMITFAILED);
	assert_logged("alarm table: the set of AgentX session 11, transaction "
		      "2 failed, nothing changed: cannot write ");
	assert_logged("alarms.conf: No space left on device");
	assert_int_equal(phase(AX_PDU_UNDOSET, 2, NULL, 0, &i2), 0);
	snapshot(after, sizeof(after));
	assert_string_equal(before, after);
	/* the store can be written again: the same row is not locked */
	fail_saves = 0;
	assert_int_equal(phase(AX_PDU_TESTSET, 4, go, 3, &idx), 0);
	assert_int_equal(phase(AX_PDU_COMMITSET, 4, NULL, 0, &i2), 0);
	phase(AX_PDU_CLEANUPSET, 4, NULL, 0, &i2);
	assert_non_null(alarm_set_find(&set, 1200));
	store_is_table();
}

static void interleaved(void **state)
{
	uint16_t idx, i2;
	(void)state;
	/* T1 and T2 commit, T1 undoes: T2's row stays, table and store */
	COMMITTED(2, S(AC_NAME, 1300, "t1"),
		  S(AC_METRIC, 1300, "hw.r10kevctr.cycles"),
		  U(AC_RISING_LOW, 1300, 10),
		  I(AC_ROW_STATUS, 1300, AW_RS_CREATE_AND_GO));
	COMMITTED(4, S(AC_NAME, 1301, "t2"),
		  S(AC_METRIC, 1301, "hw.r10kevctr.cycles"),
		  U(AC_RISING_LOW, 1301, 10),
		  I(AC_ROW_STATUS, 1301, AW_RS_CREATE_AND_GO));
	assert_int_equal(phase(AX_PDU_UNDOSET, 2, NULL, 0, &i2), 0);
	assert_null(alarm_set_find(&set, 1300));
	assert_non_null(alarm_set_find(&set, 1301));
	assert_non_null(strstr(file(), ROW(1301)));
	store_is_table();
	phase(AX_PDU_CLEANUPSET, 4, NULL, 0, &i2);
	/* two pending transactions give one name: the second is refused
	 * at its Name */
	struct vb a[] = {S(AC_NAME, 1310, "same"),
			 I(AC_ROW_STATUS, 1310, AW_RS_CREATE_AND_WAIT)};
	struct vb b[] = {I(AC_ROW_STATUS, 1311, AW_RS_CREATE_AND_WAIT),
			 S(AC_NAME, 1311, "same")};
	assert_int_equal(phase(AX_PDU_TESTSET, 6, a, 2, &idx), 0);
	assert_int_equal(phase(AX_PDU_TESTSET, 8, b, 2, &idx),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 2);
	phase(AX_PDU_CLEANUPSET, 8, NULL, 0, &i2);
	assert_int_equal(phase(AX_PDU_COMMITSET, 6, NULL, 0, &i2), 0);
	/* a TestSet again with a committed transaction's IDs keeps its
	 * undo data */
	assert_int_equal(phase(AX_PDU_TESTSET, 6, b, 2, &idx),
			 AX_ERR_PROCESSINGERROR);
	assert_int_equal(phase(AX_PDU_UNDOSET, 6, NULL, 0, &i2), 0);
	assert_null(alarm_set_find(&set, 1310));
	store_is_table();
}

static void one_rule(void **state)
{
	uint16_t idx;
	(void)state;
	/* a statistic as a rate: refused whatever the status (it could
	 * never be loaded back), at its SampleType */
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 1400, AW_RS_CREATE_AND_WAIT),
			     S(AC_METRIC, 1400, "stat.ipc"),
			     I(AC_SAMPLE_TYPE, 1400, TYPE_RATE),
			     U(AC_RISING_LOW, 1400, 10)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 3);
	assert_null(alarm_set_find(&set, 1400));
	/* Cpu on a sum row: refused at the Cpu; the scope cpu needs one */
	active_row(4, 1401, "sumrow");
	assert_int_equal(SET(6, I(AC_CPU, 1401, 1),
			     I(AC_ROW_STATUS, 1401, AW_RS_NOT_IN_SERVICE)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_int_equal(SET(8, I(AC_SCOPE, 1401, SCOPE_CPU),
			     I(AC_ROW_STATUS, 1401, AW_RS_NOT_IN_SERVICE)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_int_equal(SET(10, I(AC_SCOPE, 1401, SCOPE_CPU),
			     I(AC_CPU, 1401, 1),
			     I(AC_ROW_STATUS, 1401, AW_RS_NOT_IN_SERVICE)),
			 AX_ERR_NOERROR);
	assert_non_null(strstr(file(), ROW(1401) "notInService nonVolatile "
						 "sumrow hw.r10kevctr.cycles "
						 "1 "));
	/* back to sum: the CPU goes with the scope (Cpu reads -1) */
	assert_int_equal(SET(12, I(AC_SCOPE, 1401, SCOPE_SUM)),
			 AX_ERR_NOERROR);
	const struct alarm *a = alarm_set_find(&set, 1401);
	assert_false(a->given & ALARM_GIVEN_CPU);
	struct alarm_def d = alarm_def_of(a);
	assert_int_equal(alarm_def_flaw(&d), ALARM_FLAW_NONE);
	store_is_table();
	/* every stored row loads back with the same rule */
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	assert_int_equal(alarm_store_load(&store, NULL, 0, &rows, &n, &bad),
			 0);
	assert_int_equal(bad, 0);
	assert_int_equal(n, 1);
	free(rows);
}

static void counters_never_go_back(void **state)
{
	uint16_t idx;
	(void)state;
	active_row(2, 1500, "counting");
	struct alarm *a = alarm_set_find(&set, 1500);
	a->events = 4; /* as four notifications would leave it */
	a->dropped = 2;
	assert_int_equal(SET(4, I(AC_ROW_STATUS, 1500, AW_RS_NOT_IN_SERVICE),
			     U(AC_RISING_LOW, 1500, 20)),
			 AX_ERR_NOERROR);
	assert_int_equal(SET(6, I(AC_ROW_STATUS, 1500, AW_RS_ACTIVE)),
			 AX_ERR_NOERROR);
	a = alarm_set_find(&set, 1500);
	assert_int_equal(a->events, 4);
	assert_int_equal(a->dropped, 2);
}

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
	assert_int_equal(alarm_store_load(&store, NULL, 0, &rows, &n, &bad),
			 0);
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
	assert_int_equal(alarm_write_age(&w), 0);
	assert_non_null(alarm_set_find(&set, 1900));
	now_s += 1;
	/* held by a set in progress: not now */
	struct vb x[] = {U(AC_RISING_LOW, 1900, 5)};
	assert_int_equal(phase(AX_PDU_TESTSET, 6, x, 1, &idx), 0);
	assert_int_equal(alarm_write_age(&w), 0);
	phase(AX_PDU_CLEANUPSET, 6, NULL, 0, &i2);
	assert_int_equal(alarm_write_age(&w), 1);
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
	enum ax_error e = alarm_write_test(&w, key, x, n, &bad);
	if (e == AX_ERR_NOERROR)
		e = alarm_write_commit(&w, key);
	alarm_write_cleanup(&w, key);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(undo_of_a_destroy, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(failed_save, setup, teardown),
	    cmocka_unit_test_setup_teardown(interleaved, setup, teardown),
	    cmocka_unit_test_setup_teardown(one_rule, setup, teardown),
	    cmocka_unit_test_setup_teardown(counters_never_go_back, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(row_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(destroy_with_columns, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(owner, setup, teardown),
	    cmocka_unit_test_setup_teardown(not_ready_ages, setup, teardown),
	    cmocka_unit_test_setup_teardown(many_rows, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
