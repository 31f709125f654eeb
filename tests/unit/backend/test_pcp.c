/* test_pcp.c - the pcp backend on archives written here with
 * libpcp_import: wrap by PCP type, system-wide metrics, instance names,
 * refused mappings, the archive's end. */
#include "testenv.h"

#include <stdlib.h>
#include <unistd.h>

#include "backend/backend.h"
#include "logcapture.h"
#include "backend/pcp_source.h"
#include "pcparchive.h"
#include "testconf.h"

static int C(const char *name)
{
	char full[64];
	snprintf(full, sizeof(full), "%s%s", METRIC_PREFIX, name);
	return meta_counter_index_by_name(full);
}

static void add(const char *name, int item, int type, bool per_cpu, int sem)
{
	pmUnits count = pmiUnits(0, 0, 1, 0, 0, PM_COUNT_ONE);
	assert_int_equal(pmiAddMetric(name, pmiID(1, 35, item), type,
				      per_cpu ? pmiInDom(1, 35) : PM_INDOM_NULL,
				      sem, count),
			 0);
}

static void put(const char *name, const char *inst, const char *value)
{
	assert_int_equal(pmiPutValue(name, inst, value), 0);
}

static int open_pcp(struct backend *b, const char *extra_token,
		    const char *extra_args, char *err)
{
	struct config cfg;
	conf_init(&cfg, "pcp");
	CONF(&cfg, "pcpArchive", "%s", archive);
	if (extra_token)
		CONF(&cfg, extra_token, "%s", extra_args);
	log_capture_start();
	int rc = backend_open(b, &cfg, err, 256);
	config_free(&cfg);
	return rc;
}

static void instance_names(void **state)
{
	assert_int_equal(backend_pcp_cpu_of_instance("cpu0"), 0);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu17"), 17);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu65535"), 65535);
	/* each end of the digits, and the characters just outside them */
	assert_int_equal(backend_pcp_cpu_of_instance("cpu9"), 9);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu90"), 90);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu1:"),
			 -1); /* '9' + 1 */
	assert_int_equal(backend_pcp_cpu_of_instance("cpu1/"),
			 -1); /* '0' - 1 */
	assert_int_equal(backend_pcp_cpu_of_instance("cpu65536"), -1);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu"), -1);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu01"), -1);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu-1"), -1);
	assert_int_equal(backend_pcp_cpu_of_instance("cpu1x"), -1);
	assert_int_equal(backend_pcp_cpu_of_instance("node0"), -1);
	assert_int_equal(backend_pcp_cpu_of_instance(NULL), -1);
}

