/* test_replay.c - the replay backend: parsing, errors, wrap, end of file. */
#include "testenv.h"

#include <unistd.h>

#include "backend.h"
#include "logcapture.h"

static char path[64];

static void write_file(const char *text)
{
	strcpy(path, "/tmp/hwr-replay-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int open_replay(struct backend *b, unsigned width, bool loop, char *err)
{
	struct config cfg;
	config_defaults(&cfg);
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	cfg.replay.file = strdup(path);
	cfg.replay.width = width;
	cfg.replay.loop = loop;
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
		   "2 0 hw.r10kevctr.cycles 5\n"     /* 8: backwards */
		   "0.5 0 hw.r10kevctr.cycles 50\n"  /* 9: time back */
		   "2 0 hw.r10kevctr.state 3\n"	     /* 10: cpu - */
		   "2 - hw.r10kevctr.tlb 3\n"	     /* 11: cpu - */
		   "2 - hw.r10kevctr.state -2\n"     /* 12: state */
		   "2 0 hw.r10kevctr.cycles 12\n");
	assert_int_equal(open_replay(&b, 64, false, err), 0);
	unlink(path);
	const char *want[] = {":3: expected TIME CPU METRIC VALUE",
			      ":4: bad time 'x'",
			      ":5: unknown metric 'hw.r10kevctr.nosuch'",
			      ":6: bad CPU 'zero'",
			      ":7: bad value 'ten'",
			      ":8: value 5 goes backwards",
			      ":9: time 0.5 goes backwards",
			      ":10: CPU must be '-'",
			      ":11: bad CPU '-'",
			      ":12: state '-2'"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_logged(want[i]);
	assert_logged("2 sample sets, 1 CPUs, 10 bad line(s) skipped");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 10); /* counted once, in the first poll */
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 0);
	assert_int_equal(s.cpus[0].value[C("hw.r10kevctr.cycles")], 2);
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
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].cpu, 5);
	assert_int_equal(s.cpus[0].value[t], 2);
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
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].value[0], 10);
	assert_int_equal(s.state, 7);
	assert_int_equal(backend_read(&b, &s), 0); /* loops: new epoch */
	assert_true(s.cpus[0].epoch != epoch);
	assert_int_equal(s.cpus[0].value[0], 0);
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
	config_defaults(&cfg);
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	assert_int_equal(config_validate(&cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "backend replay needs replayFile"));
	config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parse_errors),
	    cmocka_unit_test(wrap_and_hold),
	    cmocka_unit_test(width_48_and_loop),
	    cmocka_unit_test(unusable_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
