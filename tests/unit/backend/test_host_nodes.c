/*
 * test_host_nodes.c - the NUMA nodes as CPU groups, read from a stand-in
 * sysfs tree (host_info.c): nodes in the order of their numbers, memory
 * only nodes left out, no node directory no groups, bad lists named.
 */
#include "testenv.h"

#include <sys/stat.h>

#include "backend/host_info.h"

static char sysfs[64];

/* node N with cpulist text (NULL: a node directory without cpulist) */
static void node(unsigned n, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/devices/system/node/node%u", sysfs, n);
	assert_int_equal(mkdir(path, 0755), 0);
	if (!text)
		return;
	strcat(path, "/cpulist");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[256];
	strcpy(sysfs, "/tmp/hwr-nodes-XXXXXX");
	assert_non_null(mkdtemp(sysfs));
	snprintf(path, sizeof(path), "mkdir -p %s/devices/system/node", sysfs);
	assert_int_equal(system(path), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysfs);
	return system(cmd);
}

static void nodes_in_order(void **state)
{
	struct cpu_groups gs;
	char err[400], other[160];
	node(10, "8-11\n");
	node(0, "0-3\n");
	node(1, "4-7\n");
	node(2, "\n"); /* memory only */
	snprintf(other, sizeof(other), "%s/devices/system/node/possible",
		 sysfs);
	fclose(fopen(other, "w")); /* not a node */
	assert_int_equal(backend_host_nodes(sysfs, &gs, err, sizeof(err)), 0);
	assert_int_equal(gs.n, 3);
	assert_string_equal(gs.g[0].name, "node0");
	assert_string_equal(gs.g[1].text, "4-7");
	assert_string_equal(gs.g[2].name, "node10");
	assert_int_equal(util_cpu_groups_find(&gs, 9), 2);
	util_cpu_groups_free(&gs);
}

static void no_numa_no_groups(void **state)
{
	struct cpu_groups gs;
	char err[400], path[128];
	snprintf(path, sizeof(path), "%s/none", sysfs);
	assert_int_equal(backend_host_nodes(path, &gs, err, sizeof(err)), 0);
	assert_int_equal(gs.n, 0);
}

static void bad_nodes_named(void **state)
{
	struct cpu_groups gs;
	char err[400];
	node(0, "0-3\n");
	node(1, "3-5\n");
	assert_int_equal(backend_host_nodes(sysfs, &gs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node1/cpulist: CPU 3 of group 'node1'"));
	assert_int_equal(gs.n, 0);
	teardown(state);
	setup(state);
	node(0, "0-x\n");
	assert_int_equal(backend_host_nodes(sysfs, &gs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node0/cpulist: cannot read a CPU list"));
	teardown(state);
	setup(state);
	node(0, NULL);
	assert_int_equal(backend_host_nodes(sysfs, &gs, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(nodes_in_order, setup, teardown),
	    cmocka_unit_test_setup_teardown(no_numa_no_groups, setup, teardown),
	    cmocka_unit_test_setup_teardown(bad_nodes_named, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
