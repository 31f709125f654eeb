/* test_replay.c - the replay backend: parsing, errors, wrap, end of file. */
#include "testenv.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "testconf.h"
#include "logcapture.h"

static char path[64];

static void write_bytes(const char *text, size_t len)
{
	tmp_file_with(path, sizeof(path), "hwr-replay", text, len);
}

static void write_file(const char *text)
{
	write_bytes(text, strlen(text));
}

static int open_replay(struct backend *b, unsigned width, bool loop, char *err)
{
	struct config cfg;
	conf_init(&cfg, "replay");
	CONF(&cfg, "replayFile", "%s", path);
	CONF(&cfg, "replayCounterWidth", "%u", width);
	CONF(&cfg, "replayLoop", "%s", loop ? "yes" : "no");
	log_capture_start();
	int rc = backend_open(b, &cfg, err, 256);
	config_free(&cfg);
	return rc;
}

static int C(const char *name)
{
	return counter_index_by_name(name);
}

static void parse_errors(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	write_file("# header\n"
		   "1 0 hw.r10kevctr.cycles 10\n"
		   "1 0 hw.r10kevctr.cycles\n"	     /* 3: fields */
		   "x 0 hw.r10kevctr.cycles 10\n"    /* 4: time */
		   "1 0 hw.r10kevctr.nosuch 10\n"    /* 5: metric */
		   "1 zero hw.r10kevctr.cycles 10\n" /* 6: cpu */
		   "1 0 hw.r10kevctr.cycles ten\n"   /* 7: value */
		   "2 0 hw.r10kevctr.cycles 5\n"     /* 8: a reset */
		   "0.5 0 hw.r10kevctr.cycles 50\n"  /* 9: time back */
		   "2 0 hw.r10kevctr.state 3\n"	     /* 10: cpu - */
		   "2 - hw.r10kevctr.cycles 3\n"     /* 11: mixed */
		   "2 - hw.r10kevctr.state -2\n"     /* 12: state */
		   "2 0 hw.r10kevctr.cycles 12\n");
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	const char *want[] = {":3: expected TIME CPU METRIC VALUE",
			      ":4: bad time 'x'",
			      ":5: unknown metric 'hw.r10kevctr.nosuch'",
			      ":6: bad CPU 'zero'",
			      ":7: bad value 'ten'",
			      ":8: hw.r10kevctr.cycles of CPU 0 goes backwards "
			      "(10 to 5): a restart from zero",
			      ":9: time 0.5 goes backwards",
			      ":10: CPU must be '-'",
			      ":11: hw.r10kevctr.cycles has per-CPU lines (the "
			      "first at line 2)",
			      ":12: state '-2'"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_logged(want[i]);
	assert_logged("2 sample sets, 1 CPUs, 9 bad line(s) skipped, 1 "
		      "reset(s)");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 9); /* counted once, in the first poll */
	assert_int_equal(s.cpus[0].reset, 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 0);
	/* 10, then 5 (a restart: +5), then 12 (+7) */
	assert_int_equal(s.cpus[0].value[C("hw.r10kevctr.cycles")], 12);
	assert_int_equal(s.cpus[0].reset, COUNTER_BIT(C("hw.r10kevctr.cycles")));
	backend_close(&b);
	sample_free(&s);
}

static void wrap_and_hold(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	write_file("0 - hw.r10kevctr.cpurev 2.6\n"
		   "0 3 hw.r10kevctr.tlb 4294967290\n"
		   "0 5 hw.r10kevctr.tlb 1\n"
		   "1 3 hw.r10kevctr.tlb 4\n"	/* +10 modulo 2^32 */
		   "2 5 hw.r10kevctr.tlb 3\n"); /* CPU 3 not in this set */
	assert_int_equal(open_replay(&b, 32, false, err), 0);
	unlink(path);
	int t = C("hw.r10kevctr.tlb");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(s.cpus[0].value[t], 0); /* first value = base */
	assert_string_equal(s.cpurev, "2.6");
	assert_int_equal(s.state, 1); /* no state lines: counters counted */
	assert_int_equal(s.counted, COUNTER_BIT(t));
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.cpus[0].cpu, 3);
	assert_int_equal(s.cpus[0].value[t], 10);
	/* enabled and running: the time since the recording's first set */
	assert_int_equal(s.cpus[0].time_enabled, 1000000000);
	assert_int_equal(s.cpus[0].time_running, 1000000000);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].cpu, 5);
	assert_int_equal(s.cpus[0].value[t], 2);
	assert_int_equal(s.cpus[0].time_enabled, 2000000000);
	uint32_t epoch = s.cpus[0].epoch;
	assert_int_equal(backend_read(&b, &s), 0); /* end: hold */
	assert_int_equal(s.cpus[0].value[t], 2);
	assert_int_equal(s.cpus[0].epoch, epoch);
	assert_logged("end reached after 3 sets; holding the last values");
	backend_close(&b);
	sample_free(&s);
}

