/* test_agentx_encode.c - every PDU the subagent sends, byte for byte
 * against RFC 2741 (6.1 header, 6.2.1 Open, 6.2.2 Close, 6.2.3 Register,
 * 6.2.10 Notify, 6.2.13 Ping, 6.2.14 AddAgentCaps, 6.2.16 Response, 5.1
 * OIDs, 5.3 octet strings, 5.4 varbinds), in network byte order. */
#include "testenv.h"

#include <string.h>

#include "agentx/agentx_encode.h"

static const unsigned long cell[] = {1,	   3,  6, 1, 4, 1, 8072, 9999,
				     9999, 59, 1, 2, 1, 3, 5};
#define CELL_LEN (sizeof(cell) / sizeof(cell[0]))

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void header_and_counter64(void **state)
{
	unsigned char st[512];
	struct ax_buf b;
	struct ax_value v = {.type = AX_COUNTER64,
			      .v.u64 = UINT64_C(0x0102030405060708)};

	ax_init(&b, st, sizeof(st));
	ax_response(&b, &(struct ax_ids){7, 0x11223344, 0xa0b0c0d0}, 123456, 0, 0);
	ax_varbind(&b, cell, CELL_LEN, &v);
	assert_int_equal(ax_finish(&b), 0);
	const unsigned char *p = b.p;
	/* header: version 1, Response (18), NETWORK_BYTE_ORDER, IDs */
	assert_int_equal(p[0], 1);
	assert_int_equal(p[1], 18);
	assert_int_equal(p[2], 0x10);
	assert_int_equal(p[3], 0);
	assert_int_equal(get32(p + 4), 7);
	assert_int_equal(get32(p + 8), 0x11223344);
	assert_int_equal(get32(p + 12), 0xa0b0c0d0);
	/* payload: sysUpTime, error, index, then one varbind of
	 * 4 (type) + 4 (OID header) + 10 * 4 (sub-ids) + 8 (value) */
	size_t payload = 8 + 4 + 4 + 10 * 4 + 8;
	assert_int_equal(get32(p + 16), payload);
	assert_int_equal(b.len, 20 + payload);
	assert_int_equal(get32(p + 20), 123456);
	assert_int_equal(get16(p + 24), 0);
	assert_int_equal(get16(p + 26), 0);
	p += 28;
	assert_int_equal(get16(p), 70); /* Counter64 */
	assert_int_equal(get16(p + 2), 0);
	/* OID: 10 sub-ids after the prefix 1.3.6.1.4, include 0 */
	assert_int_equal(p[4], 10);
	assert_int_equal(p[5], 4);
	assert_int_equal(p[6], 0);
	assert_int_equal(p[7], 0);
	assert_int_equal(get32(p + 8), 1);
	assert_int_equal(get32(p + 12), 8072);
	assert_int_equal(get32(p + 44), 5);
	assert_int_equal(get32(p + 48), 0x01020304);
	assert_int_equal(get32(p + 52), 0x05060708);
	assert_false(b.heap);
	ax_free(&b);
}

static void scalars_strings_and_exceptions(void **state)
{
	unsigned char st[512];
	struct ax_buf b;
	const unsigned long other[] = {1, 3, 6, 2, 7}; /* no prefix form */
	struct ax_value i = {.type = AX_INTEGER, .v.i32 = -1};
	struct ax_value g = {.type = AX_GAUGE32, .v.u32 = 42};
	struct ax_value t = {.type = AX_TIMETICKS, .v.u32 = 99};
	struct ax_value c = {.type = AX_COUNTER32, .v.u32 = 3};
	struct ax_value s = {.type = AX_OCTET_STRING,
			      .v.str = {.ptr = "3.4x5", .len = 5}};

	ax_init(&b, st, sizeof(st));
	ax_response(&b, &(struct ax_ids){1, 2, 3}, 4, 17, 2);
	ax_varbind(&b, other, 5, &i);
	ax_varbind(&b, other, 5, &g);
	ax_varbind(&b, other, 5, &t);
	ax_varbind(&b, other, 5, &c);
	ax_varbind(&b, other, 5, &s);
	ax_exception(&b, cell, CELL_LEN, AX_END_OF_MIB_VIEW);
	assert_int_equal(ax_finish(&b), 0);
	const unsigned char *p = b.p + 24;
	assert_int_equal(get16(p), 17); /* error status and index */
	assert_int_equal(get16(p + 2), 2);
	p += 4;
	/* each scalar: type, OID (5 sub-ids, prefix 0), 4-byte value */
	const uint16_t types[] = {2, 66, 67, 65};
	const uint32_t values[] = {0xffffffffu, 42, 99, 3};
	for (int k = 0; k < 4; k++, p += 4 + 4 + 20 + 4) {
		assert_int_equal(get16(p), types[k]);
		assert_int_equal(p[4], 5);
		assert_int_equal(p[5], 0);
		assert_int_equal(get32(p + 8 + 12), 2);
		assert_int_equal(get32(p + 28), values[k]);
	}
	/* OctetString: length 5, octets, 3 bytes of padding */
	assert_int_equal(get16(p), 4);
	assert_int_equal(get32(p + 28), 5);
	assert_memory_equal(p + 32, "3.4x5\0\0\0", 8);
	p += 40;
	/* endOfMibView: type 130, the name, no value */
	assert_int_equal(get16(p), 130);
	assert_int_equal(p[4], 10);
	p += 8 + 40;
	assert_int_equal(p - b.p, b.len);
	assert_int_equal(get32(b.p + 16), b.len - 20);
	ax_free(&b);
}

