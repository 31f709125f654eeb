/* test_agentx_decode.c - what the subagent reads, against RFC 2741: the
 * stream's framing (6.1), both byte orders, the requests' SearchRanges
 * (5.2) with the OID prefix (5.1), GetBulk's counts (6.2.8), a non-default
 * context, the set phases' varbinds (5.4), Responses and Close, and each
 * way a payload fails to parse (the reason, never a read past the end). */
#include "testenv.h"

#include <string.h>

#include "agentx/agentx_decode.h"
#include "axpdu.h"

static const unsigned start[] = {1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 59, 1};
static const unsigned end[] = {1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 59, 2};

static int parse(struct pdu *p, struct ax_request *r, char *why)
{
	struct ax_header_in h;
	finish(p);
	assert_int_equal(ax_frame(p->b, p->len, &h), AX_FRAME_PDU);
	return ax_parse_request(&h, p->b + AX_HEADER_LEN, r, why, 160);
}

static void framing(void **state)
{
	struct pdu p;
	struct ax_header_in h;
	header(&p, AX_PDU_GET, 0, true);
	oid(&p, start, 11, false);
	oid(&p, NULL, 0, false);
	finish(&p);
	assert_int_equal(ax_frame(p.b, AX_HEADER_LEN - 1, &h), AX_FRAME_SHORT);
	assert_int_equal(ax_frame(p.b, p.len - 1, &h), AX_FRAME_SHORT);
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_PDU);
	assert_int_equal(h.length, p.len - AX_HEADER_LEN);
	assert_int_equal(h.ids.session, 11);
	assert_int_equal(h.ids.transaction, 22);
	assert_int_equal(h.ids.packet, 33);
	p.b[0] = 2; /* version 2 */
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_BAD);
	p.b[0] = 1;
	p.b[19] ^= 2; /* a length that is not a multiple of 4 */
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_BAD);
	header(&p, AX_PDU_GET, 0, true);
	p.len = 16;
	put32(&p, AX_PAYLOAD_MAX + 4); /* over the limit: no waiting for it */
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_BAD);
	p.len = 16;
	put32(&p, AX_PAYLOAD_MAX); /* the limit itself: framed, waited for */
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_SHORT);
	assert_int_equal(h.length, AX_PAYLOAD_MAX);
}

static void getnext_both_orders(void **state)
{
	for (int net = 0; net < 2; net++) {
		struct pdu p;
		struct ax_request r = {0};
		char why[160] = "";
		header(&p, AX_PDU_GETNEXT, 0, net);
		oid(&p, start, 11, true);
		oid(&p, end, 11, false);
		static const unsigned other[] = {1, 2, 840, 10006};
		oid(&p, other, 4, false); /* no prefix */
		oid(&p, NULL, 0, false);
		assert_int_equal(parse(&p, &r, why), 0);
		assert_int_equal(r.nranges, 2);
		assert_int_equal(r.ranges[0].start.len, 11);
		assert_true(r.ranges[0].start.include);
		assert_int_equal(r.ranges[0].start.sub[6], 8072);
		assert_int_equal(r.ranges[0].end.sub[10], 2);
		assert_int_equal(r.ranges[1].start.len, 4);
		assert_int_equal(r.ranges[1].start.sub[2], 840);
		assert_int_equal(r.ranges[1].end.len, 0); /* the null OID */
		assert_false(r.has_context);
		ax_request_free(&r);
	}
}

static void getbulk_and_context(void **state)
{
	struct pdu p;
	struct ax_request r = {0};
	char why[160] = "";
	header(&p, AX_PDU_GETBULK, AX_FLAG_NON_DEFAULT_CONTEXT, true);
	put32(&p, 3); /* context "abc", padded */
	put8(&p, 'a');
	put8(&p, 'b');
	put8(&p, 'c');
	put8(&p, 0);
	put16(&p, 1);  /* non-repeaters */
	put16(&p, 25); /* max-repetitions */
	oid(&p, start, 11, false);
	oid(&p, NULL, 0, false);
	oid(&p, end, 11, false);
	oid(&p, NULL, 0, false);
	assert_int_equal(parse(&p, &r, why), 0);
	assert_true(r.has_context);
	assert_int_equal(r.non_repeaters, 1);
	assert_int_equal(r.max_repetitions, 25);
	assert_int_equal(r.nranges, 2);
	ax_request_free(&r);
}

static void bad_payloads(void **state)
{
	struct pdu p;
	struct ax_request r = {0};
	char why[160];

	/* an OID that claims more sub-identifiers than the payload has */
	header(&p, AX_PDU_GET, 0, true);
	oid(&p, start, 11, false);
	p.b[AX_HEADER_LEN] = 100;
	oid(&p, NULL, 0, false);
	assert_int_equal(parse(&p, &r, why), -1);
	assert_non_null(strstr(why, "past the payload's end"));
	/* a range without its end OID */
	header(&p, AX_PDU_GETNEXT, 0, true);
	oid(&p, start, 11, false);
	assert_int_equal(parse(&p, &r, why), -1);
	/* a GetBulk without its counts */
	header(&p, AX_PDU_GETBULK, 0, true);
	assert_int_equal(parse(&p, &r, why), -1);
	/* a TestSet varbind of a type AgentX does not have */
	header(&p, AX_PDU_TESTSET, 0, true);
	put16(&p, 99);
	put16(&p, 0);
	oid(&p, start, 11, false);
	assert_int_equal(parse(&p, &r, why), -1);
	assert_non_null(strstr(why, "unknown type 99"));
	/* a TestSet whose octet string runs past the end */
	header(&p, AX_PDU_TESTSET, 0, true);
	put16(&p, AX_OCTET_STRING);
	put16(&p, 0);
	oid(&p, start, 11, false);
	put32(&p, 1000);
	assert_int_equal(parse(&p, &r, why), -1);
	assert_non_null(strstr(why, "octet string"));
	/* and a good one: Integer, Counter64, OID values */
	header(&p, AX_PDU_TESTSET, 0, true);
	put16(&p, AX_INTEGER);
	put16(&p, 0);
	oid(&p, start, 11, false);
	put32(&p, 5);
	put16(&p, AX_COUNTER64);
	put16(&p, 0);
	oid(&p, start, 11, false);
	put32(&p, 0);
	put32(&p, 1);
	put16(&p, AX_OBJECT_ID);
	put16(&p, 0);
	oid(&p, start, 11, false);
	oid(&p, end, 11, false);
	assert_int_equal(parse(&p, &r, why), 0);
	assert_int_equal(r.nvarbinds, 3);
	ax_request_free(&r);
}

