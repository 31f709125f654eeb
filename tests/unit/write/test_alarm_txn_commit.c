/* test_alarm_txn_commit.c - what happens around a commit of the alarm
 * table (lib/write/alarm_write*.c): UndoSet after a commit (the table and
 * the store both back), a failed save, interleaved transactions (RFC 2741
 * allows them; net-snmp's master serializes, others need not), the one
 * validity rule whatever a row's status, the CPU column and the scope,
 * counters that never go backwards. */
#include "alarm_txn_fixture.h"

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
	assert_int_equal(write_store_load(&store, NULL, 0, &rows, &n, &bad), 0);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
