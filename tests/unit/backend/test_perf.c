/*
 * test_perf.c - the perf backend's real code path on this machine: system
 * wide software events per CPU mapped through the config, hardware events
 * that fail (no PMU here), CPU hotplug through a stand-in sysfs, and no fd
 * leak over 100 open/close cycles.  Needs the right to open system-wide
 * events (root or CAP_PERFMON); skips otherwise.
 */
#include "testenv.h"

#include <fcntl.h>

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/perf_cpu.h"
#include "backend/perf_hint.h"
#include "testconf.h"
#include "logcapture.h"

static char sysfs[64];

static int C(const char *name)
{
	return counter_index_by_name(name);
}

static void set_online(const char *list)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/devices/system/cpu && echo %s > "
		 "%s/devices/system/cpu/online",
		 sysfs, list, sysfs);
	assert_int_equal(system(cmd), 0);
}

static long ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Software events mapped onto three metrics; everything else off. */
static void sw_config(struct config *cfg, bool only_hardware)
{
	conf_init(cfg, "perf");
	CONF(cfg, "perfSysfs", "%s", sysfs);
	for (int c = 0; c < COUNTER_COUNT; c++)
		CONF(cfg, "perfEvent", "%s %s", counters[c].fullname,
		     only_hardware ? "hardware:cpu-cycles" : "off");
	if (only_hardware)
		return;
	CONF(cfg, "perfEvent", "hw.r10kevctr.cycles software:cpu-clock");
	CONF(cfg, "perfEvent",
	     "hw.r10kevctr.tlb software:page-faults+software:context-switches");
	CONF(cfg, "perfEvent", "hw.r10kevctr.grad.instrg software:task-clock");
}

static int setup(void **state)
{
	struct perf_event_attr attr = {.size = sizeof(attr),
				       .type = PERF_TYPE_SOFTWARE,
				       .config = PERF_COUNT_SW_CPU_CLOCK};
	int fd = (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "SKIP: cannot open system-wide events: %s\n",
			strerror(errno));
		exit(77);
	}
	close(fd);
	strcpy(sysfs, "/tmp/hwr-perf-XXXXXX");
	assert_non_null(mkdtemp(sysfs));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysfs);
	return system(cmd);
}

static void busy(void)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 20000000; i++)
		x += i;
	usleep(20000);
}

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
	sample_free(&s);
	config_free(&cfg);
}

static void no_pmu_state_minus_one(void **state)
{
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	set_online("0");
	sw_config(&cfg, true);
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.state, -1);
	assert_int_equal(s.counted, 0);
	/* the status rows say the truth: the CPU is there, not counting */
	assert_int_equal(s.ncpus, 1);
	assert_false(s.cpus[0].counting);
	assert_logged("no usable performance counters");
	assert_logged("hw.r10kevctr.cycles (hardware:cpu-cycles) cannot count: "
		      "no such event or PMU on this host (ENOENT)");
	backend_close(&b);
	sample_free(&s);
	config_free(&cfg);
}

/* A stand-in msr PMU with the real one's type: tsc (counts on x86) and an
 * event no msr PMU has; false when the host has no msr PMU. */
static bool stand_in_msr(void)
{
	char cmd[512];
	FILE *f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	unsigned type;
	bool ok = f && fscanf(f, "%u", &type) == 1;
	if (f)
		fclose(f);
	if (!ok)
		return false;
	snprintf(cmd, sizeof(cmd),
		 "d=%s/bus/event_source/devices/msr && mkdir -p $d/events && "
		 "echo %u >$d/type && echo event=0x00 >$d/events/tsc && "
		 "echo event=0x7f >$d/events/bogus && echo 1 "
		 ">$d/events/tsc.scale",
		 sysfs, type);
	assert_int_equal(system(cmd), 0);
	return true;
}

/* Nothing configured counts: one message says what counts here and the
 * config lines, and the advice (--dump) says the same. */
