/*
 * test_replay_groups.c - a replay file's group lines (doc/replay-format.md):
 * CPU groups of the whole recording, each bad line named with file and
 * line and skipped, the sample lines read as without them.
 */
#include "testenv.h"

#include <unistd.h>

#include "backend/backend.h"
#include "testconf.h"
#include "logcapture.h"

static char path[64];

static int open_replay(struct backend *b, const char *text, char *err)
{
	struct config cfg;
	tmp_file_with(path, sizeof(path), "hwr-replay", text, strlen(text));
	conf_init(&cfg, "replay");
	CONF(&cfg, "replayFile", "%s", path);
	log_capture_start();
	int rc = backend_open(b, &cfg, err, 256);
	config_free(&cfg);
	unlink(path);
	return rc;
}

static void group_lines(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256], want[128];
	assert_int_equal(
	    open_replay(&b,
			"# two nodes\n"
			"group node0 0-1\n"
			"1 0 hw.r10kevctr.cycles 10\n"
			"1 1 hw.r10kevctr.cycles 20\n"
			"1 2 hw.r10kevctr.cycles 30\n"
			"group node1 2,3\n"   /* anywhere: the whole file's */
			"group node0 4\n"     /* 7: twice */
			"group x 1,5\n"	      /* 8: overlap */
			"group y 7-5\n"	      /* 9: list */
			"group z\n"	      /* 10: fields */
			"group a/b 9\n"	      /* 11: name */
			"2 0 hw.r10kevctr.cycles 15\n",
			err),
	    0);
	const char *bad[] = {
	    ":7: group 'node0' named twice; line skipped",
	    ":8: CPU 1 of group 'x' is in group 'node0' already",
	    ":9: group 'y': bad CPU list '7-5'",
	    ":10: expected group NAME CPULIST",
	    ":11: group name 'a/b'",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want), "%s%s", path, bad[i]);
		assert_logged(want);
	}
	assert_logged("2 sample sets, 3 CPUs, 5 bad line(s) skipped");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 5);
	assert_int_equal(s.ncpus, 3);
	assert_non_null(s.groups);
	assert_int_equal(s.groups->n, 2);
	assert_string_equal(s.groups->g[0].text, "0-1");
	assert_string_equal(s.groups->g[1].name, "node1");
	assert_string_equal(s.groups->g[1].text, "2-3");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].value[0], 5); /* from its base */
	backend_close(&b);
	cache_sample_free(&s);
}

/* A file without group lines: no groups, as before. */
static void no_group_lines(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	assert_int_equal(open_replay(&b, "1 0 hw.r10kevctr.cycles 10\n", err),
			 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_true(!s.groups || s.groups->n == 0);
	backend_close(&b);
	cache_sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(group_lines),
	    cmocka_unit_test(no_group_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
