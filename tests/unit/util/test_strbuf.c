/* test_strbuf.c - the growable string (lib/util/strbuf.c): appends that
 * grow it, a string handed over and the buffer empty again, reusable. */
#include "testenv.h"

#include <string.h>

#include "util/strbuf.h"

static void grows_and_hands_over(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	char *s = util_strbuf_take(&sb); /* nothing added: "" */
	assert_string_equal(s, "");
	free(s);
	for (int i = 0; i < 100; i++)
		util_strbuf_addf(&sb, "%d,", i % 10);
	util_strbuf_add(&sb, "end", 3);
	assert_int_equal(sb.len, 203);
	assert_int_equal(strlen(sb.buf), 203);
	s = util_strbuf_take(&sb);
	assert_int_equal(strlen(s), 203);
	assert_memory_equal(s + 200, "end", 4);
	free(s);
	/* taken: empty again, and it grows from nothing as a new one */
	assert_null(sb.buf);
	assert_int_equal(sb.len, 0);
	assert_int_equal(sb.cap, 0);
	util_strbuf_addf(&sb, "%s", "again");
	assert_string_equal(sb.buf, "again");
	util_strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	util_strbuf_add(&sb, "x", 1);
	assert_string_equal(sb.buf, "x");
	util_strbuf_release(&sb);
	assert_null(sb.buf);
	assert_int_equal(sb.len + sb.cap, 0);
	assert_int_equal(sb.oom, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(grows_and_hands_over),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