static void settings(void **state)
{
	struct config cfg;
	char err[256];

	conf_init(&cfg, NULL);
	assert_int_not_equal(
	    config_apply(&cfg, "pcpMetric", "cycles x.y", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not a counter metric"));
	assert_int_not_equal(config_apply(&cfg, "pcpMetric",
					  "hw.r10kevctr.cycles", err,
					  sizeof(err)),
			     0);
	assert_int_not_equal(
	    config_apply(&cfg, "pcpLoop", "maybe", err, sizeof(err)), 0);
	assert_int_not_equal(
	    config_apply(&cfg, "pcpBogus", "1", err, sizeof(err)), 0);
	snprintf(cfg.backend, sizeof(cfg.backend), "pcp");
	CONF(&cfg, "pcpHost", "localhost");
	CONF(&cfg, "pcpArchive", "/tmp/x");
	assert_int_not_equal(config_validate(&cfg, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "exclude each other"));
	config_free(&cfg);
}

/* 32-bit values wrap, 64-bit system-wide ones feed the sum only; at the
 * end the last values hold and the sample says the data ended. */
static void wrap_system_wide_and_end(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	start_archive("hwr-pcp");
	add("hw.r10kevctr.cycles", 0, PM_TYPE_U32, true, PM_SEM_COUNTER);
	add("hw.r10kevctr.tlb", 22, PM_TYPE_U64, false, PM_SEM_COUNTER);
	assert_int_equal(pmiAddInstance(pmiInDom(1, 35), "cpu0", 0), 0);
	assert_int_equal(pmiAddInstance(pmiInDom(1, 35), "cpu2", 2), 0);
	put("hw.r10kevctr.cycles", "cpu0", "4294967290");
	put("hw.r10kevctr.cycles", "cpu2", "10");
	put("hw.r10kevctr.tlb", "", "100");
	assert_int_equal(pmiWrite(1000000000, 0), 0);
	put("hw.r10kevctr.cycles", "cpu0", "4");
	put("hw.r10kevctr.cycles", "cpu2", "30");
	put("hw.r10kevctr.tlb", "", "150");
	assert_int_equal(pmiWrite(1000000005, 0), 0);
	end_archive();

	assert_int_equal(open_pcp(&b, NULL, NULL, err), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 0);
	assert_false(s.ended);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(s.counted,
			 COUNTER_BIT(C("cycles")) | COUNTER_BIT(C("tlb")));
	assert_int_equal(s.system_wide, COUNTER_BIT(C("tlb")));
	assert_int_equal(s.state, 2);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 0);
	assert_int_equal(s.cpus[0].cpu, 0);
	assert_int_equal(s.cpus[0].value[C("cycles")], 10); /* wrapped */
	assert_int_equal(s.cpus[1].cpu, 2);
	assert_int_equal(s.cpus[1].value[C("cycles")], 20);
	assert_int_equal(s.total[C("tlb")], 50);
	assert_int_equal(s.time_ns - s.cpus[0].time_enabled,
			 UINT64_C(1000000000) * 1000000000u);
	uint32_t epoch = s.cpus[0].epoch;
	uint64_t last = s.time_ns;

	assert_int_equal(backend_read(&b, &s), 0); /* the end: hold */
	assert_logged("end reached after 2 records; holding the last values");
	assert_true(s.ended);
	assert_false(s.system_wide_stopped);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(s.cpus[0].value[C("cycles")], 10);
	assert_int_equal(s.cpus[0].epoch, epoch);
	assert_int_equal(s.total[C("tlb")], 50);
	/* held, the clock goes on a poll interval a read */
	uint64_t step = s.time_ns - last;
	assert_true(step > 0 && step % 1000000000u == 0);
	last = s.time_ns;
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.time_ns - last, step);
	backend_close(&b);
	cache_sample_free(&s);
	remove_archive();
}

/* A record whose value sets are errors (their PMDA failed), as pmlogger
 * logs them: sec seconds. */
static void put_errors(int sec, const int *items, int n)
{
	pmResult *r = calloc(1, sizeof(*r) + (size_t)n * sizeof(r->vset[0]));
	pmValueSet *vs = calloc((size_t)n, sizeof(*vs));
	assert_non_null(r);
	assert_non_null(vs);
	r->timestamp.tv_sec = sec;
	r->numpmid = n;
	for (int i = 0; i < n; i++) {
		vs[i].pmid = pmiID(1, 35, items[i]);
		vs[i].numval = PM_ERR_AGAIN;
		r->vset[i] = &vs[i];
	}
	assert_int_equal(pmiPutResult(r), 0);
	free(vs);
	free(r);
}

/* hwR10kEvCtrPollErrors counts problems (the MIB's DESCRIPTION,
 * doc/pcp.md): two mapped metrics without values count two a poll, one
 * per metric, for each poll without; each is logged once. */
static void metrics_without_values(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];
	const int items[] = {0, 22};

	start_archive("hwr-pcp");
	add("hw.r10kevctr.cycles", 0, PM_TYPE_U64, true, PM_SEM_COUNTER);
	add("hw.r10kevctr.tlb", 22, PM_TYPE_U64, false, PM_SEM_COUNTER);
	assert_int_equal(pmiAddInstance(pmiInDom(1, 35), "cpu0", 0), 0);
	put("hw.r10kevctr.cycles", "cpu0", "10");
	put("hw.r10kevctr.tlb", "", "100");
	assert_int_equal(pmiWrite(1000000000, 0), 0);
	put_errors(1000000001, items, 2);
	put_errors(1000000002, items, 2);
	put("hw.r10kevctr.cycles", "cpu0", "40");
	put("hw.r10kevctr.tlb", "", "130");
	assert_int_equal(pmiWrite(1000000003, 0), 0);
	end_archive();

	assert_int_equal(open_pcp(&b, NULL, NULL, err), 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 0);
	for (int poll = 0; poll < 2; poll++) {
		assert_int_equal(backend_read(&b, &s), 0);
		assert_int_equal(s.errors, 2);
	}
	assert_logged("hw.r10kevctr.tlb: ");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.errors, 0);
	assert_logged("has values again");
	assert_int_equal(s.total[C("tlb")], 30);
	backend_close(&b);
	cache_sample_free(&s);
	remove_archive();
}

