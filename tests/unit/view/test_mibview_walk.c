/*
 * test_mibview_walk.c - GETNEXT called directly, with no snmpd: the walk
 * of the module from its root, the edges between tables and at the end
 * of the module, the alarm rows.
 */
#include "mibview_fixture.h"

/* Walk the whole module with GETNEXT from the root. */
static void walk(void **state)
{
	unsigned long cur[MIBVIEW_OID_MAX], next[MIBVIEW_OID_MAX];
	size_t len = meta_root_len, nlen;
	const struct mib_object *o, *prev = NULL;
	struct mib_value v;
	size_t count = 0, cpu_cycles = 0;

	for (unsigned i = 0; i < meta_root_len; i++)
		cur[i] = meta_root[i];
	while (view_getnext(&view, cur, len, next, &nlen, &o, &v) == MV_OK) {
		/* strictly increasing */
		size_t k = 0;
		while (k < len && k < nlen && cur[k] == next[k])
			k++;
		assert_true(k == len ? nlen > len
				     : k < nlen && next[k] > cur[k]);
		if (strcmp(o->name, "hwR10kEvCtrCpuCycles") == 0)
			cpu_cycles++;
		assert_string_not_equal(o->name, "hwR10kEvCtrFucomp");
		assert_string_not_equal(o->name, "hwR10kEvCtrCpuFucomp");
		memcpy(cur, next, nlen * sizeof(*cur));
		len = nlen;
		prev = o;
		count++;
	}
	assert_int_equal(cpu_cycles, 2);
	assert_string_equal(prev->name, "hwR10kEvCtrAlarmNextIndex");
	/* the counted totals, state and cpurev, each counted counter and each
	 * status column on both CPUs, the agent's readable scalars; no rate
	 * or statistic after one poll, no alarm */
	size_t status = 0, agent = 0, counted = COUNTER_COUNT - 1;
	for (size_t i = 0; i < meta_objects_count; i++) {
		const struct mib_object *m = &meta_objects[i];
		if (m->counter >= 0 || m->stat >= 0 ||
		    m->access != ACC_READ_ONLY || m->tag == TAG_STATE ||
		    m->tag == TAG_CPUREV)
			continue;
		status += m->table == TBL_CPU;
		agent += m->table == TBL_SCALAR;
	}
	assert_int_equal(count, counted + 2 + counted * 2 + status * 2 + agent);
}

static void getnext_edges(void **state)
{
	unsigned long q[MIBVIEW_OID_MAX], next[MIBVIEW_OID_MAX];
	size_t n, nlen;
	const struct mib_object *o;
	struct mib_value v;

	/* from before the module: its first object */
	unsigned long before[] = {1, 3, 6, 1, 2};
	assert_int_equal(view_getnext(&view, before, 5, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrState");
	assert_int_equal(next[nlen - 1], 0);
	/* after the module */
	unsigned long after[] = {1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 60};
	assert_int_equal(view_getnext(&view, after, 10, next, &nlen, &o, &v),
			 MV_END_OF_VIEW);
	/* the last instance */
	n = oid_of("hwR10kEvCtrAlarmNextIndex", 0, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_END_OF_VIEW);
	/* within a column: CPU 0 -> CPU 2; CPU 1 -> CPU 2; CPU 2 -> next column
	 */
	n = oid_of("hwR10kEvCtrCpuCycles", 0, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuCycles");
	assert_int_equal(next[nlen - 1], 2);
	q[n - 1] = 1;
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_int_equal(next[nlen - 1], 2);
	q[n - 1] = 2;
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuIssueInstri");
	assert_int_equal(next[nlen - 1], 0);
	/* a longer OID inside an instance: CPU 0.5 -> CPU 2 */
	q[n - 1] = 0;
	q[n] = 5;
	assert_int_equal(view_getnext(&view, q, n + 1, next, &nlen, &o, &v),
			 MV_OK);
	assert_int_equal(next[nlen - 1], 2);
	/* a huge index */
	q[n - 1] = 0xffffffffffUL;
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuIssueInstri");
	/* the uncounted column is skipped: vcc (cpu 2) -> grad.instrg (cpu 0)
	 */
	n = oid_of("hwR10kEvCtrCpuVcc", 2, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuGradInstrg");
	/* the table entry itself (no column): first column, first row */
	n = oid_of("hwR10kEvCtrCpuCycles", 0, q);
	assert_int_equal(view_getnext(&view, q, n - 2, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuCycles");
	assert_int_equal(next[nlen - 1], 0);
}

static void alarm_rows(void **state)
{
	struct alarm_config cfg[2];
	struct alarm_set set;
	unsigned long q[MIBVIEW_OID_MAX], next[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	size_t n, nlen;
	char err[256];

	assert_int_equal(
	    alarm_config_parse("first hw.r10kevctr.tlb sum rate 10 5", &cfg[0],
			       err, 256),
	    0);
	assert_int_equal(
	    alarm_config_parse(
		"second hw.r10kevctr.cycles 2 absolute 10 5 falling", &cfg[1],
		err, 256),
	    0);
	assert_int_equal(alarm_set_build(&set, cfg, 2, NULL), 0);
	served.alarms = &set;

	n = oid_of("hwR10kEvCtrAlarmName", 2, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.str.len, 6);
	assert_memory_equal(v.v.str.ptr, "second", 6);
	n = oid_of("hwR10kEvCtrAlarmMetric", 1, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_memory_equal(v.v.str.ptr, "hw.r10kevctr.tlb", 16);
	n = oid_of("hwR10kEvCtrAlarmCpu", 2, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, 2);
	n = oid_of("hwR10kEvCtrAlarmStartupAlarm", 2, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, 2);
	n = oid_of("hwR10kEvCtrAlarmStatus", 1, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, ALARM_WAITING);
	/* no sample yet: no value; no alarm 3; notify-only objects hidden */
	n = oid_of("hwR10kEvCtrAlarmValue", 1, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrAlarmName", 3, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrAlarmEventCpu", 1, q);
	assert_int_equal(view_get(&view, q, n, &o, &v), MV_NO_SUCH_OBJECT);
	/* getnext: name.2 -> metric.1; value column skipped; dropped.2 -> end
	 */
	n = oid_of("hwR10kEvCtrAlarmName", 2, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmMetric");
	assert_int_equal(next[nlen - 1], 1);
	n = oid_of("hwR10kEvCtrAlarmStartupAlarm", 2, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmStatus");
	/* the notification-only columns are skipped */
	n = oid_of("hwR10kEvCtrAlarmDropped", 2, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmRisingThresholdLow");
	assert_int_equal(next[nlen - 1], 1);
	/* the owner column, then the next free index (no row: 1025) */
	n = oid_of("hwR10kEvCtrAlarmRowStatus", 2, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmOwner");
	assert_int_equal(v.v.str.len, strlen("monitor"));
	assert_memory_equal(v.v.str.ptr, "monitor", v.v.str.len);
	n = oid_of("hwR10kEvCtrAlarmOwner", 2, q);
	assert_int_equal(view_getnext(&view, q, n, next, &nlen, &o, &v), MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmNextIndex");
	assert_int_equal(v.v.u32, 1025);
	assert_int_equal(view_getnext(&view, next, nlen, next, &nlen, &o, &v),
			 MV_END_OF_VIEW);
	served.alarms = NULL;
	alarm_set_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(walk),
	    cmocka_unit_test(getnext_edges),
	    cmocka_unit_test(alarm_rows),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
