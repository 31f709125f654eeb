/* test_alarm_write.c - the one write path (lib/write/agentx_write.c,
 * lib/write/alarm_write*.c): a master's set phases, built byte by byte
 * (axpdu.h) and read by the decoder, on a table with one config row;
 * RFC 2579's RowStatus rules, RFC 3416's error and index for each bad
 * request with nothing changed, all or nothing, undo, two managers on
 * one row, the store written at each change. */
#include "alarm_fixture.h"

static void create_and_go(void **state)
{
	uint16_t idx;
	(void)state;
	assert_int_equal(SET(2, S(AC_METRIC, 1025, "hw.r10kevctr.cycles"),
			     U(AC_RISING_LOW, 1025, 5001),
			     U(AC_RISING_HIGH, 1025, 1),
			     I(AC_ROW_STATUS, 1025, AW_RS_CREATE_AND_GO)),
			 AX_ERR_NOERROR);
	const struct alarm *a = alarm_set_find(&set, 1025);
	assert_non_null(a);
	assert_int_equal(a->row, ROW_ACTIVE);
	assert_int_equal(a->storage, STORAGE_NONVOLATILE);
	assert_int_equal(a->cfg.rising, (UINT64_C(1) << 32) + 5001);
	assert_string_equal(a->cfg.name, "alarm1025");
	assert_int_equal(saves, 1);
	assert_non_null(strstr(file(), "alarmRow 1025 active nonVolatile "
				       "alarm1025 hw.r10kevctr.cycles sum "
				       "absolute 4294972297 0 both -\n"));
	assert_logged("alarm table: row 1025 created over SNMP (AgentX "
		      "session 11, transaction 2): 1025 active");
	/* served as written: the halves, the 64-bit value */
	const struct mib_object *o;
	struct mib_value v;
	unsigned long q[32];
	unsigned qq[32];
	size_t n = entry_oid(qq, 7, 1025);
	for (size_t i = 0; i < n; i++)
		q[i] = qq[i];
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.u64, (UINT64_C(1) << 32) + 5001);
	n = entry_oid(qq, 17, 1025); /* ...Low */
	for (size_t i = 0; i < n; i++)
		q[i] = qq[i];
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.u32, 5001); /* odd: every low bit */
	n = entry_oid(qq, 18, 1025); /* ...High */
	for (size_t i = 0; i < n; i++)
		q[i] = qq[i];
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.u32, 1);
	/* destroy */
	assert_int_equal(SET(4, I(AC_ROW_STATUS, 1025, AW_RS_DESTROY)),
			 AX_ERR_NOERROR);
	assert_null(alarm_set_find(&set, 1025));
	assert_null(strstr(file(), "alarmRow 1025"));
	assert_logged("row 1025 destroyed over SNMP");
	/* destroying a row that is not there is no error (RFC 2579) */
	assert_int_equal(SET(6, I(AC_ROW_STATUS, 1025, AW_RS_DESTROY)),
			 AX_ERR_NOERROR);
}

