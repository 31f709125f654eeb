/* test_replay_parse.c - the replay backend's reading of a recording:
 * parse errors, wrap, the 48-bit width and the loop, strict times, NUL
 * bytes, system-wide lines and the PMDA's rules. */
#include "replay_fixture.h"

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
	cache_sample_free(&s);
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
	cache_sample_free(&s);
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
	cache_sample_free(&s);
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
	cache_sample_free(&s);
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
	assert_int_equal(cache_sample_sort(&s), 0);
	backend_close(&b);
	cache_sample_free(&s);
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
	cache_sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parse_errors),
	    cmocka_unit_test(system_wide_and_pmda_rules),
	    cmocka_unit_test(wrap_and_hold),
	    cmocka_unit_test(width_48_and_loop),
	    cmocka_unit_test(strict_times),
	    cmocka_unit_test(nul_and_state_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
