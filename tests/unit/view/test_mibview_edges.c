/*
 * test_mibview_edges.c - every lookup branch of GET and GETNEXT against
 * the oracle of the module's walk, with and without alarm rows.
 */
#include "mibview_fixture.h"

/*
 * Every lookup branch against an oracle.  The oracle is the module's walk
 * from the root (itself checked strictly increasing by walk(), in
 * test_mibview_walk.c); for any request OID, GETNEXT must answer the
 * first OID of the walk that is greater than the request, and GET must
 * succeed exactly for OIDs of the walk.  Requests are built from every
 * object's OID (and every prefix of it) with instance parts at and beyond
 * the 32-bit limit, longer and shorter than the index, and arcs that fall
 * between columns.
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

	while (n < WALK_MAX && view_getnext(&view, cur, len, w[n].arc,
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
	       view_oid_cmp(w[expect].arc, w[expect].len, q, qlen) <= 0) {
		member |=
		    view_oid_cmp(w[expect].arc, w[expect].len, q, qlen) == 0;
		expect++;
	}
	enum mibview_result r =
	    view_getnext(&view, q, qlen, next, &nlen, &o, &v);
	if (expect == nw) {
		assert_int_equal(r, MV_END_OF_VIEW);
	} else {
		assert_int_equal(r, MV_OK);
		assert_true(view_oid_cmp(next, nlen, w[expect].arc,
					 w[expect].len) == 0);
	}
	r = view_get(&view, q, qlen, &o, &v);
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

	for (unsigned i = 0; i < meta_root_len; i++)
		q[i] = meta_root[i];
	for (size_t i = 0; i < meta_objects_count; i++) {
		const struct mib_object *o = &meta_objects[i];
		/* every prefix of the object's arcs, then 0..2 more arcs */
		for (unsigned plen = 0; plen <= o->len; plen++) {
			for (unsigned k = 0; k < plen; k++)
				q[meta_root_len + k] = o->arcs[k];
			size_t base = meta_root_len + plen;
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
		q[meta_root_len] = tails[t][0];
		check_request(w, nw, q, meta_root_len + 1);
	}
	q[meta_root_len - 1] = ULONG_MAX;
	check_request(w, nw, q, meta_root_len);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(edges_without_alarms),
	    cmocka_unit_test(edges_with_alarms),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