static void create_and_wait(void **state)
{
	uint16_t idx;
	const struct alarm *a;
	(void)state;
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 2000, AW_RS_CREATE_AND_WAIT),
			     I(AC_STORAGE, 2000, STORAGE_VOLATILE)),
			 AX_ERR_NOERROR);
	assert_non_null(a = alarm_set_find(&set, 2000));
	assert_int_equal(a->row, ROW_NOT_READY);
	assert_int_equal(saves, 0); /* volatile: nothing kept */
	/* active before the columns without defaults: inconsistentValue */
	assert_int_equal(SET(4, I(AC_ROW_STATUS, 2000, AW_RS_ACTIVE)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	/* given them, the row is notInService by itself */
	assert_int_equal(
	    SET(6, S(AC_METRIC, 2000, "stat.ipc"), U(AC_RISING_LOW, 2000, 900),
		U(AC_FALLING_LOW, 2000, 300), S(AC_NAME, 2000, "lowipc"),
		I(AC_SCOPE, 2000, 3), I(AC_STARTUP, 2000, STARTUP_FALLING)),
	    AX_ERR_NOERROR);
	assert_non_null(a = alarm_set_find(&set, 2000));
	assert_int_equal(a->row, ROW_NOT_IN_SERVICE);
	/* a statistic as a rate cannot be active */
	assert_int_equal(SET(8, I(AC_SAMPLE_TYPE, 2000, TYPE_RATE),
			     I(AC_ROW_STATUS, 2000, AW_RS_ACTIVE)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_int_equal(SET(10, I(AC_ROW_STATUS, 2000, AW_RS_ACTIVE)),
			 AX_ERR_NOERROR);
	assert_non_null(a = alarm_set_find(&set, 2000));
	assert_int_equal(a->row, ROW_ACTIVE);
	assert_int_equal(a->cfg.scope, SCOPE_EACH_CPU);
	/* nonVolatile now: written */
	assert_int_equal(SET(12, I(AC_STORAGE, 2000, STORAGE_NONVOLATILE)),
			 AX_ERR_NOERROR);
	assert_non_null(strstr(file(), "alarmRow 2000 active nonVolatile "
				       "lowipc stat.ipc each absolute 900 "
				       "300 falling -\n"));
	/* an active row's definition changes only through notInService */
	assert_int_equal(SET(14, U(AC_FALLING_LOW, 2000, 100)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_int_equal(SET(16, U(AC_FALLING_LOW, 2000, 100),
			     I(AC_ROW_STATUS, 2000, AW_RS_NOT_IN_SERVICE)),
			 AX_ERR_NOERROR);
	assert_int_equal(SET(18, I(AC_ROW_STATUS, 2000, AW_RS_ACTIVE)),
			 AX_ERR_NOERROR);
	assert_int_equal(alarm_set_find(&set, 2000)->cfg.falling, 100);
	/* a name of SIZE 32, the most there is, is taken whole */
	assert_int_equal(SET(20, S(AC_NAME, 2001, "a-name-of-thirty-two-characters2"),
			     I(AC_ROW_STATUS, 2001, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOERROR);
	assert_string_equal(alarm_set_find(&set, 2001)->cfg.name,
			    "a-name-of-thirty-two-characters2");
}

static void refused(void **state)
{
	uint16_t idx;
	char before[2048], after[2048];
	(void)state;
	assert_int_equal(SET(2, S(AC_METRIC, 1100, "hw.r10kevctr.tlb"),
			     U(AC_RISING_LOW, 1100, 10),
			     I(AC_ROW_STATUS, 1100, AW_RS_CREATE_AND_GO)),
			 AX_ERR_NOERROR);
	snapshot(before, sizeof(before));
	int s0 = saves;
	static const struct {
		struct vb v[3];
		size_t n;
		uint16_t error, index;
	} bad[] = {
	    /* the value's type, length, range */
	    {{I(AC_NAME, 1100, 3)}, 1, AX_ERR_WRONGTYPE, 1},
	    {{U(AC_SCOPE, 1100, 1)}, 1, AX_ERR_WRONGTYPE, 1},
	    {{S(AC_NAME, 1100, "")}, 1, AX_ERR_WRONGLENGTH, 1},
	    {{S(AC_NAME, 1100, "a-name-of-thirty-three-characters")},
	     1,
	     AX_ERR_WRONGLENGTH,
	     1},
	    {{S(AC_NAME, 1100, "no spaces")}, 1, AX_ERR_WRONGVALUE, 1},
	    /* an owner's every byte printable, its first too */
	    {{S(AC_OWNER, 1100, "\x01owner")}, 1, AX_ERR_WRONGVALUE, 1},
	    /* the metric's SIZE (1..64): 64 octets fit (and name nothing),
	     * 65 do not */
	    {{S(AC_METRIC, 1100, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")},
	     1,
	     AX_ERR_WRONGVALUE,
	     1},
	    {{S(AC_METRIC, 1100, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")},
	     1,
	     AX_ERR_WRONGLENGTH,
	     1},
	    {{S(AC_METRIC, 1200, "hw.r10kevctr.nosuch"),
	      I(AC_ROW_STATUS, 1200, AW_RS_CREATE_AND_WAIT)},
	     2,
	     AX_ERR_WRONGVALUE,
	     1},
	    {{I(AC_SCOPE, 1100, 4)}, 1, AX_ERR_WRONGVALUE, 1},
	    {{I(AC_CPU, 1100, 65536)}, 1, AX_ERR_WRONGVALUE, 1},
	    {{I(AC_CPU, 1100, -2)}, 1, AX_ERR_WRONGVALUE, 1},
	    {{I(AC_ROW_STATUS, 1100, AW_RS_NOT_READY)},
	     1,
	     AX_ERR_WRONGVALUE,
	     1},
	    {{I(AC_ROW_STATUS, 1100, 7)}, 1, AX_ERR_WRONGVALUE, 1},
	    {{I(AC_STORAGE, 1100, STORAGE_PERMANENT)}, 1, AX_ERR_WRONGVALUE, 1},
	    /* rows and columns that can never be written */
	    {{I(AC_ROW_STATUS, 1, AW_RS_DESTROY)}, 1, AX_ERR_NOTWRITABLE, 1},
	    {{S(AC_NAME, 1, "renamed")}, 1, AX_ERR_NOTWRITABLE, 1},
	    {{U(10, 1100, 1)}, 1, AX_ERR_NOTWRITABLE, 1},
	    {{I(AC_ROW_STATUS, 7, AW_RS_CREATE_AND_GO)},
	     1,
	     AX_ERR_NOCREATION,
	     1},
	    {{I(AC_ROW_STATUS, 65536, AW_RS_CREATE_AND_GO)},
	     1,
	     AX_ERR_NOCREATION,
	     1},
	    {{I(30, 1100, 1)}, 1, AX_ERR_NOCREATION, 1},
	    /* against the table as the request leaves it */
	    {{I(AC_STARTUP, 1100, 1),
	      I(AC_ROW_STATUS, 1100, AW_RS_CREATE_AND_GO)},
	     2,
	     AX_ERR_INCONSISTENTVALUE,
	     2},
	    {{I(AC_ROW_STATUS, 1300, AW_RS_ACTIVE)},
	     1,
	     AX_ERR_INCONSISTENTVALUE,
	     1},
	    {{S(AC_NAME, 1300, "x")}, 1, AX_ERR_INCONSISTENTNAME, 1},
	    {{S(AC_METRIC, 1300, "hw.r10kevctr.tlb"), U(AC_RISING_LOW, 1300, 5),
	      I(AC_ROW_STATUS, 1300, AW_RS_CREATE_AND_GO)},
	     3,
	     AX_ERR_NOERROR, /* (replaced below: falling >= rising) */
	     0},
	    {{S(AC_NAME, 1100, "cfgrow")}, 1, AX_ERR_INCONSISTENTVALUE, 1},
	    {{I(AC_SCOPE, 1100, SCOPE_CPU),
	      I(AC_ROW_STATUS, 1100, AW_RS_NOT_IN_SERVICE),
	      I(AC_ROW_STATUS, 1100, AW_RS_ACTIVE)},
	     3,
	     AX_ERR_INCONSISTENTVALUE,
	     3},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (bad[i].error == AX_ERR_NOERROR)
			continue;
		uint16_t e =
		    set_(100 + 2 * (uint32_t)i, bad[i].v, bad[i].n, &idx);
		if (e != bad[i].error || idx != bad[i].index)
			fail_msg("case %zu: error %u index %u, expected %u "
				 "%u",
				 i, e, idx, bad[i].error, bad[i].index);
		snapshot(after, sizeof(after));
		assert_string_equal(before, after);
	}
	/* each refused set is logged with its object and request */
	assert_logged("alarm table: a set refused (AgentX session 11, "
		      "transaction 100): wrongType at varbind 1, "
		      "hwR10kEvCtrAlarmName.1100\n");
	assert_logged("noCreation at varbind 1, "
		      ".1.3.6.1.4.1.8072.9999.9999.59.1.7.1.30.1100\n");
	/* falling >= rising: the threshold's varbind is blamed */
	assert_int_equal(SET(200, S(AC_METRIC, 1300, "hw.r10kevctr.tlb"),
			     U(AC_RISING_LOW, 1300, 5),
			     U(AC_FALLING_LOW, 1300, 5),
			     I(AC_ROW_STATUS, 1300, AW_RS_CREATE_AND_GO)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 3);
	/* scope cpu without a CPU, then with one */
	assert_int_equal(SET(202, S(AC_METRIC, 1300, "hw.r10kevctr.tlb"),
			     U(AC_RISING_LOW, 1300, 5),
			     I(AC_SCOPE, 1300, SCOPE_CPU),
			     I(AC_ROW_STATUS, 1300, AW_RS_CREATE_AND_GO)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 3);
	snapshot(after, sizeof(after));
	assert_string_equal(before, after);
	assert_int_equal(saves, s0);
	/* the row limit (3 in this test): resourceUnavailable */
	assert_int_equal(SET(204, S(AC_METRIC, 1301, "hw.r10kevctr.tlb"),
			     U(AC_RISING_LOW, 1301, 5),
			     I(AC_ROW_STATUS, 1301, AW_RS_CREATE_AND_GO),
			     I(AC_ROW_STATUS, 1302, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOERROR);
	assert_int_equal(
	    SET(206, I(AC_ROW_STATUS, 1303, AW_RS_CREATE_AND_WAIT)),
	    AX_ERR_RESOURCEUNAVAILABLE);
	assert_int_equal(idx, 1);
	assert_logged("the most alarmSetMaxRows allows is 3");
	assert_null(alarm_set_find(&set, 1303));
}

static void all_or_nothing(void **state)
{
	uint16_t idx, i2;
	char before[2048], after[2048];
	(void)state;
	snapshot(before, sizeof(before));
	/* the second row's error undoes the first row's part */
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 1500, AW_RS_CREATE_AND_WAIT),
			     I(AC_ROW_STATUS, 1501, AW_RS_CREATE_AND_WAIT),
			     S(AC_METRIC, 1501, "nosuch")),
			 AX_ERR_WRONGVALUE);
	assert_int_equal(idx, 3);
	snapshot(after, sizeof(after));
	assert_string_equal(before, after);
	/* a store that cannot be written fails the commit: unchanged */
	fail_saves = 1;
	assert_int_equal(SET(4, S(AC_METRIC, 1500, "hw.r10kevctr.tlb"),
			     U(AC_RISING_LOW, 1500, 10),
			     I(AC_ROW_STATUS, 1500, AW_RS_CREATE_AND_GO)),
			 AX_ERR_COMMITFAILED);
	assert_logged("failed, nothing changed: cannot write ");
	assert_logged("alarms.conf: No space left on device");
	snapshot(after, sizeof(after));
	assert_string_equal(before, after);
	fail_saves = 0;
	/* UndoSet after a commit restores the table and the file */
	assert_int_equal(
	    phase(AX_PDU_TESTSET, 6,
		  (struct vb[]){I(AC_ROW_STATUS, 1500, AW_RS_CREATE_AND_WAIT)},
		  1, &idx),
	    0);
	assert_int_equal(phase(AX_PDU_COMMITSET, 6, NULL, 0, &i2), 0);
	assert_non_null(alarm_set_find(&set, 1500));
	assert_int_equal(phase(AX_PDU_UNDOSET, 6, NULL, 0, &i2), 0);
	assert_null(alarm_set_find(&set, 1500));
	assert_logged("row 1500 created and undone over SNMP");
	phase(AX_PDU_CLEANUPSET, 6, NULL, 0, &i2);
	snapshot(after, sizeof(after));
	assert_string_equal(before, after);
	/* CommitSet, UndoSet of no tested set */
	assert_int_equal(phase(AX_PDU_COMMITSET, 8, NULL, 0, &i2),
			 AX_ERR_COMMITFAILED);
	assert_int_equal(phase(AX_PDU_UNDOSET, 8, NULL, 0, &i2),
			 AX_ERR_UNDOFAILED);
}

static void two_managers(void **state)
{
	uint16_t idx, i2;
	struct vb a[] = {I(AC_ROW_STATUS, 1600, AW_RS_CREATE_AND_WAIT)};
	struct vb b[] = {I(AC_ROW_STATUS, 1600, AW_RS_CREATE_AND_GO)};
	struct vb c[] = {I(AC_ROW_STATUS, 1601, AW_RS_CREATE_AND_WAIT)};
	(void)state;
	/* A tested, B on the same row meanwhile: refused until A ends */
	assert_int_equal(phase(AX_PDU_TESTSET, 2, a, 1, &idx), 0);
	assert_int_equal(phase(AX_PDU_TESTSET, 3, b, 1, &idx),
			 AX_ERR_RESOURCEUNAVAILABLE);
	assert_int_equal(idx, 1);
	phase(AX_PDU_CLEANUPSET, 3, NULL, 0, &i2);
	/* another row is free */
	assert_int_equal(phase(AX_PDU_TESTSET, 5, c, 1, &idx), 0);
	assert_int_equal(phase(AX_PDU_COMMITSET, 2, NULL, 0, &i2), 0);
	assert_int_equal(phase(AX_PDU_COMMITSET, 5, NULL, 0, &i2), 0);
	phase(AX_PDU_CLEANUPSET, 2, NULL, 0, &i2);
	phase(AX_PDU_CLEANUPSET, 5, NULL, 0, &i2);
	assert_int_equal(alarm_set_find(&set, 1600)->row, ROW_NOT_READY);
	/* B again, now that A ended: the row is there, createAndGo is
	 * inconsistentValue, never a half-made row */
	assert_int_equal(set_(7, b, 1, &idx), AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(alarm_set_find(&set, 1600)->row, ROW_NOT_READY);
	/* a master that went away: its sets are forgotten */
	assert_int_equal(phase(AX_PDU_TESTSET, 9, a, 1, &idx),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(phase(AX_PDU_TESTSET, 10, c, 1, &idx),
			 AX_ERR_INCONSISTENTVALUE);
	struct vb d[] = {I(AC_ROW_STATUS, 1602, AW_RS_CREATE_AND_WAIT)};
	assert_int_equal(phase(AX_PDU_TESTSET, 12, d, 1, &idx), 0);
	write_forget_sets(&w);
	assert_int_equal(phase(AX_PDU_COMMITSET, 12, NULL, 0, &i2),
			 AX_ERR_COMMITFAILED);
	assert_null(alarm_set_find(&set, 1602));
}

static void read_only(void **state)
{
	uint16_t idx;
	(void)state;
	w.env.enabled = false; /* alarmSet no */
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 1700, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOTWRITABLE);
	assert_int_equal(idx, 1);
	assert_null(alarm_set_find(&set, 1700));
	w.env.enabled = true;
}

/* Two rows of one set whose indexes take the same slot of the set's
 * row hash (three varbinds: 8 slots; 1025 and 1033 are equal mod 8, and
 * the multiplier is odd): the second row's later varbind finds the row
 * its RowStatus made. */
static void rows_in_one_slot(void **state)
{
	uint16_t idx;
	const struct alarm *a;
	(void)state;
	assert_int_equal(SET(2, I(AC_ROW_STATUS, 1025, AW_RS_CREATE_AND_WAIT),
			     I(AC_ROW_STATUS, 1033, AW_RS_CREATE_AND_WAIT),
			     S(AC_NAME, 1033, "second")),
			 AX_ERR_NOERROR);
	assert_non_null(a = alarm_set_find(&set, 1025));
	assert_string_equal(a->cfg.name, "alarm1025");
	assert_non_null(a = alarm_set_find(&set, 1033));
	assert_string_equal(a->cfg.name, "second");
	assert_int_equal(a->row, ROW_NOT_READY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(create_and_go, setup, teardown),
	    cmocka_unit_test_setup_teardown(create_and_wait, setup, teardown),
	    cmocka_unit_test_setup_teardown(refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(all_or_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(two_managers, setup, teardown),
	    cmocka_unit_test_setup_teardown(read_only, setup, teardown),
	    cmocka_unit_test_setup_teardown(rows_in_one_slot, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