static void responses_and_close(void **state)
{
	struct pdu p;
	struct ax_header_in h;
	struct ax_response_in resp;
	uint8_t reason;

	header(&p, AX_PDU_RESPONSE, 0, false);
	put32(&p, 4242);
	put16(&p, AX_ERR_NOTOPEN);
	put16(&p, 0);
	finish(&p);
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_PDU);
	assert_int_equal(ax_parse_response(&h, p.b + AX_HEADER_LEN, &resp), 0);
	assert_int_equal(resp.uptime, 4242);
	assert_int_equal(resp.error, AX_ERR_NOTOPEN);
	h.length = 4; /* too short for a Response */
	assert_int_equal(ax_parse_response(&h, p.b + AX_HEADER_LEN, &resp), -1);
	header(&p, AX_PDU_CLOSE, 0, true);
	put8(&p, AX_CLOSE_SHUTDOWN);
	put8(&p, 0);
	put8(&p, 0);
	put8(&p, 0);
	finish(&p);
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_PDU);
	assert_int_equal(ax_parse_close(&h, p.b + AX_HEADER_LEN, &reason), 0);
	assert_int_equal(reason, AX_CLOSE_SHUTDOWN);
	h.length = 0;
	assert_int_equal(ax_parse_close(&h, p.b + AX_HEADER_LEN, &reason), -1);
}

/* A Response the encoder wrote, read back varbind by varbind. */
static void varbinds_read_back(void **state)
{
	unsigned char st[512];
	struct ax_buf b;
	static const unsigned long name[] = {1, 3, 6, 1, 4, 1, 8072, 9999,
					     9999, 59, 1, 4, 2, 0};
	struct ax_value c64 = {.type = AX_COUNTER64, .v.u64 = 7};
	struct ax_value str = {.type = AX_OCTET_STRING, .v.str = {"hello", 5}};

	ax_init(&b, st, sizeof(st));
	ax_response(&b, &(struct ax_ids){1, 2, 3}, 5, 0, 0);
	ax_varbind(&b, name, 14, &c64);
	ax_varbind(&b, name, 14, &str);
	ax_exception(&b, name, 14, AX_END_OF_MIB_VIEW);
	assert_int_equal(ax_finish(&b), 0);
	struct ax_header_in h;
	assert_int_equal(ax_frame(b.p, b.len, &h), AX_FRAME_PDU);
	size_t at = 8;
	uint16_t type;
	struct ax_oid o;
	unsigned long sub[AX_OID_MAX + 5];
	char why[160];
	const unsigned char *pl = b.p + AX_HEADER_LEN;
	assert_int_equal(ax_next_varbind(&h, pl, &at, &type, &o, sub, why, 160), 1);
	assert_int_equal(type, AX_COUNTER64);
	assert_int_equal(o.len, 14);
	assert_int_equal(o.sub[6], 8072);
	assert_int_equal(ax_next_varbind(&h, pl, &at, &type, &o, sub, why, 160), 1);
	assert_int_equal(type, AX_OCTET_STRING);
	assert_int_equal(ax_next_varbind(&h, pl, &at, &type, &o, sub, why, 160), 1);
	assert_int_equal(type, AX_END_OF_MIB_VIEW);
	assert_int_equal(ax_next_varbind(&h, pl, &at, &type, &o, sub, why, 160), 0);
	assert_int_equal(at, h.length);
	/* cut inside the octet string's value: refused, with the reason */
	h.length -= 8 + 4 + 4 + 9 * 4 + 4;
	at = 8;
	assert_int_equal(ax_next_varbind(&h, pl, &at, &type, &o, sub, why, 160), 1);
	assert_int_equal(ax_next_varbind(&h, pl, &at, &type, &o, sub, why, 160), -1);
	assert_true(why[0] != '\0');
	ax_free(&b);
}

/* The log's names of RFC 2741 6.1's types, 1 to 18; none for the
 * others. */
static void pdu_names(void **state)
{
	(void)state;
	assert_string_equal(ax_pdu_name(1), "Open");
	assert_string_equal(ax_pdu_name(5), "Get");
	assert_string_equal(ax_pdu_name(8), "TestSet");
	assert_string_equal(ax_pdu_name(17), "RemoveAgentCaps");
	assert_string_equal(ax_pdu_name(18), "Response");
	assert_string_equal(ax_pdu_name(0), "?");
	assert_string_equal(ax_pdu_name(19), "?");
	assert_string_equal(ax_pdu_name(255), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(framing),
	    cmocka_unit_test(getnext_both_orders),
	    cmocka_unit_test(getbulk_and_context),
	    cmocka_unit_test(bad_payloads),
	    cmocka_unit_test(responses_and_close),
	    cmocka_unit_test(varbinds_read_back),
	    cmocka_unit_test(pdu_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
