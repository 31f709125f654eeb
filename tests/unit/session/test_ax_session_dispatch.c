/* test_ax_session_dispatch.c - the dispatch and the one read path
 * (lib/session/ax_session_dispatch.c): a master's
 * requests, built byte by byte (axpdu.h), answered from a populated cache
 * (fuzz/populated.h: CPUs 0, 2 and 5, two polls, two alarms) as RFC 2741
 * 7.2.3 and the module's read-only rules say, the answers read back by the
 * decoder. */
#include "testenv.h"

#include <string.h>

#include "session/ax_session_dispatch.h"
#include "axpdu.h"
#include "populated.h"

/* The module's root and OIDs below it. */
static size_t below(unsigned *o, const unsigned *arcs, size_t n)
{
	for (unsigned i = 0; i < meta_root_len; i++)
		o[i] = meta_root[i];
	if (n)
		memcpy(o + meta_root_len, arcs, n * sizeof(*o));
	return meta_root_len + n;
}

struct answer {
	struct ax_response_in r;
	size_t n;
	uint16_t type[64];
	unsigned long name[64][AX_OID_MAX + 5];
	size_t len[64];
};

/* Send p (finished here) to the read path: its Response framed in *b
 * (ax_free it) and *rh; false when there is none. */
static bool answer_of(struct pdu *p, struct ax_buf *b, unsigned char *st,
		      size_t len, struct ax_header_in *rh)
{
	static struct ax_request req;
	struct ax_header_in h;
	char why[160];

	finish(p);
	assert_int_equal(ax_frame(p->b, p->len, &h), AX_FRAME_PDU);
	assert_int_equal(ax_parse_request(&h, p->b + AX_HEADER_LEN, &req, why,
					  sizeof(why)),
			 0);
	ax_init(b, st, len);
	if (!session_answer(populated_view(), NULL, &req, 77, b)) {
		ax_free(b);
		return false;
	}
	assert_int_equal(ax_finish(b), 0);
	assert_int_equal(ax_frame(b->p, b->len, rh), AX_FRAME_PDU);
	return true;
}

/* Send p (finished here), read the Response into a; false when none. */
static bool ask(struct pdu *p, struct answer *a)
{
	char why[160];
	unsigned char st[4096];
	struct ax_buf b;
	struct ax_header_in rh;

	if (!answer_of(p, &b, st, sizeof(st), &rh))
		return false;
	assert_int_equal(rh.type, AX_PDU_RESPONSE);
	assert_int_equal(rh.ids.packet, 33); /* echoes the request's IDs */
	assert_int_equal(rh.ids.transaction, 22);
	assert_int_equal(ax_parse_response(&rh, b.p + AX_HEADER_LEN, &a->r), 0);
	assert_int_equal(a->r.uptime, 77);
	size_t at = 8;
	struct ax_oid o;
	unsigned long sub[AX_OID_MAX + 5];
	int got;
	a->n = 0;
	while (a->n < 64 &&
	       (got = ax_next_varbind(&rh, b.p + AX_HEADER_LEN, &at,
				      &a->type[a->n], &o, sub, why, 160)) == 1) {
		memcpy(a->name[a->n], o.sub, o.len * sizeof(*o.sub));
		a->len[a->n++] = o.len;
	}
	ax_free(&b);
	return true;
}

static int cmp(const struct answer *a, size_t i, const unsigned *o, size_t n)
{
	for (size_t k = 0; k < a->len[i] && k < n; k++)
		if (a->name[i][k] != o[k])
			return a->name[i][k] < o[k] ? -1 : 1;
	return a->len[i] < n ? -1 : a->len[i] > n;
}

/* varbind i's name is after varbind j's */
static bool later(const struct answer *a, size_t i, size_t j)
{
	for (size_t k = 0; k < a->len[i] && k < a->len[j]; k++)
		if (a->name[i][k] != a->name[j][k])
			return a->name[i][k] > a->name[j][k];
	return a->len[i] > a->len[j];
}

