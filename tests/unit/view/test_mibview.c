/*
 * test_mibview.c - the object table and GET/GETNEXT called directly, with
 * no snmpd: order, values, types, absent instances and end of the module.
 */
#include "testenv.h"

#include <limits.h>

#include "cache/cache.h"
#include "meta/metrics.h"
#include "view/mibview.h"
#include "alarm/alarm.h"

static struct cache cache;
static struct served served;
static const struct mib_view view = {&cache, &served};

/* CPUs 0 and 2; every counter but fucomp (index of metric) counted. */
static int setup(void **state)
{
	struct sample s = {0};
	cache_init(&cache);
	sample_reserve(&s, 2);
	s.ncpus = 2;
	s.counted = ((UINT64_C(1) << COUNTER_COUNT) - 1) &
		    ~COUNTER_BIT(counter_index_by_name("hw.r10kevctr.fucomp"));
	s.state = 30;
	snprintf(s.cpurev, sizeof(s.cpurev), "2.6");
	for (int i = 0; i < 2; i++) {
		s.cpus[i].cpu = (unsigned)i * 2;
		s.cpus[i].counting = true;
		s.cpus[i].epoch = 1;
		for (int c = 0; c < COUNTER_COUNT; c++)
			s.cpus[i].value[c] =
			    (uint64_t)(i + 1) * 1000 + (uint64_t)c;
	}
	s.cpus[1].value[0] = UINT64_MAX - 5; /* full 64 bits survive */
	served_init(&served);
	served_configure(&served, "sim", 5, NULL);
	cache_update(&cache, &s, 4242);
	sample_free(&s);
	return 0;
}

static int teardown(void **state)
{
	cache_free(&cache);
	return 0;
}

static size_t oid_of(const char *name, unsigned long instance,
		     unsigned long *out)
{
	const struct mib_object *o = mibview_object(name);
	assert_non_null(o);
	return mibview_oid(o, instance, out);
}

static void table_sorted(void **state)
{
	for (size_t i = 1; i < mib_objects_count; i++) {
		const struct mib_object *a = &mib_objects[i - 1],
					*b = &mib_objects[i];
		int cmp = 0;
		for (unsigned k = 0; k < a->len && k < b->len && !cmp; k++)
			cmp = (a->arcs[k] > b->arcs[k]) -
			      (a->arcs[k] < b->arcs[k]);
		if (!cmp)
			cmp = (a->len > b->len) - (a->len < b->len);
		if (cmp >= 0)
			fail_msg("%s is not before %s", a->name, b->name);
		/* no object is a prefix of another */
		assert_false(
		    a->len < b->len &&
		    memcmp(a->arcs, b->arcs, a->len * sizeof(unsigned)) == 0);
	}
	assert_true(mib_objects_count > 2 * COUNTER_COUNT);
}

