/* test_metrics.c - the metrics table (lib/tables/metrics.def) and its rules. */
#include "testenv.h"

#include "meta/metrics.h"

static void arcs_strictly_increasing(void **state)
{
	for (size_t i = 1; i < meta_metrics_count; i++)
		assert_true(meta_metrics[i - 1].arc < meta_metrics[i].arc);
	assert_int_equal(meta_metrics_count,
			 COUNTER_COUNT + 2); /* state, cpurev */
	assert_int_equal(meta_metrics[0].kind, METRIC_STATE);
	assert_int_equal(meta_metrics[1].kind, METRIC_CPUREV);
}

static void counters_are_the_counter_rows(void **state)
{
	for (int i = 0; i < COUNTER_COUNT; i++) {
		assert_int_equal(meta_counters[i].kind, METRIC_COUNTER);
		assert_int_equal(meta_counter_index_of(&meta_counters[i]), i);
	}
	assert_int_equal(meta_counter_index_of(&meta_metrics[0]), -1);
}

/* The R10000 event numbers, as the issue lists them (independent data). */
static const struct {
	int event;
	const char *name;
} events[] = {
    {0, "cycles"},
    {16, "cycles"},
    {1, "issue.instri"},
    {2, "issue.loadi"},
    {3, "issue.storei"},
    {4, "issue.scondi"},
    {5, "fail.scondf"},
    {6, "issue.brd"},
    {7, "scache.wb"},
    {8, "scache.ecc"},
    {9, "pcache.imiss"},
    {10, "scache.imiss"},
    {11, "scache.iwaymp"},
    {12, "extint"},
    {13, "extinv"},
    {14, "vcc"},
    {14, "fucomp"},
    {15, "grad.instrg"},
    {17, "grad.instrg"},
    {18, "grad.loadg"},
    {19, "grad.storeg"},
    {20, "grad.scondg"},
    {21, "grad.fp"},
    {22, "pcache.wb"},
    {23, "tlb"},
    {24, "fail.brmp"},
    {25, "pcache.dmiss"},
    {26, "scache.dmiss"},
    {27, "scache.dwaymp"},
    {28, "scache.extinthit"},
    {29, "scache.extinvhit"},
    {30, "scache.upclean"},
    {31, "scache.upshare"},
};

static void event_numbers(void **state)
{
	char full[128];
	int seen = 0;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(full, sizeof(full), "hw.r10kevctr.%s", events[i].name);
		const struct metric *m = meta_metric_by_name(full);
		assert_non_null(m);
		assert_true(m->event0 == events[i].event ||
			    m->event1 == events[i].event);
	}
	/* and no counter claims an event the list does not give it */
	for (int i = 0; i < COUNTER_COUNT; i++)
		seen += (meta_counters[i].event0 >= 0) +
			(meta_counters[i].event1 >= 0);
	assert_int_equal(seen, sizeof(events) / sizeof(events[0]));
}

static void descriptors(void **state)
{
	char buf[METRIC_DESCRIPTOR_MAX + 1];
	meta_metric_descriptor(meta_metric_by_name("hw.r10kevctr.fail.brmp"),
			       METRIC_DESCRIPTOR_PREFIX, buf, sizeof(buf));
	assert_string_equal(buf, "hwR10kEvCtrFailBrmp");
	meta_metric_descriptor(meta_metric_by_name("hw.r10kevctr.cpurev"),
			       METRIC_DESCRIPTOR_PREFIX, buf, sizeof(buf));
	assert_string_equal(buf, "hwR10kEvCtrCpurev");
	meta_metric_descriptor(meta_metric_by_name("hw.r10kevctr.fail.brmp"),
			       METRIC_CPU_DESCRIPTOR_PREFIX, buf, sizeof(buf));
	assert_string_equal(buf, "hwR10kEvCtrCpuFailBrmp");
}

static void lookups(void **state)
{
	assert_int_equal(meta_counter_index_by_name("hw.r10kevctr.cycles"), 0);
	assert_int_equal(meta_counter_index_by_name("hw.r10kevctr.state"), -1);
	assert_int_equal(meta_counter_index_by_name("hw.r10kevctr.nosuch"), -1);
	assert_int_equal(meta_counter_index_by_name("cycles"), -1);
	assert_null(meta_metric_by_name(NULL));
}

static void revisions(void **state)
{
	const struct metric *vcc = meta_metric_by_name("hw.r10kevctr.vcc");
	const struct metric *fu = meta_metric_by_name("hw.r10kevctr.fucomp");
	assert_true(meta_metric_in_revision(vcc, "2.6"));
	assert_true(meta_metric_in_revision(vcc, "3.0"));
	assert_false(meta_metric_in_revision(vcc, "3.1"));
	assert_false(meta_metric_in_revision(fu, "2.6"));
	assert_true(meta_metric_in_revision(fu, "3.1"));
	assert_true(meta_metric_in_revision(fu, "4.0"));
	assert_true(meta_metric_in_revision(fu, "unknown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(arcs_strictly_increasing),
	    cmocka_unit_test(counters_are_the_counter_rows),
	    cmocka_unit_test(event_numbers),
	    cmocka_unit_test(descriptors),
	    cmocka_unit_test(lookups),
	    cmocka_unit_test(revisions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
