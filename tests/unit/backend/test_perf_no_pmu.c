/*
 * test_perf_no_pmu.c - the perf backend where events cannot count:
 * hardware events that fail (no PMU here), the advice logged about what
 * counts on this host, events that never ran.
 */
#include "perf_fixture.h"

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
	cache_sample_free(&s);
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
	backend_perf_hint_log(&h);
	assert_logged("containers); no event counts here; or \"backend pcp\"");
	assert_null(strstr(logbuf, "xx"));
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
	assert_int_equal(backend_perf_cpu_never_ran(&pc, 2000000000u),
			 COUNTER_BIT(5));
	assert_int_equal(backend_perf_cpu_never_ran(&pc, 500000000u),
			 COUNTER_BIT(5) | COUNTER_BIT(6));
	pc.open = false;
	assert_int_equal(backend_perf_cpu_never_ran(&pc, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(no_pmu_state_minus_one),
	    cmocka_unit_test(no_pmu_advice),
	    cmocka_unit_test(no_event_counts),
	    cmocka_unit_test(never_ran),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