static void width_48_and_loop(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	write_file("0 0 hw.r10kevctr.cycles 281474976710650\n"
		   "1 0 hw.r10kevctr.cycles 4\n"
		   "1 - hw.r10kevctr.state 7\n");
	assert_int_equal(open_replay(&b, 48, true, err), 0);
	unlink(path);
	assert_int_equal(backend_read(&b, &s), 0);
	uint32_t epoch = s.cpus[0].epoch;
	assert_int_equal(s.cpus[0].time_enabled, 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].value[0], 10);
	assert_int_equal(s.cpus[0].time_enabled, 1000000000);
	assert_int_equal(s.state, 7);
	assert_int_equal(backend_read(&b, &s), 0); /* loops: new epoch */
	assert_true(s.cpus[0].epoch != epoch);
	assert_int_equal(s.cpus[0].value[0], 0);
	/* the new epoch's times start again from its first set */
	assert_int_equal(s.cpus[0].time_enabled, 0);
	assert_logged("end reached, starting again");
	backend_close(&b);
	sample_free(&s);
}

static void unusable_files(void **state)
{
	struct backend b = {0};
	char err[256];
	strcpy(path, "/nonexistent/x.replay");
	assert_int_equal(open_replay(&b, 64, false, err), -1);
	assert_non_null(strstr(err, "/nonexistent/x.replay: No such file"));
	write_file("# nothing\n1 0 hw.r10kevctr.nosuch 1\n");
	assert_int_equal(open_replay(&b, 64, false, err), -1);
	unlink(path);
	assert_non_null(strstr(err, "no valid sample lines"));
	struct config cfg;
	conf_init(&cfg, "replay");
	assert_int_equal(config_validate(&cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "backend replay needs replayFile"));
	config_free(&cfg);
}

/* TIME is strict decimal seconds, kept exactly in nanoseconds. */
static void strict_times(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	write_file("0x10 0 hw.r10kevctr.cycles 1\n"	       /* 1: hex */
		   "1e3 0 hw.r10kevctr.cycles 1\n"	       /* 2: exponent */
		   "1e300 0 hw.r10kevctr.cycles 1\n"	       /* 3: huge */
		   "10000000001 0 hw.r10kevctr.cycles 1\n"     /* 4: > max */
		   "1.0000000001 0 hw.r10kevctr.cycles 1\n"    /* 5: 10 dec. */
		   "+1 0 hw.r10kevctr.cycles 1\n"	       /* 6: sign */
		   "1. 0 hw.r10kevctr.cycles 1\n"	       /* 7: no dec. */
		   "inf 0 hw.r10kevctr.cycles 1\n"	       /* 8: inf */
		   "0.000000001 0 hw.r10kevctr.cycles 1\n"     /* 9: ok */
		   "0.000000002 0 hw.r10kevctr.cycles 3\n"     /* 10: ok */
		   "10000000000.5 0 hw.r10kevctr.cycles 7\n"); /* 11: ok */
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	for (int line = 1; line <= 8; line++) {
		char want[32];
		snprintf(want, sizeof(want), ":%d: bad time", line);
		assert_logged(want);
	}
	assert_logged("3 sample sets, 1 CPUs, 8 bad line(s) skipped");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.time_ns, 1);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.time_ns, 2);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.time_ns, UINT64_C(10000000000500000000));
	assert_int_equal(s.cpus[0].value[C("hw.r10kevctr.cycles")], 6);
	backend_close(&b);
	sample_free(&s);
}

/* A NUL byte is a bad line, never a silently shortened one; a file with
 * only a state line serves no CPU (and sorts an empty sample). */
