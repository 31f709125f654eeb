/* test_dump.c - the one-shot mode prints what the MIB would serve. */
#include "testenv.h"

#include "dump.h"
#include "meta/metrics.h"
#include "testconf.h"

/* dump_run on cfg (freed here): its exit status, what it printed in
 * *out and *err (free both). */
static int dump_of(struct config *cfg, char **out, char **err)
{
	size_t outlen = 0, errlen = 0;
	FILE *o = open_memstream(out, &outlen);
	FILE *e = open_memstream(err, &errlen);
	cfg->poll_interval = 1;
	int rc = dump_run(cfg, NULL, o, e);
	fclose(o);
	fclose(e);
	config_free(cfg);
	return rc;
}

static size_t lines_of(const char *text)
{
	size_t n = 0;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

static void sim_dump(void **state)
{
	struct config cfg;
	char *out, *err;

	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpus", "2");
	assert_int_equal(dump_of(&cfg, &out, &err), 0);
	assert_string_equal(err, "");
	/* the sim counts elapsed time: 0 at the first read, 1 s at the
	 * second; CPU n counts rate * (n + 1) per second; rates over the
	 * interval */
	assert_non_null(strstr(out, "backend sim\ninterval 1\nstate 30\n"
				    "cpurev 3.4\ncpus 2\n"));
	assert_non_null(strstr(out,
			       "hw.r10kevctr.cycles sum 585000000 "
			       "585000000\n"
			       "hw.r10kevctr.cycles 0 195000000 195000000\n"
			       "hw.r10kevctr.cycles 1 390000000 390000000\n"));
	assert_null(strstr(out, "hw.r10kevctr.vcc")); /* not counted on 3.4 */
	/* one line per counted metric (30) and row (sum + 2) */
	assert_int_equal(lines_of(out), 5 + 30 * 3);
	free(out);
	free(err);
}

/* Groups: the config's cpuGroup lines over the sim's nodes, each group a
 * line, and a group:NAME cell per counted metric between the sum and the
 * CPUs: the sum of its CPUs' values and rates. */
static void sim_dump_groups(void **state)
{
	struct config cfg;
	char *out, *err;

	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpus", "3");
	CONF(&cfg, "simNodes", "3");
	CONF(&cfg, "cpuGroup", "a 0");
	CONF(&cfg, "cpuGroup", "b 1-2");
	assert_int_equal(dump_of(&cfg, &out, &err), 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "cpus 3\ngroup a 0\ngroup b 1-2\n"
				    "hw.r10kevctr.cycles sum 1170000000 "
				    "1170000000\n"
				    "hw.r10kevctr.cycles group:a 195000000 "
				    "195000000\n"
				    "hw.r10kevctr.cycles group:b 975000000 "
				    "975000000\n"
				    "hw.r10kevctr.cycles 0 195000000 "
				    "195000000\n"));
	assert_null(strstr(out, "node"));
	assert_int_equal(lines_of(out), 5 + 2 + 30 * (1 + 2 + 3));
	free(out);
	free(err);
}

static void nothing_counted(void **state)
{
	struct config cfg;
	char *out, *err;

	conf_init(&cfg, NULL);
	for (int k = 0; k < COUNTER_COUNT; k++)
		CONF(&cfg, "simRate", "%s off", meta_counters[k].fullname);
	assert_int_equal(dump_of(&cfg, &out, &err), 1);
	assert_non_null(strstr(err, "dump: backend sim counts nothing"));
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sim_dump),
	    cmocka_unit_test(sim_dump_groups),
	    cmocka_unit_test(nothing_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