static void get_values(void **state)
{
	unsigned long oid[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	size_t n;

	n = oid_of("hwR10kEvCtrState", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_INTEGER32);
	assert_int_equal(v.v.i32, 30);

	n = oid_of("hwR10kEvCtrCpurev", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_OCTETS);
	assert_int_equal(v.v.str.len, 3);
	assert_memory_equal(v.v.str.ptr, "2.6", 3);

	n = oid_of("hwR10kEvCtrCycles", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_COUNTER64);
	assert_int_equal(v.v.u64, 1000 + UINT64_MAX - 5); /* wraps mod 2^64 */

	n = oid_of("hwR10kEvCtrCpuCycles", 2, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.v.u64, UINT64_MAX - 5);

	n = oid_of("hwR10kEvCtrCpuGradFp", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.v.u64,
			 1000 + counter_index_by_name("hw.r10kevctr.grad.fp"));

	n = oid_of("hwR10kEvCtrLastPollTime", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_TIMETICKS);
	assert_int_equal(v.v.u32, 4242);

	n = oid_of("hwR10kEvCtrNumCpus", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_UNSIGNED32);
	assert_int_equal(v.v.u32, 2);

	n = oid_of("hwR10kEvCtrPolls", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_COUNTER32);
	assert_int_equal(v.v.u32, 1);

	n = oid_of("hwR10kEvCtrCpuStatus", 2, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, CPU_COUNTING);
}

static void get_missing(void **state)
{
	unsigned long oid[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	size_t n;

	n = oid_of("hwR10kEvCtrCpuCycles", 1, oid); /* no CPU 1 */
	assert_int_equal(mibview_get(&view, oid, n, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrFucomp", 0, oid); /* not counted */
	assert_int_equal(mibview_get(&view, oid, n, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrCpuFucomp", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrState", 1, oid); /* .1 of a scalar */
	assert_int_equal(mibview_get(&view, oid, n, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrState", 0, oid);
	assert_int_equal(mibview_get(&view, oid, n - 1, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	oid[n++] = 7; /* state.0.7 */
	assert_int_equal(mibview_get(&view, oid, n, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrCpuCycles", 0, oid);
	oid[n - 2] = 2; /* column 2 does not exist */
	assert_int_equal(mibview_get(&view, oid, n, &o, &v), MV_NO_SUCH_OBJECT);
	unsigned long other[] = {1, 3, 6, 1, 2, 1, 1, 1, 0};
	assert_int_equal(mibview_get(&view, other, 9, &o, &v),
			 MV_NO_SUCH_OBJECT);
	assert_int_equal(mibview_get(&view, other, 0, &o, &v),
			 MV_NO_SUCH_OBJECT);
}

/* Walk the whole module with GETNEXT from the root. */
static void walk(void **state)
{
	unsigned long cur[MIBVIEW_OID_MAX], next[MIBVIEW_OID_MAX];
	size_t len = mib_root_len, nlen;
	const struct mib_object *o, *prev = NULL;
	struct mib_value v;
	size_t count = 0, cpu_cycles = 0;

	for (unsigned i = 0; i < mib_root_len; i++)
		cur[i] = mib_root[i];
	while (mibview_getnext(&view, cur, len, next, &nlen, &o, &v) == MV_OK) {
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
	for (size_t i = 0; i < mib_objects_count; i++) {
		const struct mib_object *m = &mib_objects[i];
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
	assert_int_equal(mibview_getnext(&view, before, 5, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrState");
	assert_int_equal(next[nlen - 1], 0);
	/* after the module */
	unsigned long after[] = {1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 60};
	assert_int_equal(mibview_getnext(&view, after, 10, next, &nlen, &o, &v),
			 MV_END_OF_VIEW);
	/* the last instance */
	n = oid_of("hwR10kEvCtrAlarmNextIndex", 0, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_END_OF_VIEW);
	/* within a column: CPU 0 -> CPU 2; CPU 1 -> CPU 2; CPU 2 -> next column
	 */
	n = oid_of("hwR10kEvCtrCpuCycles", 0, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuCycles");
	assert_int_equal(next[nlen - 1], 2);
	q[n - 1] = 1;
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_int_equal(next[nlen - 1], 2);
	q[n - 1] = 2;
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuIssueInstri");
	assert_int_equal(next[nlen - 1], 0);
	/* a longer OID inside an instance: CPU 0.5 -> CPU 2 */
	q[n - 1] = 0;
	q[n] = 5;
	assert_int_equal(mibview_getnext(&view, q, n + 1, next, &nlen, &o, &v),
			 MV_OK);
	assert_int_equal(next[nlen - 1], 2);
	/* a huge index */
	q[n - 1] = 0xffffffffffUL;
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuIssueInstri");
	/* the uncounted column is skipped: vcc (cpu 2) -> grad.instrg (cpu 0)
	 */
	n = oid_of("hwR10kEvCtrCpuVcc", 2, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrCpuGradInstrg");
	/* the table entry itself (no column): first column, first row */
	n = oid_of("hwR10kEvCtrCpuCycles", 0, q);
	assert_int_equal(mibview_getnext(&view, q, n - 2, next, &nlen, &o, &v),
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
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.str.len, 6);
	assert_memory_equal(v.v.str.ptr, "second", 6);
	n = oid_of("hwR10kEvCtrAlarmMetric", 1, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_OK);
	assert_memory_equal(v.v.str.ptr, "hw.r10kevctr.tlb", 16);
	n = oid_of("hwR10kEvCtrAlarmCpu", 2, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, 2);
	n = oid_of("hwR10kEvCtrAlarmStartupAlarm", 2, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, 2);
	n = oid_of("hwR10kEvCtrAlarmStatus", 1, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, ALARM_WAITING);
	/* no sample yet: no value; no alarm 3; notify-only objects hidden */
	n = oid_of("hwR10kEvCtrAlarmValue", 1, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrAlarmName", 3, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrAlarmEventCpu", 1, q);
	assert_int_equal(mibview_get(&view, q, n, &o, &v), MV_NO_SUCH_OBJECT);
	/* getnext: name.2 -> metric.1; value column skipped; dropped.2 -> end
	 */
	n = oid_of("hwR10kEvCtrAlarmName", 2, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmMetric");
	assert_int_equal(next[nlen - 1], 1);
	n = oid_of("hwR10kEvCtrAlarmStartupAlarm", 2, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmStatus");
	/* the notification-only columns are skipped */
	n = oid_of("hwR10kEvCtrAlarmDropped", 2, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmRisingThresholdLow");
	assert_int_equal(next[nlen - 1], 1);
	/* the owner column, then the next free index (no row: 1025) */
	n = oid_of("hwR10kEvCtrAlarmRowStatus", 2, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmOwner");
	assert_int_equal(v.v.str.len, strlen("monitor"));
	assert_memory_equal(v.v.str.ptr, "monitor", v.v.str.len);
	n = oid_of("hwR10kEvCtrAlarmOwner", 2, q);
	assert_int_equal(mibview_getnext(&view, q, n, next, &nlen, &o, &v),
			 MV_OK);
	assert_string_equal(o->name, "hwR10kEvCtrAlarmNextIndex");
	assert_int_equal(v.v.u32, 1025);
	assert_int_equal(mibview_getnext(&view, next, nlen, next, &nlen, &o,
					 &v),
			 MV_END_OF_VIEW);
	served.alarms = NULL;
	alarm_set_free(&set);
}

/*
 * Every lookup branch against an oracle.  The oracle is the module's walk
 * from the root (itself checked strictly increasing by walk()); for any
 * request OID, GETNEXT must answer the first OID of the walk that is
 * greater than the request, and GET must succeed exactly for OIDs of the
 * walk.  Requests are built from every object's OID (and every prefix of
 * it) with instance parts at and beyond the 32-bit limit, longer and
 * shorter than the index, and arcs that fall between columns.
 */
#define WALK_MAX 512
struct oid_buf {
	unsigned long arc[MIBVIEW_OID_MAX + 4];
	size_t len;
};

static size_t full_walk(struct oid_buf *w)
{
	unsigned long cur[MIBVIEW_OID_MAX];
	size_t len = 0, n = 0;
	const struct mib_object *o;
	struct mib_value v;

	while (n < WALK_MAX && mibview_getnext(&view, cur, len, w[n].arc,
					       &w[n].len, &o, &v) == MV_OK) {
		memcpy(cur, w[n].arc, w[n].len * sizeof(*cur));
		len = w[n].len;
		n++;
	}
	assert_true(n < WALK_MAX);
	return n;
}

static void check_request(const struct oid_buf *w, size_t nw,
			  const unsigned long *q, size_t qlen)
{
	unsigned long next[MIBVIEW_OID_MAX];
	size_t nlen = 0, expect = 0;
	const struct mib_object *o = NULL;
	struct mib_value v;
	bool member = false;

	while (expect < nw &&
	       mibview_oid_cmp(w[expect].arc, w[expect].len, q, qlen) <= 0) {
		member |=
		    mibview_oid_cmp(w[expect].arc, w[expect].len, q, qlen) == 0;
		expect++;
	}
	enum mibview_result r =
	    mibview_getnext(&view, q, qlen, next, &nlen, &o, &v);
	if (expect == nw) {
		assert_int_equal(r, MV_END_OF_VIEW);
	} else {
		assert_int_equal(r, MV_OK);
		assert_true(mibview_oid_cmp(next, nlen, w[expect].arc,
					    w[expect].len) == 0);
	}
	r = mibview_get(&view, q, qlen, &o, &v);
	assert_true(member ? r == MV_OK : r != MV_OK);
}

static void edge_requests(void)
{
	static struct oid_buf w[WALK_MAX];
	const unsigned long tails[][2] = {
	    {0, 0},
	    {1, 0},
	    {2, 0},
	    {3, 0},
	    {UINT32_MAX - 1UL, 0},
	    {UINT32_MAX, 0},
	    {UINT32_MAX + 1UL, 0},
	    {ULONG_MAX - 1, 0},
	    {ULONG_MAX, 0},
	    {0, ULONG_MAX},
	    {UINT32_MAX, UINT32_MAX},
	    {ULONG_MAX, ULONG_MAX},
	};
	const size_t ntails = sizeof(tails) / sizeof(tails[0]);
	size_t nw = full_walk(w);
	unsigned long q[MIBVIEW_OID_MAX + 4];

	for (unsigned i = 0; i < mib_root_len; i++)
		q[i] = mib_root[i];
	for (size_t i = 0; i < mib_objects_count; i++) {
		const struct mib_object *o = &mib_objects[i];
		/* every prefix of the object's arcs, then 0..2 more arcs */
		for (unsigned plen = 0; plen <= o->len; plen++) {
			for (unsigned k = 0; k < plen; k++)
				q[mib_root_len + k] = o->arcs[k];
			size_t base = mib_root_len + plen;
			check_request(w, nw, q, base);
			for (size_t t = 0; t < ntails; t++) {
				q[base] = tails[t][0];
				check_request(w, nw, q, base + 1);
				q[base + 1] = tails[t][1];
				check_request(w, nw, q, base + 2);
			}
			/* between this arc and the next: arc + 1 */
			if (plen > 0) {
				q[base - 1] = o->arcs[plen - 1] + 1;
				check_request(w, nw, q, base);
				q[base] = ULONG_MAX;
				check_request(w, nw, q, base + 1);
			}
		}
	}
	/* the root itself with huge arcs after it, and before/after it */
	for (size_t t = 0; t < ntails; t++) {
		q[mib_root_len] = tails[t][0];
		check_request(w, nw, q, mib_root_len + 1);
	}
	q[mib_root_len - 1] = ULONG_MAX;
	check_request(w, nw, q, mib_root_len);
	check_request(w, nw, q, 0);
}

static void edges_without_alarms(void **state)
{
	edge_requests();
}

static void edges_with_alarms(void **state)
{
	struct alarm_config cfg[3];
	struct alarm_set set;
	char err[256];
	const char *lines[] = {
	    "a hw.r10kevctr.tlb sum rate 10 5",
	    "b hw.r10kevctr.cycles 2 absolute 10 5 falling",
	    "c hw.r10kevctr.cycles each rate 10 5",
	};
	for (int i = 0; i < 3; i++)
		assert_int_equal(
		    alarm_config_parse(lines[i], &cfg[i], err, 256), 0);
	assert_int_equal(alarm_set_build(&set, cfg, 3, NULL), 0);
	served.alarms = &set;
	edge_requests();
	served.alarms = NULL;
	alarm_set_free(&set);
}

/* objects.def declares each object once; each must have a value, and
 * each notification's objects must exist where its instance says. */
static void every_object_served(void **state)
{
	for (size_t i = 0; i < mib_objects_count; i++)
		if (!value_has_source(mib_objects[i].tag))
			fail_msg("%s has no value source", mib_objects[i].name);
	assert_true(mib_notifications_count > 0);
	for (size_t i = 0; i < mib_notifications_count; i++) {
		const struct mib_notification *no = &mib_notifications[i];
		assert_true(no->nobjects > 0);
		for (unsigned k = 0; k < no->nobjects; k++) {
			const struct mib_object *o =
			    mibview_object(no->objects[k]);
			if (!o)
				fail_msg("%s: unknown object %s", no->name,
					 no->objects[k]);
			assert_int_equal(o->table, no->instance);
		}
	}
}

/* OIDs compared arc by arc, then by length: a prefix sorts first, and
 * no arc past an OID's length is read (a[1] here lies beyond alen). */
static void oid_order(void **state)
{
	const unsigned long a[] = {1, 5}, b[] = {1, 3};
	(void)state;
	assert_true(mibview_oid_cmp(a, 1, b, 2) < 0);
	assert_true(mibview_oid_cmp(b, 2, a, 1) > 0);
	assert_true(mibview_oid_cmp(a, 2, b, 2) > 0);
	assert_int_equal(mibview_oid_cmp(a, 1, b, 1), 0);
	assert_int_equal(mibview_oid_cmp(a, 0, b, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(table_sorted),
	    cmocka_unit_test(oid_order),
	    cmocka_unit_test(get_values),
	    cmocka_unit_test(get_missing),
	    cmocka_unit_test(walk),
	    cmocka_unit_test(getnext_edges),
	    cmocka_unit_test(alarm_rows),
	    cmocka_unit_test(every_object_served),
	    cmocka_unit_test(edges_without_alarms),
	    cmocka_unit_test(edges_with_alarms),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