static void get(void **state)
{
	struct pdu p;
	struct answer a;
	unsigned ncpus[32], unknown[32], absent[32], cycles0[32];
	size_t l1 = below(ncpus, (unsigned[]){1, 4, 4, 0}, 4);
	size_t l2 = below(unknown, (unsigned[]){1, 1, 99, 0}, 4);
	size_t l3 = below(absent, (unsigned[]){1, 2, 1, 3, 1}, 5); /* CPU 1 */
	size_t l4 = below(cycles0, (unsigned[]){1, 2, 1, 3, 0}, 5);
	header(&p, AX_PDU_GET, 0, true);
	oid(&p, ncpus, l1, false);
	oid(&p, NULL, 0, false);
	oid(&p, unknown, l2, false);
	oid(&p, NULL, 0, false);
	oid(&p, absent, l3, false);
	oid(&p, NULL, 0, false);
	oid(&p, cycles0, l4, false);
	oid(&p, NULL, 0, false);
	assert_true(ask(&p, &a));
	assert_int_equal(a.r.error, 0);
	assert_int_equal(a.n, 4);
	assert_int_equal(cmp(&a, 0, ncpus, l1), 0);
	assert_true(a.type[0] < AX_NO_SUCH_OBJECT);
	assert_int_equal(a.type[1], AX_NO_SUCH_OBJECT);
	assert_int_equal(a.type[2], AX_NO_SUCH_INSTANCE);
	assert_int_equal(a.type[3], AX_COUNTER64);
}

static void getnext_ranges(void **state)
{
	struct pdu p;
	struct answer a;
	unsigned root[32], cpu0[32], cpu2[32], after[32];
	size_t lr = below(root, NULL, 0);
	size_t l0 = below(cpu0, (unsigned[]){1, 2, 1, 3, 0}, 5);
	size_t l2 = below(cpu2, (unsigned[]){1, 2, 1, 3, 2}, 5);
	size_t la = below(after, (unsigned[]){99}, 1);
	header(&p, AX_PDU_GETNEXT, 0, false); /* little-endian this time */
	oid(&p, root, lr, false);	     /* the first object */
	oid(&p, NULL, 0, false);
	oid(&p, cpu0, l0, true); /* include: CPU 0's cycles itself */
	oid(&p, NULL, 0, false);
	oid(&p, cpu0, l0, false); /* next: CPU 2 (1 is not there) */
	oid(&p, NULL, 0, false);
	oid(&p, cpu0, l0, false); /* bounded before CPU 2: nothing */
	oid(&p, cpu2, l2, false);
	oid(&p, after, la, false); /* past the module */
	oid(&p, NULL, 0, false);
	assert_true(ask(&p, &a));
	assert_int_equal(a.n, 5);
	assert_true(cmp(&a, 0, root, lr) > 0 && a.type[0] < AX_NO_SUCH_OBJECT);
	assert_int_equal(cmp(&a, 1, cpu0, l0), 0);
	assert_int_equal(cmp(&a, 2, cpu2, l2), 0);
	assert_int_equal(a.type[3], AX_END_OF_MIB_VIEW);
	assert_int_equal(cmp(&a, 3, cpu0, l0), 0); /* names the start */
	assert_int_equal(a.type[4], AX_END_OF_MIB_VIEW);
}

static void getbulk(void **state)
{
	struct pdu p;
	struct answer a;
	unsigned root[32], state_[32];
	size_t lr = below(root, NULL, 0);
	size_t ls = below(state_, (unsigned[]){1, 1, 1, 0}, 4);
	header(&p, AX_PDU_GETBULK, 0, true);
	put16(&p, 1); /* non-repeaters */
	put16(&p, 10);
	oid(&p, root, lr, false);
	oid(&p, NULL, 0, false);
	oid(&p, state_, ls, false);
	oid(&p, NULL, 0, false);
	assert_true(ask(&p, &a));
	assert_int_equal(a.n, 11); /* 1 + 1 repeater x 10 */
	for (size_t i = 2; i < a.n; i++)
		assert_true(later(&a, i, i - 1) || a.type[i] == AX_END_OF_MIB_VIEW);

	/* a repeater's range ends where the master says (RFC 2741 7.2.3.3,
	 * as 7.2.3.2): from CPU 0's cycles, bounded before CPU 5's, it
	 * gets CPU 2's, then endOfMibView, where the answer stops (every
	 * repeater ended) although 3 repetitions were asked */
	unsigned cpu0[32], cpu5[32];
	size_t l0 = below(cpu0, (unsigned[]){1, 2, 1, 3, 0}, 5);
	size_t l5 = below(cpu5, (unsigned[]){1, 2, 1, 3, 5}, 5);
	header(&p, AX_PDU_GETBULK, 0, true);
	put16(&p, 0);
	put16(&p, 3);
	oid(&p, cpu0, l0, false);
	oid(&p, cpu5, l5, false);
	assert_true(ask(&p, &a));
	assert_int_equal(a.n, 2);
	assert_int_equal(a.type[0], AX_COUNTER64);
	assert_int_equal(a.name[0][l0 - 1], 2);
	assert_int_equal(a.type[1], AX_END_OF_MIB_VIEW);
}