/* What cannot feed a counter is refused, naming counter and metric. */
static void refused(void **state)
{
	struct backend b = {0};
	char err[256];

	start_archive("hwr-pcp");
	add("hw.r10kevctr.cycles", 0, PM_TYPE_U32, false, PM_SEM_INSTANT);
	add("hw.r10kevctr.tlb", 22, PM_TYPE_DOUBLE, false, PM_SEM_COUNTER);
	add("other.counter", 40, PM_TYPE_U64, false, PM_SEM_COUNTER);
	put("hw.r10kevctr.cycles", "", "1");
	put("hw.r10kevctr.tlb", "", "1.5");
	put("other.counter", "", "1");
	assert_int_equal(pmiWrite(1000000000, 0), 0);
	end_archive();

	assert_int_not_equal(open_pcp(&b, NULL, NULL, err), 0);
	assert_non_null(strstr(err, "hw.r10kevctr.cycles: PCP metric "
				    "hw.r10kevctr.cycles has instant "
				    "semantics"));
	assert_int_not_equal(
	    open_pcp(&b, "pcpMetric", "hw.r10kevctr.cycles other.counter", err),
	    0);
	if (!strstr(err, "hw.r10kevctr.tlb: PCP metric hw.r10kevctr.tlb is of "
			 "type DOUBLE"))
		fail_msg("%s", err);
	assert_int_not_equal(open_pcp(&b, "pcpMetric",
				      "hw.r10kevctr.cycles no.such.metric",
				      err),
			     0);
	assert_non_null(strstr(err, "pcpMetric hw.r10kevctr.cycles "
				    "no.such.metric"));
	assert_non_null(strstr(err, "Unknown metric name"));
	remove_archive();

	snprintf(archive, sizeof(archive), "/nonexistent/archive");
	assert_int_not_equal(open_pcp(&b, NULL, NULL, err), 0);
	assert_non_null(strstr(err, "archive /nonexistent/archive:"));
}

/* A metric whose instances are not CPUs, one in units of time or space,
 * and one PCP metric for two counters: refused at open, named. */
static void refused_not_events(void **state)
{
	struct backend b = {0};
	char err[256];
	struct config cfg;

	start_archive("hwr-pcp");
	add("hw.r10kevctr.cycles", 0, PM_TYPE_U64, true, PM_SEM_COUNTER);
	assert_int_equal(pmiAddMetric("disk.dev.read", pmiID(60, 0, 4),
				      PM_TYPE_U64, pmiInDom(60, 1),
				      PM_SEM_COUNTER,
				      pmiUnits(0, 0, 1, 0, 0, PM_COUNT_ONE)),
			 0);
	assert_int_equal(pmiAddMetric("kernel.percpu.cpu.idle",
				      pmiID(60, 0, 23), PM_TYPE_U64,
				      pmiInDom(1, 35), PM_SEM_COUNTER,
				      pmiUnits(0, 1, 0, 0, PM_TIME_MSEC, 0)),
			 0);
	assert_int_equal(pmiAddInstance(pmiInDom(1, 35), "cpu0", 0), 0);
	assert_int_equal(pmiAddInstance(pmiInDom(60, 1), "sda", 0), 0);
	assert_int_equal(pmiAddInstance(pmiInDom(60, 1), "sdb", 1), 0);
	put("hw.r10kevctr.cycles", "cpu0", "1");
	put("disk.dev.read", "sda", "1");
	put("disk.dev.read", "sdb", "1");
	put("kernel.percpu.cpu.idle", "cpu0", "990");
	assert_int_equal(pmiWrite(1000000000, 0), 0);
	end_archive();

	assert_int_not_equal(
	    open_pcp(&b, "pcpMetric", "hw.r10kevctr.tlb disk.dev.read", err), 0);
	if (!strstr(err, "hw.r10kevctr.tlb: PCP metric disk.dev.read is not "
			 "per CPU: 2 of its 2 instances are not named cpuN "
			 "(sda, sdb)"))
		fail_msg("%s", err);
	assert_int_not_equal(open_pcp(&b, "pcpMetric",
				      "hw.r10kevctr.tlb kernel.percpu.cpu.idle",
				      err),
			     0);
	if (!strstr(err, "hw.r10kevctr.tlb: PCP metric kernel.percpu.cpu.idle "
			 "is in units of 'millisec' (time)"))
		fail_msg("%s", err);
	/* the default name of cycles, mapped onto tlb too */
	assert_int_not_equal(
	    open_pcp(&b, "pcpMetric", "hw.r10kevctr.tlb hw.r10kevctr.cycles",
		     err),
	    0);
	if (!strstr(err, "hw.r10kevctr.cycles and hw.r10kevctr.tlb both read "
			 "PCP metric hw.r10kevctr.cycles"))
		fail_msg("%s", err);
	/* two pcpMetric lines naming one PCP metric: the second line */
	conf_init(&cfg, NULL);
	assert_int_equal(config_apply(&cfg, "pcpMetric",
				      "hw.r10kevctr.tlb disk.dev.read", err,
				      sizeof(err)),
			 0);
	assert_int_not_equal(config_apply(&cfg, "pcpMetric",
					  "hw.r10kevctr.cycles disk.dev.read",
					  err, sizeof(err)),
			     0);
	if (!strstr(err, "PCP metric disk.dev.read already feeds "
			 "hw.r10kevctr.tlb"))
		fail_msg("%s", err);
	config_free(&cfg);
	remove_archive();
}

