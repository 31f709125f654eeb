/*
 * test_pcp_nodes.c - the pcp backend's CPU groups from
 * hinv.map.cpu_node, in an archive written here with libpcp_import: one
 * group per node, the archive's records served from the first all the
 * same; an archive without the metric has no groups.
 */
#include "testenv.h"

#include "backend/backend.h"
#include "logcapture.h"
#include "pcparchive.h"
#include "testconf.h"

static void write_archive(bool nodes)
{
	pmUnits count = pmiUnits(0, 0, 1, 0, 0, PM_COUNT_ONE);
	pmUnits none = pmiUnits(0, 0, 0, 0, 0, 0);
	const char *cpu[] = {"cpu0", "cpu1", "cpu2", "cpu3"};
	const char *node[] = {"1", "0", "1", "0"};

	start_archive("hwr-pcpn");
	assert_int_equal(pmiAddMetric("hw.r10kevctr.cycles", pmiID(1, 35, 0),
				      PM_TYPE_U64, pmiInDom(1, 35),
				      PM_SEM_COUNTER, count),
			 0);
	if (nodes)
		assert_int_equal(pmiAddMetric("hinv.map.cpu_node",
					      pmiID(60, 18, 6), PM_TYPE_U32,
					      pmiInDom(1, 35), PM_SEM_DISCRETE,
					      none),
				 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pmiAddInstance(pmiInDom(1, 35), cpu[i], i), 0);
	for (int t = 0; t < 2; t++) {
		for (int i = 0; i < 4; i++) {
			char v[16];
			snprintf(v, sizeof(v), "%d", (t + 1) * 100 * (i + 1));
			assert_int_equal(
			    pmiPutValue("hw.r10kevctr.cycles", cpu[i], v), 0);
			if (nodes && t == 0)
				assert_int_equal(pmiPutValue("hinv.map.cpu_node",
							     cpu[i], node[i]),
						 0);
		}
		assert_int_equal(pmiWrite(1000000000 + t, 0), 0);
	}
	end_archive();
}

static void read_archive(struct backend *b, struct sample *s)
{
	struct config cfg;
	char err[256];
	conf_init(&cfg, "pcp");
	CONF(&cfg, "pcpArchive", "%s", archive);
	log_capture_start();
	assert_int_equal(backend_open(b, &cfg, err, sizeof(err)), 0);
	config_free(&cfg);
	assert_int_equal(backend_read(b, s), 0);
}

static void nodes_from_cpu_node(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	write_archive(true);
	read_archive(&b, &s);
	assert_logged("2 CPU group(s) from hinv.map.cpu_node");
	assert_non_null(s.groups);
	assert_int_equal(s.groups->n, 2);
	assert_string_equal(s.groups->g[0].name, "node0");
	assert_string_equal(s.groups->g[0].text, "1,3");
	assert_string_equal(s.groups->g[1].text, "0,2");
	/* the first record is served first: the base, then its delta */
	assert_int_equal(s.ncpus, 4);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[3].value[0], 400);
	backend_close(&b);
	cache_sample_free(&s);
	remove_archive();
}

static void no_cpu_node_no_groups(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	write_archive(false);
	read_archive(&b, &s);
	assert_true(!s.groups || s.groups->n == 0);
	backend_close(&b);
	cache_sample_free(&s);
	remove_archive();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(nodes_from_cpu_node),
	    cmocka_unit_test(no_cpu_node_no_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
