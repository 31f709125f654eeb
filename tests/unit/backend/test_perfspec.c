/* test_perfspec.c - perf event specifications and CPU lists. */
#include "testenv.h"

#include <sys/stat.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "meta/metrics.h"
#include "backend/perfspec.h"

static void table_defaults_parse(void **state)
{
	struct perfspec sp;
	char err[256];
	for (int c = 0; c < COUNTER_COUNT; c++) {
		if (backend_perfspec_parse(meta_counters[c].perf,
					   "/nonexistent", &sp, err,
					   sizeof(err)))
			fail_msg("metrics.def %s: %s", meta_counters[c].name,
				 err);
		assert_int_equal(sp.nterms > 0,
				 meta_counters[c].match != MATCH_NONE);
	}
}

static void encodings(void **state)
{
	struct perfspec sp;
	char err[256];
	assert_int_equal(backend_perfspec_parse("hardware:branch-misses", "/x",
						&sp, err, 256),
			 0);
	assert_int_equal(sp.nterms, 1);
	assert_int_equal(sp.term[0].type, PT_HARDWARE);
	assert_int_equal(sp.term[0].config, 5);
	assert_true(sp.term[0].hardware);
	assert_int_equal(
	    backend_perfspec_parse("software:page-faults", "/x", &sp, err, 256),
	    0);
	assert_int_equal(sp.term[0].type, PT_SOFTWARE);
	assert_int_equal(sp.term[0].config, 2);
	assert_false(sp.term[0].hardware);
	assert_int_equal(backend_perfspec_parse("hw_cache:l1d.read.miss", "/x",
						&sp, err, 256),
			 0);
	assert_int_equal(sp.term[0].type, PT_HW_CACHE);
	assert_int_equal(sp.term[0].config, 0x10000);
	assert_int_equal(backend_perfspec_parse(
			     "hw_cache:dtlb.read.miss+hw_cache:itlb.read.miss",
			     "/x", &sp, err, 256),
			 0);
	assert_int_equal(sp.nterms, 2);
	assert_int_equal(sp.term[0].config, 0x10003);
	assert_int_equal(sp.term[1].config, 0x10004);
	assert_int_equal(backend_perfspec_parse("hw_cache:ll.write.access",
						"/x", &sp, err, 256),
			 0);
	assert_int_equal(sp.term[0].config, 0x102);
	assert_int_equal(
	    backend_perfspec_parse("raw:0x5300c0", "/x", &sp, err, 256), 0);
	assert_int_equal(sp.term[0].type, PT_RAW);
	assert_int_equal(sp.term[0].config, 0x5300c0);
	assert_int_equal(backend_perfspec_parse("off", "/x", &sp, err, 256), 0);
	assert_int_equal(sp.nterms, 0);
}

static void pmu_by_name(void **state)
{
	char dir[] = "/tmp/hwr-sysfs-XXXXXX", path[256];
	struct perfspec sp;
	char err[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path),
		 "mkdir -p %s/bus/event_source/devices/uncore_x && "
		 "echo 42 > %s/bus/event_source/devices/uncore_x/type",
		 dir, dir);
	assert_int_equal(system(path), 0);
	assert_int_equal(
	    backend_perfspec_parse("uncore_x:0x1b7", dir, &sp, err, 256), 0);
	assert_int_equal(sp.term[0].type, 42);
	assert_int_equal(sp.term[0].config, 0x1b7);
	assert_int_equal(
	    backend_perfspec_parse("uncore_y:0x1", dir, &sp, err, 256), -1);
	assert_non_null(strstr(err, "unknown event type or PMU"));
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static void bad(const char *spec, const char *msg)
{
	struct perfspec sp;
	char err[256] = "";
	assert_int_equal(
	    backend_perfspec_parse(spec, "/nonexistent", &sp, err, 256), -1);
	if (!strstr(err, msg))
		fail_msg("%s: expected '%s' in '%s'", spec, msg, err);
}

static void errors(void **state)
{
	bad("hardware:warp-drive", "unknown hardware event");
	bad("software:naps", "unknown software event");
	bad("hw_cache:l1d.read", "expected CACHE.OP.RESULT");
	bad("hw_cache:l9.read.miss", "expected CACHE.OP.RESULT");
	bad("raw:5300c0", "expected a hex config");
	bad("raw:0xzz", "expected a hex config");
	bad("cycles", "expected TYPE:EVENT");
	bad("hardware:", "expected TYPE:EVENT");
	bad("a:0x1+", "empty term");
	/* a leading '+' (strtok would skip it: the term before is empty) */
	bad("+software:cpu-clock", "empty term in perf event '+software:cpu-clock'");
	bad("software:cpu-clock++software:cpu-clock", "empty term");
	bad("raw:0x1+raw:0x2+raw:0x3+raw:0x4+raw:0x5", "more than 4 terms");
#ifndef HAVE_LIBPFM
	bad("pfm:INST_RETIRED", "need a build with libpfm4");
#endif
}

static void pfm_names(void **state)
{
#ifdef HAVE_LIBPFM
	struct perfspec sp;
	char err[256];
	/* libpfm4's generic "perf" PMU exists on every machine */
	assert_int_equal(
	    backend_perfspec_parse("pfm:perf::PERF_COUNT_SW_CPU_CLOCK", "/x",
				   &sp, err, 256),
	    0);
	assert_int_equal(sp.term[0].type, PT_SOFTWARE);
	assert_int_equal(sp.term[0].config, 0);
	assert_false(sp.term[0].hardware);
	bad("pfm:NO_SUCH_EVENT_ANYWHERE", "libpfm4: event not found");
#else
	skip();
#endif
}

static void cpulists(void **state)
{
	struct cpulist l;
	assert_int_equal(util_cpulist_parse("0-3,5,7-8\n", &l), 0);
	assert_int_equal(l.n, 7);
	assert_int_equal(l.cpu[4], 5);
	assert_true(util_cpulist_has(&l, 8));
	assert_false(util_cpulist_has(&l, 6));
	util_cpulist_free(&l);
	assert_int_equal(util_cpulist_parse("0", &l), 0);
	assert_int_equal(l.n, 1);
	util_cpulist_free(&l);
	assert_int_equal(util_cpulist_parse("", &l), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(util_cpulist_parse("3-1", &l), -1);
	assert_int_equal(util_cpulist_parse("1,1", &l), -1);
	assert_int_equal(util_cpulist_parse("x", &l), -1);
	assert_int_equal(util_cpulist_parse("1;2", &l), -1);
	assert_int_equal(util_cpulist_parse("99999999", &l), -1);
	assert_int_equal(util_cpulist_read("/nonexistent", &l), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(table_defaults_parse),
	    cmocka_unit_test(encodings),
	    cmocka_unit_test(pmu_by_name),
	    cmocka_unit_test(errors),
	    cmocka_unit_test(pfm_names),
	    cmocka_unit_test(cpulists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
