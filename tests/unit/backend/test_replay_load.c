/* test_replay_load.c - the replay backend's loading of a file: unusable
 * and irregular files, 65,536 CPUs, a cancelled load, a line too long,
 * the bad lines' log capped, the backend kept on a reload. */
#include "replay_fixture.h"

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
	cache_sample_free(&s);
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
	cache_sample_free(&s);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(unusable_files),
	    cmocka_unit_test(not_regular),
	    cmocka_unit_test(many_cpus),
	    cmocka_unit_test(cancelled_load),
	    cmocka_unit_test(long_line_not_stored),
	    cmocka_unit_test(bad_lines_log_capped),
	    cmocka_unit_test(keep_on_reload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
