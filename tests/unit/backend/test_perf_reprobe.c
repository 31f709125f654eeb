/*
 * test_perf_reprobe.c - the perf backend's re-probe: a child that gave up
 * root counts nothing until CAP_PERFMON is raised, then counts at the
 * next poll, with no restart.
 */
#include "perf_fixture.h"

/* capset(2) without libcap: the effective set of this process. */
static int set_effective(uint64_t caps, uint64_t permitted)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {
	    {(uint32_t)caps, (uint32_t)permitted, 0},
	    {(uint32_t)(caps >> 32), (uint32_t)(permitted >> 32), 0}};
	return (int)syscall(SYS_capset, &h, d);
}

/* In a child that gave up root but kept CAP_PERFMON permitted (not
 * effective): software events are refused (state 0, nothing counted);
 * raising CAP_PERFMON while the backend runs makes the next poll count
 * (the re-probe), with no restart.  Exit status: 0 or the failed step. */
#define PERFMON (UINT64_C(1) << 38) /* CAP_PERFMON, as a capability bit */

/* Become nobody, keeping CAP_PERFMON permitted but not effective (a
 * child's step): 0, else 1 (the ids) or 2 (the capability). */
static int as_nobody_without_perfmon(void)
{
	if (prctl(PR_SET_KEEPCAPS, 1) != 0 || setgroups(0, NULL) != 0 ||
	    setresgid(65534, 65534, 65534) != 0 ||
	    setresuid(65534, 65534, 65534) != 0)
		return 1;
	return set_effective(0, PERFMON) != 0 ? 2 : 0;
}

/* child() in a child process: its exit status 0, else a failed step. */
static void in_child(int (*child)(void), const char *what)
{
	int st;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("%s failed at step %d", what, WEXITSTATUS(st));
}

/* Hardware events only, on a host without a PMU: without CAP_PERFMON
 * nothing may count (state 0); granted, nothing can (state -1, ENOENT):
 * the state changes although no metric counts, and that is said. */
static int reprobe_child_no_pmu(void)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	sw_config(&cfg, true);
	int dropped = as_nobody_without_perfmon();
	if (dropped)
		return 19 + dropped;
	if (backend_open(&b, &cfg, err, sizeof(err)) != 0)
		return 22;
	if (backend_read(&b, &s) != 0 || s.state != 0 || s.counted != 0)
		return 23;
	if (set_effective(PERFMON, PERFMON) != 0)
		return 24;
	if (backend_read(&b, &s) != 0 || s.state != -1 || s.counted != 0)
		return 25;
	if (!strstr(logbuf, "perf: state 0 -> -1: 0 metrics can be counted "
			    "now"))
		return 26;
	backend_close(&b);
	config_free(&cfg);
	cache_sample_free(&s);
	return 0;
}

static int reprobe_child(void)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	sw_config(&cfg, false);
	int dropped = as_nobody_without_perfmon();
	if (dropped)
		return 9 + dropped;
	if (backend_open(&b, &cfg, err, sizeof(err)) != 0)
		return 12;
	if (backend_read(&b, &s) != 0 || s.state != 0 || s.counted != 0)
		return 13;
	if (set_effective(PERFMON, PERFMON) != 0)
		return 14;
	if (backend_read(&b, &s) != 0 || s.state != 3 || s.ncpus == 0 ||
	    !s.cpus[0].counting)
		return 15;
	if (!strstr(logbuf, "perf: state 0 -> 3: 3 metrics can be counted now"))
		return 17; /* the change is logged */
	busy();
	if (backend_read(&b, &s) != 0 ||
	    s.cpus[0].value[C("hw.r10kevctr.cycles")] == 0)
		return 16;
	backend_close(&b);
	config_free(&cfg);
	cache_sample_free(&s);
	return 0;
}

static void reprobe_after_permission(void **state)
{
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);
	char buf[16] = "";
	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = '\0';
		close(fd);
	}
	if (atoi(buf) <= 0) {
		fprintf(stderr,
			"skipped: perf_event_paranoid %s lets anyone "
			"count system-wide\n",
			buf);
		return;
	}
	assert_int_equal(chmod(sysfs, 0755), 0);
	set_online("0");
	log_capture_start();
	in_child(reprobe_child, "re-probe child");
	logbuf[0] = '\0';
	in_child(reprobe_child_no_pmu, "re-probe child (no PMU)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reprobe_after_permission),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