/* A GetBulk answer outgrows the stack buffer: the same bytes, on the
 * heap. */
static void grows_onto_the_heap(void **state)
{
	unsigned char small[40], big[65536];
	struct ax_buf a, b;
	struct ax_value v = {.type = AX_COUNTER64};

	ax_init(&a, small, sizeof(small));
	ax_init(&b, big, sizeof(big));
	ax_response(&a, &(struct ax_ids){1, 2, 3}, 4, 0, 0);
	ax_response(&b, &(struct ax_ids){1, 2, 3}, 4, 0, 0);
	for (int k = 0; k < 500; k++) {
		v.v.u64 = (uint64_t)k * 1000003;
		ax_varbind(&a, cell, CELL_LEN, &v);
		ax_varbind(&b, cell, CELL_LEN, &v);
	}
	assert_int_equal(ax_finish(&a), 0);
	assert_int_equal(ax_finish(&b), 0);
	assert_true(a.heap);
	assert_false(b.heap);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.p, b.p, a.len);
	ax_free(&a);
	ax_free(&b);
	/* freed: no pointer left to the heap copy or to the caller's
	 * storage, and a second free is harmless */
	assert_null(a.p);
	assert_null(b.p);
	assert_false(a.heap);
	ax_free(&a);
}

/* A value of a type the codec has no writer for (an OID, NULL, an
 * exception's type) drops the PDU rather than send a varbind of the
 * wrong length; each type it writes is accepted. */
static void value_type_refused(void **state)
{
	static const enum ax_data_type refused[] = {
	    AX_NULL, AX_OBJECT_ID, AX_IPADDRESS, AX_OPAQUE, AX_NO_SUCH_OBJECT,
	    AX_END_OF_MIB_VIEW, 0, 71};
	static const enum ax_data_type written[] = {
	    AX_INTEGER,	  AX_OCTET_STRING, AX_COUNTER32,
	    AX_GAUGE32,	  AX_TIMETICKS,	   AX_COUNTER64};
	unsigned char st[512];
	struct ax_buf b;

	(void)state;
	for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
		struct ax_value v = {.type = refused[k]};
		ax_init(&b, st, sizeof(st));
		ax_response(&b, &(struct ax_ids){1, 2, 3}, 4, 0, 0);
		ax_varbind(&b, cell, CELL_LEN, &v);
		assert_int_equal(b.len, 28);
		assert_int_equal(ax_finish(&b), -1);
		ax_free(&b);
	}
	for (size_t k = 0; k < sizeof(written) / sizeof(written[0]); k++) {
		struct ax_value v = {.type = written[k]};
		ax_init(&b, st, sizeof(st));
		ax_response(&b, &(struct ax_ids){1, 2, 3}, 4, 0, 0);
		ax_varbind(&b, cell, CELL_LEN, &v);
		assert_int_equal(ax_finish(&b), 0);
		assert_int_equal(get16(b.p + 28), written[k]);
		ax_free(&b);
	}
}

/* n_subid is one octet: a longer name cannot be sent, the PDU is
 * refused (the caller answers genErr instead). */
static void name_too_long(void **state)
{
	unsigned char st[4096];
	struct ax_buf b;
	unsigned long name[300];

	for (int k = 0; k < 300; k++)
		name[k] = 2;
	ax_init(&b, st, sizeof(st));
	ax_response(&b, &(struct ax_ids){1, 2, 3}, 4, 0, 0);
	ax_exception(&b, name, 256, AX_NO_SUCH_OBJECT);
	assert_int_equal(ax_finish(&b), -1);
	ax_free(&b);
	ax_init(&b, st, sizeof(st));
	ax_response(&b, &(struct ax_ids){1, 2, 3}, 4, 0, 0);
	ax_exception(&b, name, 255, AX_NO_SUCH_OBJECT);
	assert_int_equal(ax_finish(&b), 0);
	assert_int_equal(b.len, 28 + 4 + 4 + 255 * 4);
	ax_free(&b);
}

/* A buffer whose bytes are not zero: a field the encoder leaves
 * unwritten shows (a reserved byte, a reason). */
static void fresh(struct ax_buf *b, unsigned char *st, size_t n)
{
	memset(st, 0xa5, n);
	ax_init(b, st, n);
}