/* The varbinds of p's Response. */
static size_t count_answer(struct pdu *p)
{
	struct ax_header_in rh;
	char why[160];
	unsigned char st[4096];
	struct ax_buf b;
	struct ax_oid o;
	unsigned long sub[AX_OID_MAX + 5];
	uint16_t type;
	size_t at = 8, n = 0;

	assert_true(answer_of(p, &b, st, sizeof(st), &rh));
	while (ax_next_varbind(&rh, b.p + AX_HEADER_LEN, &at, &type, &o, sub,
			       why, sizeof(why)) == 1)
		n++;
	ax_free(&b);
	return n;
}

/* A GetBulk that would answer more than AX_ANSWER_MAX_VARBINDS: 12
 * repeaters from the module's root, 65535 repetitions (each walks the
 * whole module: about 250 rows here) get 2048 / 12 = 170 rows, whole. */
static void getbulk_cap(void **state)
{
	struct pdu p;
	unsigned root[32];
	size_t lr = below(root, NULL, 0);
	header(&p, AX_PDU_GETBULK, 0, true);
	put16(&p, 0);
	put16(&p, 65535);
	for (int i = 0; i < 12; i++) {
		oid(&p, root, lr, false);
		oid(&p, NULL, 0, false);
	}
	size_t n = count_answer(&p);
	assert_int_equal(n, AX_ANSWER_MAX_VARBINDS / 12 * 12);
	/* one repeater: the whole module, under the cap (so the 12 above
	 * were cut by it, not by the module's end) */
	header(&p, AX_PDU_GETBULK, 0, true);
	put16(&p, 0);
	put16(&p, 65535);
	oid(&p, root, lr, false);
	oid(&p, NULL, 0, false);
	n = count_answer(&p);
	assert_true(n > AX_ANSWER_MAX_VARBINDS / 12 &&
		    n < AX_ANSWER_MAX_VARBINDS);
}

static void refused(void **state)
{
	struct pdu p;
	struct answer a;
	unsigned ncpus[32];
	size_t l = below(ncpus, (unsigned[]){1, 4, 4, 0}, 4);

	/* another context: unsupportedContext, no varbinds */
	header(&p, AX_PDU_GET, AX_FLAG_NON_DEFAULT_CONTEXT, true);
	put32(&p, 1);
	put32(&p, 0x78000000); /* "x", padded */
	oid(&p, ncpus, l, false);
	oid(&p, NULL, 0, false);
	assert_true(ask(&p, &a));
	assert_int_equal(a.r.error, AX_ERR_UNSUPPORTEDCONTEXT);
	assert_int_equal(a.n, 0);
	/* the set phases of a read-only module */
	header(&p, AX_PDU_TESTSET, 0, true);
	put16(&p, AX_INTEGER);
	put16(&p, 0);
	oid(&p, ncpus, l, false);
	put32(&p, 5);
	assert_true(ask(&p, &a));
	assert_int_equal(a.r.error, AX_ERR_NOTWRITABLE);
	assert_int_equal(a.r.index, 1);
	header(&p, AX_PDU_COMMITSET, 0, true);
	assert_true(ask(&p, &a));
	assert_int_equal(a.r.error, AX_ERR_COMMITFAILED);
	header(&p, AX_PDU_UNDOSET, 0, true);
	assert_true(ask(&p, &a));
	assert_int_equal(a.r.error, AX_ERR_UNDOFAILED);
	header(&p, AX_PDU_CLEANUPSET, 0, true);
	assert_false(ask(&p, &a)); /* no Response (7.2.4.4) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(get),
	    cmocka_unit_test(getnext_ranges),
	    cmocka_unit_test(getbulk),
	    cmocka_unit_test(getbulk_cap),
	    cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
