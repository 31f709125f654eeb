/* test_alarm_write_name.c - names and the next free index of the alarm
 * table (lib/alarm/alarm_set.c, lib/write/alarm_write_check.c), through a
 * master's set phases as test_alarm_write.c: hwR10kEvCtrAlarmNextIndex
 * never serves an index whose default name "alarmN" a row has (a
 * createAndGo there without a name could never succeed), and a set
 * refused for a taken name blames the Name varbind (a default name: the
 * RowStatus) and logs which name, and whose it is. */
#include "alarm_fixture.h"

/* The table of the fixture with the config rows cfgrow (1), alarm1025
 * (2) and alarm1026 (3): two default names taken in a row. */
static int setup_names(void **state)
{
	static const char *const line[] = {
	    "cfgrow hw.r10kevctr.cycles sum rate 10 5",
	    "alarm1025 hw.r10kevctr.cycles sum rate 10 5",
	    "alarm1026 hw.r10kevctr.tlb sum rate 10 5"};
	struct alarm_config cfg[3];
	char err[256];

	setup(state);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(
		    alarm_config_parse(line[i], &cfg[i], err, sizeof(err)), 0);
	alarm_set_free(&set);
	assert_int_equal(alarm_set_build(&set, cfg, 3, NULL), 0);
	w.env.max_rows = 10;
	return 0;
}

/* hwR10kEvCtrAlarmNextIndex.0 as a GET answers it. */
static uint32_t next_index(void)
{
	const struct mib_object *o = view_object("hwR10kEvCtrAlarmNextIndex");
	unsigned long q[MIBVIEW_OID_MAX];
	struct mib_value v;
	size_t n = view_oid(o, 0, q);

	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	return v.v.u32;
}

static void default_names(void **state)
{
	(void)state;
	assert_int_equal(alarm_default_name_index("alarm1025"), 1025);
	assert_int_equal(alarm_default_name_index("alarm1"), 1);
	assert_int_equal(alarm_default_name_index("alarm65535"), 65535);
	/* never a name "%u" writes, or past the last index */
	static const char *const not[] = {
	    "alarm", "alarm0", "alarm01025", "alarm1025x", "Alarm1025",
	    "alarm-1", "alarm65536", "alarm4294968321", "x"};
	for (size_t i = 0; i < sizeof(not) / sizeof(not[0]); i++)
		if (alarm_default_name_index(not[i]) != 0)
			fail_msg("'%s' taken as a default name", not[i]);
}

