/*
 * test_confload.c - config files read through net-snmp's real config
 * machinery: good files load, bad lines are reported with FILE: line N and
 * make the load fail.
 */
#include "testenv.h"

#include "backend/backend.h"
#include "backend/backend_sim.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "../../agent/agent.h"

static struct confload cl; /* as struct agent holds it */
static char logbuf[8192];

static int capture(int major, int minor, void *server, void *client)
{
	const struct snmp_log_message *m = server;
	strncat(logbuf, m->msg, sizeof(logbuf) - strlen(logbuf) - 1);
	return 0;
}

static const char *write_conf(const char *text)
{
	static char path[64];
	tmp_file_with(path, sizeof(path), "hwr-confload", text, strlen(text));
	return path;
}

static int load(const char *text, struct config *cfg, const char **path)
{
	*path = write_conf(text);
	logbuf[0] = '\0';
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
			      NETSNMP_DS_LIB_OPTIONALCONFIG, *path);
	int bad = agent_confload_reread(&cl, cfg);
	unlink(*path);
	return bad;
}

static int setup(void **state)
{
	/* as the daemon sets the library up (main.c), except that
	 * init_snmp() reads no file: each test's is read by
	 * agent_confload_reread(&cl, ) */
	agent_confload_library_setup();
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			       NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
			       capture, NULL);
	agent_confload_register(&cl);
	init_snmp(AGENT_NAME);
	return 0;
}

static void good_file(void **state)
{
	struct config cfg;
	const char *path;
	assert_int_equal(load("# comment\n\nbackend sim\npollInterval 2\n"
			      "simCpus 3\nsimRate hw.r10kevctr.cycles 100\n"
			      "agentXSocket unix:/tmp/x.sock\n",
			      &cfg, &path),
			 0);
	assert_string_equal(logbuf, "");
	assert_int_equal(cfg.poll_interval, 2);
	const struct sim_settings *sim = config_settings(&cfg, backend_find("sim")->section);
	assert_int_equal(sim->cpus, 3);
	assert_int_equal(backend_sim_rate(sim, 0), 100);
	config_free(&cfg);
}

static void bad_lines_named(void **state)
{
	struct config cfg;
	const char *path;
	char want[256];
	assert_int_equal(
	    load("backend sim\npollInterval 0\n\nsimCpus lots\n", &cfg, &path),
	    2);
	snprintf(want, sizeof(want), "%s: line 2: Error: pollInterval", path);
	if (!strstr(logbuf, want))
		fail_msg("expected '%s' in '%s'", want, logbuf);
	snprintf(want, sizeof(want), "%s: line 4: Error: simCpus", path);
	if (!strstr(logbuf, want))
		fail_msg("expected '%s' in '%s'", want, logbuf);
	config_free(&cfg);
}

/* cpuGroup: a bad list, a name used twice, a CPU in two groups, each a
 * bad line named with its file and line; the good lines' groups kept in
 * order; simNodes' range. */
static void cpu_groups_checked(void **state)
{
	struct config cfg;
	const char *path;
	char want[256];
	static const char *const bad[][2] = {
	    {"line 3", "cpuGroup: group 'b': bad CPU list '4-2'"},
	    {"line 4", "cpuGroup: group 'a' named twice"},
	    {"line 5", "cpuGroup: CPU 3 of group 'c' is in group 'a' already"},
	    {"line 6", "cpuGroup: expected NAME CPULIST"},
	    {"line 7", "cpuGroup: group name 'd/e'"},
	    {"line 8", "simNodes"},
	};
	assert_int_equal(load("backend sim\ncpuGroup a 0-3\ncpuGroup b 4-2\n"
			      "cpuGroup a 8\ncpuGroup c 3,9\ncpuGroup x\n"
			      "cpuGroup d/e 9\nsimNodes 1025\n"
			      "cpuGroup z 8-9,11\n",
			      &cfg, &path),
			 6);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want), "%s: %s: Error: %s", path,
			 bad[i][0], bad[i][1]);
		if (!strstr(logbuf, want))
			fail_msg("expected '%s' in '%s'", want, logbuf);
	}
	config_free(&cfg);
	assert_int_equal(load("backend sim\ncpuGroup a 0-3\n"
			      "cpuGroup z 8-9,11\nsimNodes 2\n",
			      &cfg, &path),
			 0);
	assert_int_equal(cfg.groups.n, 2);
	assert_string_equal(cfg.groups.g[1].name, "z");
	assert_string_equal(cfg.groups.g[1].text, "8-9,11");
	const struct sim_settings *sim =
	    config_settings(&cfg, backend_find("sim")->section);
	assert_int_equal(sim->nodes, 2);
	config_free(&cfg);
}

