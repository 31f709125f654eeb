/*
 * test_mibview_get.c - the object table and GET called directly, with no
 * snmpd: order, values, types, absent instances; every object served.
 */
#include "mibview_fixture.h"

static void table_sorted(void **state)
{
	for (size_t i = 1; i < meta_objects_count; i++) {
		const struct mib_object *a = &meta_objects[i - 1],
					*b = &meta_objects[i];
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
	assert_true(meta_objects_count > 2 * COUNTER_COUNT);
}

static void get_values(void **state)
{
	unsigned long oid[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	size_t n;

	n = oid_of("hwR10kEvCtrState", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_INTEGER32);
	assert_int_equal(v.v.i32, 30);

	n = oid_of("hwR10kEvCtrCpurev", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_OCTETS);
	assert_int_equal(v.v.str.len, 3);
	assert_memory_equal(v.v.str.ptr, "2.6", 3);

	n = oid_of("hwR10kEvCtrCycles", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_COUNTER64);
	assert_int_equal(v.v.u64, 1000 + UINT64_MAX - 5); /* wraps mod 2^64 */

	n = oid_of("hwR10kEvCtrCpuCycles", 2, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.v.u64, UINT64_MAX - 5);

	n = oid_of("hwR10kEvCtrCpuGradFp", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(
	    v.v.u64, 1000 + meta_counter_index_by_name("hw.r10kevctr.grad.fp"));

	n = oid_of("hwR10kEvCtrLastPollTime", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_TIMETICKS);
	assert_int_equal(v.v.u32, 4242);

	n = oid_of("hwR10kEvCtrNumCpus", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_UNSIGNED32);
	assert_int_equal(v.v.u32, 2);

	n = oid_of("hwR10kEvCtrPolls", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.type, SYN_COUNTER32);
	assert_int_equal(v.v.u32, 1);

	n = oid_of("hwR10kEvCtrCpuStatus", 2, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_OK);
	assert_int_equal(v.v.i32, CPU_COUNTING);
}

static void get_missing(void **state)
{
	unsigned long oid[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	size_t n;

	n = oid_of("hwR10kEvCtrCpuCycles", 1, oid); /* no CPU 1 */
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrFucomp", 0, oid); /* not counted */
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrCpuFucomp", 0, oid);
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrState", 1, oid); /* .1 of a scalar */
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrState", 0, oid);
	assert_int_equal(view_get(&view, oid, n - 1, &o, &v),
			 MV_NO_SUCH_INSTANCE);
	oid[n++] = 7; /* state.0.7 */
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_NO_SUCH_INSTANCE);
	n = oid_of("hwR10kEvCtrCpuCycles", 0, oid);
	oid[n - 2] = 2; /* column 2 does not exist */
	assert_int_equal(view_get(&view, oid, n, &o, &v), MV_NO_SUCH_OBJECT);
	unsigned long other[] = {1, 3, 6, 1, 2, 1, 1, 1, 0};
	assert_int_equal(view_get(&view, other, 9, &o, &v), MV_NO_SUCH_OBJECT);
	assert_int_equal(view_get(&view, other, 0, &o, &v), MV_NO_SUCH_OBJECT);
}
/* objects.def declares each object once; each must have a value, and
 * each notification's objects must exist where its instance says. */
static void every_object_served(void **state)
{
	for (size_t i = 0; i < meta_objects_count; i++)
		if (!view_value_has_source(meta_objects[i].tag))
			fail_msg("%s has no value source",
				 meta_objects[i].name);
	assert_true(meta_notifications_count > 0);
	for (size_t i = 0; i < meta_notifications_count; i++) {
		const struct mib_notification *no = &meta_notifications[i];
		assert_true(no->nobjects > 0);
		for (unsigned k = 0; k < no->nobjects; k++) {
			const struct mib_object *o =
			    view_object(no->objects[k]);
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
	assert_true(view_oid_cmp(a, 1, b, 2) < 0);
	assert_true(view_oid_cmp(b, 2, a, 1) > 0);
	assert_true(view_oid_cmp(a, 2, b, 2) > 0);
	assert_int_equal(view_oid_cmp(a, 1, b, 1), 0);
	assert_int_equal(view_oid_cmp(a, 0, b, 0), 0);
}

/* A value goes on the wire in its syntax's AgentX type (RFC 2741 5.4,
 * the numbers written out here, not taken from SMI_TYPES), its datum
 * unchanged; a syntax outside the table gets a type the codec refuses. */
static void wire_types(void **state)
{
	static const struct {
		enum obj_syntax syn;
		enum ax_data_type wire;
	} map[] = {{SYN_INTEGER32, 2}, {SYN_UNSIGNED32, 66},
		   {SYN_COUNTER32, 65}, {SYN_COUNTER64, 70},
		   {SYN_OCTETS, 4},	 {SYN_TIMETICKS, 67}};
	(void)state;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		struct mib_value v = {map[i].syn,
				      {.u64 = UINT64_C(0x8000000100000002)}};
		struct ax_value w = view_value_wire(&v);
		assert_int_equal(w.type, map[i].wire);
		assert_true(w.v.u64 == UINT64_C(0x8000000100000002));
	}
	struct mib_value s = {SYN_OCTETS, {.str = {"node0", 5}}};
	struct ax_value w = view_value_wire(&s);
	assert_ptr_equal(w.v.str.ptr, s.v.str.ptr);
	assert_int_equal(w.v.str.len, 5);
	assert_int_equal(view_value_wire(&(struct mib_value){.type = SYN_COUNT}).type,
			 AX_NULL);
	assert_int_equal(
	    view_value_wire(&(struct mib_value){.type = (enum obj_syntax)-1}).type,
	    AX_NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(table_sorted),
	    cmocka_unit_test(oid_order),
	    cmocka_unit_test(get_values),
	    cmocka_unit_test(get_missing),
	    cmocka_unit_test(every_object_served),
	    cmocka_unit_test(wire_types),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