static void next_index_skips_taken_names(void **state)
{
	uint16_t idx;
	(void)state;
	/* 1025 and 1026 have no row, but the config file has their names */
	assert_int_equal(next_index(), 1027);
	/* a row there, named as the index after it: both skipped */
	assert_int_equal(SET(2, S(AC_NAME, 1027, "alarm1028"),
			     I(AC_ROW_STATUS, 1027, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOERROR);
	assert_int_equal(next_index(), 1029);
	/* what a manager following doc/alarms.md does: it succeeds */
	assert_int_equal(SET(4, S(AC_METRIC, 1029, "hw.r10kevctr.cycles"),
			     U(AC_RISING_LOW, 1029, 5),
			     I(AC_ROW_STATUS, 1029, AW_RS_CREATE_AND_GO)),
			 AX_ERR_NOERROR);
	assert_string_equal(alarm_set_find(&set, 1029)->cfg.name, "alarm1029");
	assert_int_equal(next_index(), 1030);
	/* the name given back: its index is free again */
	assert_int_equal(SET(6, S(AC_NAME, 1027, "renamed")), AX_ERR_NOERROR);
	assert_int_equal(next_index(), 1028);
}

/* Every index from 1025 has a row but one, whose name a row has: 0. */
static void next_index_none(void **state)
{
	size_t n = ALARM_INDEX_MAX - ALARM_CONFIG_INDEX_MAX;
	struct alarm_set full = {calloc(n, sizeof(struct alarm)), n};
	(void)state;
	assert_non_null(full.alarm);
	full.alarm[0].index = 1;
	snprintf(full.alarm[0].cfg.name, sizeof(full.alarm[0].cfg.name),
		 "alarm65535");
	for (size_t i = 1; i < full.count; i++) {
		full.alarm[i].index = (uint32_t)(ALARM_CONFIG_INDEX_MAX + i);
		snprintf(full.alarm[i].cfg.name, sizeof(full.alarm[i].cfg.name),
			 "r%zu", i);
	}
	/* rows 1025..65534: the last index left is 65535, named by row 1 */
	assert_int_equal(full.alarm[full.count - 1].index, 65534);
	assert_int_equal(alarm_set_next_index(&full), 0);
	snprintf(full.alarm[0].cfg.name, sizeof(full.alarm[0].cfg.name),
		 "alarm65534");
	assert_int_equal(alarm_set_next_index(&full), 65535);
	free(full.alarm);
	assert_int_equal(alarm_set_next_index(NULL), 1025);
}

/* A config row's name, default or written. */
static void name_taken(void **state)
{
	uint16_t idx;
	char before[2048], after[2048];
	(void)state;
	snapshot(before, sizeof(before));
	/* a default name taken: the RowStatus that creates the row */
	assert_int_equal(SET(2, S(AC_METRIC, 1025, "hw.r10kevctr.cycles"),
			     U(AC_RISING_LOW, 1025, 5),
			     I(AC_ROW_STATUS, 1025, AW_RS_CREATE_AND_GO)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 3);
	assert_logged("alarm table: row 1025 not created: the name "
		      "'alarm1025' (its default name: the request sets no "
		      "hwR10kEvCtrAlarmName.1025) is taken by row 2 (the "
		      "config file's); inconsistentValue at varbind 3\n");
	/* a name written: its varbind */
	assert_int_equal(SET(4, S(AC_METRIC, 1030, "hw.r10kevctr.cycles"),
			     S(AC_NAME, 1030, "alarm1026"),
			     I(AC_ROW_STATUS, 1030, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 2);
	assert_logged("alarm table: row 1030 not created: the name "
		      "'alarm1026' (hwR10kEvCtrAlarmName.1030, varbind 2) is "
		      "taken by row 3 (the config file's); inconsistentValue "
		      "at varbind 2\n");
	/* the table's first row's name too */
	assert_int_equal(SET(6, S(AC_NAME, 1031, "cfgrow"),
			     I(AC_ROW_STATUS, 1031, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_logged("the name 'cfgrow' (hwR10kEvCtrAlarmName.1031, varbind "
		      "1) is taken by row 1 (the config file's)");
	snapshot(after, sizeof(after));
	assert_string_equal(before, after);
}

/* The name another row of the table, of the request or of another set
 * in progress has. */
static void name_taken_by_rows(void **state)
{
	uint16_t idx, i2;
	(void)state;
	/* a row created over SNMP has it; a row renamed */
	assert_int_equal(SET(6, I(AC_ROW_STATUS, 1027, AW_RS_CREATE_AND_WAIT),
			     I(AC_ROW_STATUS, 1031, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_NOERROR);
	assert_int_equal(SET(8, S(AC_NAME, 1031, "alarm1027")),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_logged("alarm table: row 1031 not changed: the name "
		      "'alarm1027' (hwR10kEvCtrAlarmName.1031, varbind 1) is "
		      "taken by row 1027 (created over SNMP)");
	/* two rows of one request */
	assert_int_equal(SET(10, I(AC_ROW_STATUS, 1040, AW_RS_CREATE_AND_WAIT),
			     S(AC_NAME, 1040, "twice"),
			     S(AC_NAME, 1041, "twice"),
			     I(AC_ROW_STATUS, 1041, AW_RS_CREATE_AND_WAIT)),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 2);
	assert_logged("row 1040 not created: the name 'twice' "
		      "(hwR10kEvCtrAlarmName.1040, varbind 2) is taken by row "
		      "1041 (in this request)");
	/* a set in progress holds the name it gives */
	struct vb a[] = {I(AC_ROW_STATUS, 1050, AW_RS_CREATE_AND_WAIT),
			 S(AC_NAME, 1050, "held")};
	struct vb b[] = {S(AC_NAME, 1051, "held"),
			 I(AC_ROW_STATUS, 1051, AW_RS_CREATE_AND_WAIT)};
	assert_int_equal(phase(AX_PDU_TESTSET, 12, a, 2, &idx), 0);
	assert_int_equal(phase(AX_PDU_TESTSET, 13, b, 2, &idx),
			 AX_ERR_INCONSISTENTVALUE);
	assert_int_equal(idx, 1);
	assert_logged("row 1051 not created: the name 'held' "
		      "(hwR10kEvCtrAlarmName.1051, varbind 1) is taken by row "
		      "1050 (in another set in progress)");
	phase(AX_PDU_CLEANUPSET, 13, NULL, 0, &i2);
	phase(AX_PDU_CLEANUPSET, 12, NULL, 0, &i2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(default_names),
	    cmocka_unit_test_setup_teardown(next_index_skips_taken_names,
					    setup_names, teardown),
	    cmocka_unit_test(next_index_none),
	    cmocka_unit_test_setup_teardown(name_taken, setup_names, teardown),
	    cmocka_unit_test_setup_teardown(name_taken_by_rows, setup_names,
					    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