static void nul_and_state_only(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	static const char text[] = "1 0 hw.r10kevctr.cycles 5\0junk\n"
				   "1 - hw.r10kevctr.state 7\n";
	write_bytes(text, sizeof(text) - 1);
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	assert_logged(":1: NUL byte in the line");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.ncpus, 0);
	assert_int_equal(s.state, 7);
	assert_int_equal(sample_sort(&s), 0);
	backend_close(&b);
	sample_free(&s);
}

/* A FIFO or a directory is refused at once, never read (or waited on). */
static void not_regular(void **state)
{
	struct backend b = {0};
	char err[256];
	strcpy(path, "/tmp/hwr-replay-fifo-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(open_replay(&b, 64, false, err), -1);
	unlink(path);
	assert_non_null(strstr(err, "not a regular file"));
	strcpy(path, "/tmp");
	assert_int_equal(open_replay(&b, 64, false, err), -1);
	assert_non_null(strstr(err, "/tmp: not a regular file"));
}

/* 65,536 CPUs in one set load in linear time (arrays grow geometrically). */
static void many_cpus(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	size_t cap = 65536 * 40, used = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (unsigned cpu = 0; cpu < 65536; cpu++)
		used +=
		    (size_t)snprintf(text + used, cap - used,
				     "1 %u hw.r10kevctr.tlb %u\n", cpu, cpu);
	write_bytes(text, used);
	free(text);
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.ncpus, 65536);
	backend_close(&b);
	sample_free(&s);
}

/* A long load calls progress() every 4096 lines (the agent serves its
 * master meanwhile), and a stop request ends it. */
static unsigned progress_calls;
static volatile sig_atomic_t stop;
static void progress(void)
{
	if (++progress_calls == 2)
		stop = 1; /* a SIGTERM arrives during the second step */
}

static void cancelled_load(void **state)
{
	struct backend b = {.cancel = &stop, .progress = progress};
	char err[256];
	size_t cap = 10000 * 32, used = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (unsigned t = 0; t < 10000; t++)
		used += (size_t)snprintf(text + used, cap - used,
					 "%u 0 hw.r10kevctr.tlb %u\n", t, t);
	write_bytes(text, used);
	free(text);
	assert_int_equal(open_replay(&b, 64, false, err), -1);
	unlink(path);
	assert_non_null(strstr(err, "loading stopped at line 8192"));
	assert_int_equal(progress_calls, 2);
}

/* A line longer than REPLAY_LINE_MAX (5 MiB of NULs, as a sparse file
 * gives) is one bad line, never stored; its reading yields to the agent
 * every MiB; the lines around it load. */
static unsigned steps;
static void count_step(void)
{
	steps++;
}

static void long_line_not_stored(void **state)
{
	struct backend b = {.progress = count_step};
	struct sample s = {0};
	char err[256];
	size_t big = 5u << 20, n = 0;
	char *text = calloc(1, big + 64);
	assert_non_null(text);
	n += (size_t)sprintf(text, "0 0 hw.r10kevctr.tlb 1\n");
	n += big; /* NULs */
	text[n++] = '\n';
	n += (size_t)sprintf(text + n, "1 0 hw.r10kevctr.tlb 5\n");
	write_bytes(text, n);
	free(text);
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	assert_logged(":2: line of 5242880 bytes (at most 1024); line skipped");
	assert_logged("2 sample sets, 1 CPUs, 1 bad line(s) skipped");
	assert_true(steps >= 5);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].value[C("hw.r10kevctr.tlb")], 4);
	backend_close(&b);
	sample_free(&s);
}

/* Bad lines: the first 20 logged, then one line that says the rest are
 * only counted; the summary has the total. */
static void bad_lines_log_capped(void **state)
{
	struct backend b = {0};
	char err[256];
	size_t cap = 1000 * 16 + 64, used = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (unsigned i = 0; i < 1000; i++)
		used += (size_t)snprintf(text + used, cap - used, "bad %u\n", i);
	used += (size_t)snprintf(text + used, cap - used,
				 "0 0 hw.r10kevctr.tlb 1\n");
	write_bytes(text, used);
	free(text);
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	unsigned lines = 0;
	for (const char *p = logbuf; (p = strstr(p, "line skipped")); p++)
		lines++;
	assert_int_equal(lines, 21);
	assert_logged(":21: expected TIME CPU METRIC VALUE; line skipped; "
		      "further bad lines are counted, not logged");
	assert_logged("1 sample sets, 1 CPUs, 1000 bad line(s) skipped");
	backend_close(&b);
}

