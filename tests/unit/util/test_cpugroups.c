/*
 * test_cpugroups.c - named disjoint CPU groups (util/cpugroups.h): the
 * config's cpuGroup lines refused with their reason, the even split of
 * the nodes, and the names a group may have.
 */
#include "testenv.h"

#include <string.h>

#include "util/cpugroups.h"

/* Bad groups: each refused with its reason. */
static void bad_groups(void **state)
{
	(void)state;
	struct cpu_groups gs = {0};
	char err[300];
	assert_int_equal(util_cpu_groups_add(&gs, "a", "0-3", err, sizeof(err)),
			 0);
	assert_int_equal(util_cpu_groups_add(&gs, "a", "4", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "named twice"));
	assert_int_equal(util_cpu_groups_add(&gs, "b", "3-4", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "CPU 3 of group 'b' is in group 'a'"));
	assert_int_equal(util_cpu_groups_add(&gs, "c", "4-", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "bad CPU list '4-'"));
	assert_int_equal(util_cpu_groups_add(&gs, "d", "5,4", err, sizeof(err)),
			 -1);
	assert_int_equal(util_cpu_groups_add(&gs, "e f", "5", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "group name 'e f'"));
	assert_int_equal(
	    util_cpu_groups_add(&gs, "b", "4-5,8", err, sizeof(err)), 0);
	assert_string_equal(gs.g[1].text, "4-5,8");
	assert_int_equal(util_cpu_groups_find(&gs, 8), 1);
	assert_int_equal(util_cpu_groups_find(&gs, 6), -1);
	util_cpu_groups_free(&gs);
	assert_int_equal(util_cpu_groups_even(&gs, 3, 8), 0);
	assert_int_equal(gs.n, 3);
	assert_string_equal(gs.g[0].text, "0-2");
	assert_string_equal(gs.g[2].text, "6-7");
	assert_string_equal(gs.g[2].name, "node2");
	util_cpu_groups_free(&gs);
}

/* A group name: 1 to 32 of A-Z a-z 0-9 . _ -, each character class at
 * its edges (the name goes into the MIB, a Prometheus label, a Zabbix
 * macro: nothing else passes). */
static void group_names(void **state)
{
	(void)state;
	static const char *const good[] = {
	    "a", "z", "A", "Z", "0", "9", ".", "_", "-", "node.0_a-Z",
	    "abcdefghijklmnopqrstuvwxyz012345"}; /* 32 */
	static const char *const bad[] = {
	    "", "abcdefghijklmnopqrstuvwxyz0123456", /* 33 */
	    "a b", "a/b", "a:b", "`", "{", "@", "[", "/", ":", "\xc3\xa9"};
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		if (!util_cpu_group_name_ok(good[i]))
			fail_msg("'%s' refused", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (util_cpu_group_name_ok(bad[i]))
			fail_msg("'%s' taken", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(bad_groups),
	    cmocka_unit_test(group_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