static void session_pdus(void **state)
{
	unsigned char st[512];
	struct ax_buf b;
	static const unsigned long id[] = {1, 3, 6, 1, 4, 1, 8072, 9999, 9999,
					   59};
	const struct ax_ids ids = {5, 6, 7};

	/* Open: timeout 4, reserved, the id OID (prefixed), "r10k" */
	fresh(&b, st, sizeof(st));
	ax_open(&b, &ids, 4, id, 10, "r10k");
	assert_int_equal(ax_finish(&b), 0);
	const unsigned char *p = b.p;
	assert_int_equal(p[1], 1);
	assert_int_equal(get32(p + 4), 5);
	assert_int_equal(get32(p + 16), 4 + 4 + 5 * 4 + 4 + 4);
	assert_int_equal(p[20], 4);
	assert_int_equal(p[3], 0); /* the header's reserved byte */
	assert_memory_equal(p + 21, "\0\0\0", 3); /* reserved (RFC 2741 6.2.1) */
	assert_int_equal(p[24], 5); /* n_subid after 1.3.6.1.4 */
	assert_int_equal(p[25], 4); /* prefix */
	assert_int_equal(get32(p + 28), 1);
	assert_int_equal(get32(p + 44), 59);
	assert_int_equal(get32(p + 48), 4); /* the description's length */
	assert_memory_equal(p + 52, "r10k", 4);
	ax_free(&b);

	/* Register: timeout 0, priority 127, no range, the subtree */
	fresh(&b, st, sizeof(st));
	ax_register(&b, &ids, 127, id, 10);
	assert_int_equal(ax_finish(&b), 0);
	p = b.p;
	assert_int_equal(p[1], 3);
	assert_int_equal(get32(p + 16), 4 + 4 + 5 * 4);
	assert_int_equal(p[20], 0);
	assert_int_equal(p[21], 127);
	assert_int_equal(p[22], 0);
	assert_int_equal(p[23], 0); /* reserved (RFC 2741 6.2.3) */
	assert_int_equal(p[24], 5);
	ax_free(&b);

	/* AddAgentCaps: the OID and a description padded to 4 */
	fresh(&b, st, sizeof(st));
	ax_add_agent_caps(&b, &ids, id, 10, "abcde");
	assert_int_equal(ax_finish(&b), 0);
	assert_int_equal(b.p[1], 16);
	assert_int_equal(get32(b.p + 16), 4 + 5 * 4 + 4 + 8);
	assert_int_equal(get32(b.p + 44), 5);
	assert_memory_equal(b.p + 48, "abcde\0\0\0", 8);
	ax_free(&b);

	/* Ping: a header alone; Close: the reason */
	fresh(&b, st, sizeof(st));
	ax_ping(&b, &ids);
	assert_int_equal(ax_finish(&b), 0);
	assert_int_equal(b.p[1], 13);
	assert_int_equal(b.len, 20);
	assert_int_equal(get32(b.p + 16), 0);
	ax_free(&b);
	fresh(&b, st, sizeof(st));
	ax_close(&b, &ids, AX_CLOSE_SHUTDOWN);
	assert_int_equal(ax_finish(&b), 0);
	assert_int_equal(b.p[1], 2);
	assert_int_equal(get32(b.p + 16), 4);
	assert_int_equal(b.p[20], 5);
	assert_memory_equal(b.p + 21, "\0\0\0", 3); /* reserved (6.2.2) */
	ax_free(&b);

	/* Notify: sysUpTime.0 as TimeTicks, snmpTrapOID.0 as an OID */
	static const unsigned long uptime0[] = {1, 3, 6, 1, 2, 1, 1, 3, 0};
	static const unsigned long trapoid0[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};
	static const unsigned long trap[] = {1, 3, 6, 1, 4, 1, 8072, 9999,
					     9999, 59, 0, 1};
	fresh(&b, st, sizeof(st));
	ax_notify(&b, &ids);
	ax_varbind_timeticks(&b, uptime0, 9, 1234);
	ax_varbind_oid(&b, trapoid0, 11, trap, 12);
	assert_int_equal(ax_finish(&b), 0);
	p = b.p;
	assert_int_equal(p[1], 12);
	assert_int_equal(get16(p + 20), 67); /* TimeTicks */
	assert_int_equal(p[24], 4);	     /* 1.3.6.1.2: 1.1.3.0 */
	assert_int_equal(p[25], 2);
	assert_int_equal(get32(p + 28 + 12), 0);
	assert_int_equal(get32(p + 44), 1234);
	assert_int_equal(get16(p + 48), 6); /* OBJECT IDENTIFIER */
	assert_int_equal(p[52], 6);	    /* 1.3.6.1.6: 3.1.1.4.1.0 */
	assert_int_equal(p[53], 6);
	assert_int_equal(p[52 + 4 + 24], 7); /* the value: 7 after 1.3.6.1.4 */
	assert_int_equal(p[52 + 4 + 24 + 1], 4);
	assert_int_equal(b.len, 20 + get32(p + 16));
	ax_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(session_pdus),
	    cmocka_unit_test(header_and_counter64),
	    cmocka_unit_test(scalars_strings_and_exceptions),
	    cmocka_unit_test(grows_onto_the_heap),
	    cmocka_unit_test(name_too_long),
	    cmocka_unit_test(value_type_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