/* A reload keeps the open backend only for the same, unchanged file and
 * the same settings; the poll interval may change. */
static void keep_on_reload(void **state)
{
	struct backend b = {0};
	struct config cfg, run; /* the next config, the one opened */
	char err[256];
	write_file("1 0 hw.r10kevctr.tlb 1\n2 0 hw.r10kevctr.tlb 2\n");
	conf_init(&run, "replay");
	CONF(&run, "replayFile", "%s", path);
	CONF(&run, "replayCounterWidth", "64");
	CONF(&run, "replayLoop", "no");
	log_capture_start();
	assert_int_equal(backend_open(&b, &run, err, sizeof(err)), 0);
	conf_init(&cfg, "replay");
	CONF(&cfg, "replayFile", "%s", path);
	cfg.poll_interval = 17;
	assert_true(backend_keep(&b, &run, &cfg));
	CONF(&cfg, "replayLoop", "yes");
	assert_false(backend_keep(&b, &run, &cfg));
	CONF(&cfg, "replayLoop", "no");
	snprintf(cfg.backend, sizeof(cfg.backend), "sim");
	assert_false(backend_keep(&b, &run, &cfg));
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	FILE *f = fopen(path, "a"); /* the recording changed */
	assert_non_null(f);
	fputs("3 0 hw.r10kevctr.tlb 3\n", f);
	fclose(f);
	assert_false(backend_keep(&b, &run, &cfg));
	unlink(path);
	assert_false(backend_keep(&b, &run, &cfg)); /* gone */
	config_free(&cfg);
	config_free(&run);
	backend_close(&b);
}

/* PCP's shape: CPU '-' counter lines feed the sum only (no per-CPU
 * instance), and a metric cannot be both; the PMDA's rules: state 0
 * serves no counter, vcc and fucomp follow the recorded cpurev. */
static void system_wide_and_pmda_rules(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	int tlb = C("hw.r10kevctr.tlb"), cyc = C("hw.r10kevctr.cycles");
	int vcc = C("hw.r10kevctr.vcc"), fucomp = C("hw.r10kevctr.fucomp");

	write_file("0 - hw.r10kevctr.tlb 100\n"
		   "0 0 hw.r10kevctr.cycles 5\n"
		   "1 - hw.r10kevctr.tlb 150\n"
		   "1 0 hw.r10kevctr.cycles 9\n"
		   "1 0 hw.r10kevctr.tlb 3\n"); /* 5: mixed */
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	assert_logged(":5: hw.r10kevctr.tlb has system-wide lines (the first "
		      "at line 1)");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.counted, COUNTER_BIT(tlb) | COUNTER_BIT(cyc));
	assert_int_equal(s.system_wide, COUNTER_BIT(tlb));
	assert_int_equal(s.total[tlb], 50);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.cpus[0].value[cyc], 4);
	backend_close(&b);

	write_file("0 - hw.r10kevctr.state 0\n0 0 hw.r10kevctr.cycles 1\n");
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.state, 0);
	assert_int_equal(s.counted, 0); /* disabled counters: no instance */
	backend_close(&b);

	for (int rev = 0; rev < 2; rev++) {
		char text[256];
		snprintf(text, sizeof(text),
			 "0 - hw.r10kevctr.cpurev %s\n"
			 "0 0 hw.r10kevctr.vcc 1\n0 0 hw.r10kevctr.fucomp 1\n",
			 rev ? "3.1" : "2.6");
		write_file(text);
		assert_int_equal(open_replay(&b, 64, false, err), 0);
		unlink(path);
		assert_int_equal(backend_read(&b, &s), 0);
		assert_int_equal(s.counted,
				 COUNTER_BIT(rev ? fucomp : vcc)); /* 301 */
		backend_close(&b);
	}
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parse_errors),
	    cmocka_unit_test(system_wide_and_pmda_rules),
	    cmocka_unit_test(wrap_and_hold),
	    cmocka_unit_test(width_48_and_loop),
	    cmocka_unit_test(unusable_files),
	    cmocka_unit_test(strict_times),
	    cmocka_unit_test(nul_and_state_only),
	    cmocka_unit_test(not_regular),
	    cmocka_unit_test(many_cpus),
	    cmocka_unit_test(cancelled_load),
	    cmocka_unit_test(long_line_not_stored),
	    cmocka_unit_test(bad_lines_log_capped),
	    cmocka_unit_test(keep_on_reload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