/* pcpMetric maps a counter to another PCP name; a <mark> record starts
 * a new epoch; pcpLoop starts again in a new epoch. */
static void mapping_mark_and_loop(void **state)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	start_archive("hwr-pcp");
	add("kernel.percpu.intr", 1, PM_TYPE_U64, true, PM_SEM_COUNTER);
	assert_int_equal(pmiAddInstance(pmiInDom(1, 35), "cpu1", 1), 0);
	put("kernel.percpu.intr", "cpu1", "100");
	assert_int_equal(pmiWrite(1000000000, 0), 0);
	put("kernel.percpu.intr", "cpu1", "130");
	assert_int_equal(pmiWrite(1000000001, 0), 0);
	assert_int_equal(pmiPutMark(), 0);
	put("kernel.percpu.intr", "cpu1", "7");
	assert_int_equal(pmiWrite(1000000010, 0), 0);
	put("kernel.percpu.intr", "cpu1", "9");
	assert_int_equal(pmiWrite(1000000011, 0), 0);
	end_archive();

	struct config cfg;
	conf_init(&cfg, "pcp");
	CONF(&cfg, "pcpArchive", "%s", archive);
	CONF(&cfg, "pcpLoop", "yes");
	CONF(&cfg, "pcpMetric", "hw.r10kevctr.scache.wb kernel.percpu.intr");
	log_capture_start();
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	int k = C("scache.wb");
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.counted, COUNTER_BIT(k));
	assert_int_equal(s.cpus[0].cpu, 1);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].value[k], 30);
	uint32_t e1 = s.cpus[0].epoch;
	assert_int_equal(backend_read(&b, &s), 0); /* mark, then 7 */
	assert_logged("a <mark> record after record 2");
	assert_int_not_equal(s.cpus[0].epoch, e1);
	assert_int_equal(s.cpus[0].value[k], 0);
	assert_int_equal(backend_read(&b, &s), 0);
	assert_int_equal(s.cpus[0].value[k], 2);
	uint32_t e2 = s.cpus[0].epoch;
	assert_int_equal(backend_read(&b, &s), 0); /* loop: 100 again */
	assert_logged("end reached, starting again");
	assert_int_not_equal(s.cpus[0].epoch, e2);
	assert_int_equal(s.cpus[0].value[k], 0);
	backend_close(&b);
	config_free(&cfg);
	cache_sample_free(&s);
	remove_archive();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(instance_names),
	    cmocka_unit_test(settings),
	    cmocka_unit_test(wrap_system_wide_and_end),
	    cmocka_unit_test(metrics_without_values),
	    cmocka_unit_test(refused),
	    cmocka_unit_test(refused_not_events),
	    cmocka_unit_test(mapping_mark_and_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
