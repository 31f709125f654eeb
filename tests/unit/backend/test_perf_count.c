/*
 * test_perf_count.c - the perf backend's real code path on this machine:
 * system wide software events per CPU mapped through the config, CPU
 * hotplug through a stand-in sysfs, libpfm4 names, one event a group, no
 * fd leak over 100 open/close cycles, a read failing on one CPU.
 */
#include "perf_fixture.h"

static void counts_software_events(void **state)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	char list[32];

	snprintf(list, sizeof(list), "0-%ld", ncpus() - 1);
	set_online(list);
	sw_config(&cfg, false);
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.ncpus, (size_t)ncpus());
	assert_int_equal(s.state, 3);
	assert_int_equal(s.counted,
			 COUNTER_BIT(C("hw.r10kevctr.cycles")) |
			     COUNTER_BIT(C("hw.r10kevctr.tlb")) |
			     COUNTER_BIT(C("hw.r10kevctr.grad.instrg")));
	uint64_t first = s.cpus[0].value[C("hw.r10kevctr.cycles")];
	busy();
	assert_int_equal(backend_read(&b, &s), 0);
	for (size_t i = 0; i < s.ncpus; i++) {
		assert_true(s.cpus[i].counting);
		assert_true(s.cpus[i].value[C("hw.r10kevctr.cycles")] > 0);
		assert_true(s.cpus[i].time_enabled >= s.cpus[i].time_running);
		assert_true(s.cpus[i].time_running > 0);
	}
	/* cpu-clock counts nanoseconds: at least the 20 ms we slept */
	assert_true(s.cpus[0].value[C("hw.r10kevctr.cycles")] - first >=
		    20000000);
	assert_logged("perf: counting 3 of 31 metrics");
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
}
static void hotplug(void **state)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	if (ncpus() < 2)
		skip();
	set_online("0-1");
	sw_config(&cfg, false);
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	uint32_t epoch = s.cpus[1].epoch;
	set_online("0");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.ncpus, 2);
	assert_true(s.cpus[0].counting);
	assert_false(s.cpus[1].counting);
	assert_logged("perf: CPU 1 went offline; its counters stop");
	set_online("0-1");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_true(s.cpus[1].counting);
	assert_true(s.cpus[1].epoch != epoch);
	assert_logged("perf: CPU 1 counting again");
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
}

/* A metric mapped by a libpfm4 event name is opened for real. */
static void pfm_mapped(void **state)
{
#ifdef HAVE_LIBPFM
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	set_online("0");
	sw_config(&cfg, false);
	CONF(&cfg, "perfEvent",
	     "hw.r10kevctr.cycles pfm:perf::PERF_COUNT_SW_CPU_CLOCK");
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	uint64_t first = s.cpus[0].value[C("hw.r10kevctr.cycles")];
	busy();
	assert_int_equal(backend_read(&b, &s), 0);
	assert_true(s.counted & COUNTER_BIT(C("hw.r10kevctr.cycles")));
	assert_true(s.cpus[0].value[C("hw.r10kevctr.cycles")] > first);
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
#else
	skip();
#endif
}

/* perfGroupSize 1: every event its own group, all read and counted. */
static void group_split(void **state)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	set_online("0");
	sw_config(&cfg, false);
	CONF(&cfg, "perfGroupSize", "1");
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_logged("perf: CPU 0: 4 events in 4 groups");
	assert_int_equal(backend_read(&b, &s), 0);
	uint64_t first = s.cpus[0].value[C("hw.r10kevctr.grad.instrg")];
	busy();
	assert_int_equal(backend_read(&b, &s), 0);
	assert_true(s.cpus[0].counting);
	assert_true(s.cpus[0].value[C("hw.r10kevctr.grad.instrg")] > first);
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
	/* the default packs the three software metrics in one group */
	sw_config(&cfg, false);
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_logged("perf: CPU 0: 4 events in 1 groups");
	backend_close(&b);
	config_free(&cfg);
}

static int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void no_fd_leak(void **state)
{
	struct config cfg;
	struct sample s = {0};
	char err[256];
	char list[32];

	snprintf(list, sizeof(list), "0-%ld", ncpus() - 1);
	set_online(list);
	sw_config(&cfg, false);
	log_capture_start();
	int before = count_fds();
	for (int i = 0; i < 100; i++) {
		struct backend b = {0};
		assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
		assert_int_equal(backend_read(&b, &s), 0);
		backend_close(&b);
	}
	assert_int_equal(count_fds(), before);
	cache_sample_free(&s);
	config_free(&cfg);
}

/* The perf event fds of this process, ascending (lowest free fd first, so
 * each CPU's group follows the previous CPU's). */
static size_t perf_fds(int *out, size_t max)
{
	size_t n = 0;
	for (int fd = 0; fd < 1024 && n < max; fd++) {
		char link[64], target[64];
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (strstr(target, "perf_event"))
			out[n++] = fd;
	}
	return n;
}

/* A read failing on one CPU (its group leader replaced by /dev/null):
 * that CPU stops (logged), the other goes on counting, and the next poll
 * reopens it in a new epoch (a discontinuity for the cache). */
static void read_fails_on_one_cpu(void **state)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	int fds[64];

	if (ncpus() < 2)
		skip();
	set_online("0-1");
	sw_config(&cfg, false);
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	uint32_t epoch = s.cpus[1].epoch;
	uint64_t cpu0 = s.cpus[0].value[C("hw.r10kevctr.cycles")];
	size_t n = perf_fds(fds, 64);
	assert_int_equal(n, 8); /* 4 events on each of 2 CPUs, one group */
	int null = open("/dev/null", O_RDONLY);
	assert_true(null >= 0);
	assert_int_equal(dup2(null, fds[4]), fds[4]); /* CPU 1's leader */
	close(null);
	busy();
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 1);
	assert_true(s.cpus[0].counting);
	assert_true(s.cpus[0].value[C("hw.r10kevctr.cycles")] > cpu0);
	assert_false(s.cpus[1].counting);
	assert_logged("perf: CPU 1: group read failed");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_true(s.cpus[1].counting);
	assert_true(s.cpus[1].epoch != epoch);
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(counts_software_events),
	    cmocka_unit_test(hotplug),
	    cmocka_unit_test(pfm_mapped),
	    cmocka_unit_test(group_split),
	    cmocka_unit_test(no_fd_leak),
	    cmocka_unit_test(read_fails_on_one_cpu),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