static void unknown_token_fails(void **state)
{
	struct config cfg;
	const char *path;
	char want[256];
	assert_int_equal(load("backend sim\nfrobnicate 1\n", &cfg, &path), 1);
	snprintf(want, sizeof(want), "%s: line 2:", path);
	if (!strstr(logbuf, want) || !strstr(logbuf, "frobnicate"))
		fail_msg("expected '%s ... frobnicate' in '%s'", want, logbuf);
	config_free(&cfg);
}

/* One problem, one count: the checks across lines (no backend line,
 * replayFile missing, pcpHost with pcpArchive) were counted twice, once
 * as they were logged and once more; a -c file gone is one problem. */
static void one_problem_one_count(void **state)
{
	struct config cfg;
	const char *path;

	assert_int_equal(load("pollInterval 2\n", &cfg, &path), 1);
	assert_non_null(strstr(logbuf, "no 'backend' line"));
	config_free(&cfg);
	assert_int_equal(load("backend replay\n", &cfg, &path), 1);
	assert_non_null(strstr(logbuf, "backend replay needs replayFile"));
	config_free(&cfg);
	if (backend_find("pcp")) {
		assert_int_equal(load("backend pcp\npcpHost localhost\n"
				      "pcpArchive /x\n",
				      &cfg, &path),
				 1);
		assert_non_null(strstr(logbuf, "exclude each other"));
		config_free(&cfg);
	}
	/* two bad lines and no backend: the lines, not a third problem */
	assert_int_equal(load("pollInterval 0\nsimCpus lots\n", &cfg, &path),
			 2);
	assert_null(strstr(logbuf, "no 'backend' line"));
	config_free(&cfg);
	logbuf[0] = '\0';
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
			      NETSNMP_DS_LIB_OPTIONALCONFIG,
			      "/nonexistent/hwr-gone.conf");
	assert_int_equal(agent_confload_reread(&cl, &cfg), 1);
	assert_non_null(strstr(logbuf, "/nonexistent/hwr-gone.conf: cannot "
				       "read the config file"));
	config_free(&cfg);
}

/* The -c list made absolute for after the daemon's chdir("/"): each
 * file by its real path, joined by commas, a file that cannot be
 * resolved as given (its check says why).  The heap is dirtied first,
 * so that a list not ended by its own terminator shows. */
static void absolute_list(void **state)
{
	(void)state;
	char cwd[4096], want[8192];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	const char *a = write_conf("backend sim\n");
	const char *rel = strrchr(a, '/') + 1; /* from its directory */
	char dir[64];
	snprintf(dir, sizeof(dir), "%.*s", (int)(rel - a - 1), a);
	assert_int_equal(chdir(dir), 0);
	for (int i = 0; i < 64; i++) { /* freed blocks full of 'x' */
		size_t n = 8 + (size_t)i * 8;
		char *junk[7]; /* a size's whole free list (glibc's tcache) */
		for (int k = 0; k < 7; k++)
			memset(junk[k] = malloc(n), 'x', n);
		for (int k = 0; k < 7; k++)
			free(junk[k]);
	}
	char list[256];
	snprintf(list, sizeof(list), "%s,no/such.conf", rel);
	char *abs = agent_confload_absolute(list);
	assert_non_null(abs);
	snprintf(want, sizeof(want), "%s,no/such.conf", a);
	assert_string_equal(abs, want);
	free(abs);
	abs = agent_confload_absolute("no/such.conf");
	assert_string_equal(abs, "no/such.conf");
	free(abs);
	assert_int_equal(chdir(cwd), 0);
	unlink(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(good_file),
	    cmocka_unit_test(bad_lines_named),
	    cmocka_unit_test(unknown_token_fails),
	    cmocka_unit_test(cpu_groups_checked),
	    cmocka_unit_test(one_problem_one_count),
	    cmocka_unit_test(absolute_list),
	};
	int rc = cmocka_run_group_tests(tests, setup, NULL);
	snmp_shutdown(AGENT_NAME);
	return rc;
}