static void no_pmu_advice(void **state)
{
	struct config cfg;
	struct backend b = {0};
	char err[256], *text = NULL;
	size_t len = 0;

	set_online("0");
	bool msr = stand_in_msr();
	sw_config(&cfg, true);
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	assert_logged("what counts here: software:cpu-clock, "
		      "software:task-clock, software:page-faults, "
		      "software:context-switches, software:cpu-migrations");
	assert_logged("\"perfEvent hw.r10kevctr.tlb software:page-faults\"");
	assert_logged(msr ? "\"perfEvent hw.r10kevctr.cycles msr:0x00\""
			  : "\"perfEvent hw.r10kevctr.cycles "
			    "software:cpu-clock\"");
	assert_logged("or \"backend pcp\"");
	assert_null(strstr(logbuf, "bogus"));
	FILE *out = open_memstream(&text, &len);
	backend_advise(&b, out);
	fclose(out);
	assert_non_null(strstr(text, "\nperfEvent hw.r10kevctr.tlb "
				     "software:page-faults\n"));
	assert_non_null(strstr(text, "#   software:context-switches "));
	assert_true(!msr || strstr(text, "#   msr:0x00 "));
	assert_non_null(strstr(text, "backend pcp"));
	free(text);
	backend_close(&b);
	config_free(&cfg);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s/bus", sysfs);
	assert_int_equal(system(cmd), 0);
}

/* Leave non-zero bytes where the next call's locals will be. */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile char junk[PERF_HINT_MAX * 64 + 1024];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 'x';
}

/* Not even a software event counts (a seccomp'd container): the message
 * says so, and the list of what counts is empty, not stack bytes. */
static void no_event_counts(void **state)
{
	(void)state;
	struct perf_hint h;
	memset(&h, 0, sizeof(h));
	log_capture_start();
	dirty_stack();
	perf_hint_log(&h);
	assert_logged("containers); no event counts here; or \"backend pcp\"");
	assert_null(strstr(logbuf, "xx"));
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
	sample_free(&s);
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
	sample_free(&s);
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
	sample_free(&s);
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
	sample_free(&s);
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
	sample_free(&s);
	config_free(&cfg);
}

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
	sample_free(&s);
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
	sample_free(&s);
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

/* A metric whose events never ran although enabled long enough is
 * unknown (left out); one that ran in any group, or was enabled too
 * briefly to tell, is not. */
static void never_ran(void **state)
{
	struct perf_group g[3];
	struct perf_cpu pc = {.open = true, .groups = g, .ngroups = 3};

	memset(g, 0, sizeof(g));
	g[0] = (struct perf_group){.n = 2, .counter = {3, 4},
				   .enabled = 3000000000u, .running = 1000};
	g[1] = (struct perf_group){.n = 2, .counter = {4, 5},
				   .enabled = 3000000000u, .running = 0};
	g[2] = (struct perf_group){.n = 1, .counter = {6},
				   .enabled = 1000000000u, .running = 0};
	/* 4 ran in group 0; 5 never ran in 3 s; 6 only 1 s enabled */
	assert_int_equal(perf_cpu_never_ran(&pc, 2000000000u), COUNTER_BIT(5));
	assert_int_equal(perf_cpu_never_ran(&pc, 500000000u),
			 COUNTER_BIT(5) | COUNTER_BIT(6));
	pc.open = false;
	assert_int_equal(perf_cpu_never_ran(&pc, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(counts_software_events),
	    cmocka_unit_test(no_pmu_state_minus_one),
	    cmocka_unit_test(no_pmu_advice),
	    cmocka_unit_test(no_event_counts),
	    cmocka_unit_test(never_ran),
	    cmocka_unit_test(hotplug),
	    cmocka_unit_test(pfm_mapped),
	    cmocka_unit_test(group_split),
	    cmocka_unit_test(no_fd_leak),
	    cmocka_unit_test(read_fails_on_one_cpu),
	    cmocka_unit_test(reprobe_after_permission),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
