/*
 * test_alarm.c - the RMON alarm state machine (RFC 2819 semantics) on
 * every case, alarm configs, and evaluation over the cache with
 * discontinuities.
 */
#include "testenv.h"

#include "alarm/alarm_eval.h"
#include "config/config.h"
#include "logcapture.h"

#define R    ALARM_EVENT_RISING
#define F    ALARM_EVENT_FALLING
#define NONE (-1)

/* Feed samples; expect[i] is R, F or NONE for sample i. */
static void run(enum alarm_startup startup, const uint64_t *v,
		const int *expect, size_t n)
{
	struct alarm_config cfg = {
	    .rising = 100, .falling = 50, .startup = startup};
	struct alarm_instance in = {0};
	for (size_t i = 0; i < n; i++) {
		enum alarm_event_kind k;
		int fired = alarm_step(&cfg, &in, v[i], &k);
		int got = fired ? (int)k : NONE;
		if (got != expect[i])
			fail_msg("startup %d, sample %zu (%llu): got %d, "
				 "expected %d",
				 startup, i, (unsigned long long)v[i], got,
				 expect[i]);
	}
}

#define RUN(startup, vals, exp)                                                \
	do {                                                                   \
		const uint64_t v_[] = vals;                                    \
		const int e_[] = exp;                                          \
		run(startup, v_, e_, sizeof(v_) / sizeof(v_[0]));              \
	} while (0)
#define L(...)                                                                 \
	{                                                                      \
		__VA_ARGS__                                                    \
	}

static void startup_modes(void **state)
{
	/* first sample above rising */
	RUN(STARTUP_RISING, L(150), L(R));
	RUN(STARTUP_BOTH, L(150), L(R));
	RUN(STARTUP_FALLING, L(150), L(NONE));
	/* first sample below falling */
	RUN(STARTUP_FALLING, L(10), L(F));
	RUN(STARTUP_BOTH, L(10), L(F));
	RUN(STARTUP_RISING, L(10), L(NONE));
	/* first sample between: nothing, whatever the mode */
	RUN(STARTUP_BOTH, L(75), L(NONE));
	/* falling-only startup above rising: no rising until it fell first */
	RUN(STARTUP_FALLING, L(150, 160, 40, 150), L(NONE, NONE, F, R));
	/* rising-only startup below falling: the next rise fires */
	RUN(STARTUP_RISING, L(10, 5, 120), L(NONE, NONE, R));
	/* first sample exactly at a threshold: it fired, so it is not
	 * armed again until the other threshold is reached */
	RUN(STARTUP_BOTH, L(100, 100, 120, 51), L(R, NONE, NONE, NONE));
	RUN(STARTUP_BOTH, L(50, 50, 40, 99), L(F, NONE, NONE, NONE));
	RUN(STARTUP_FALLING, L(100, 100, 50, 100), L(NONE, NONE, F, R));
	RUN(STARTUP_RISING, L(50, 50, 100, 50), L(NONE, NONE, R, F));
	/* one below rising, one above falling: armed for both */
	RUN(STARTUP_BOTH, L(99, 100), L(NONE, R));
	RUN(STARTUP_BOTH, L(51, 50), L(NONE, F));
}

static void hysteresis(void **state)
{
	/* rising, then falling, then rising again */
	RUN(STARTUP_BOTH, L(75, 120, 130, 60, 40, 45, 101),
	    L(NONE, R, NONE, NONE, F, NONE, R));
	/* bouncing between the thresholds raises nothing more */
	RUN(STARTUP_BOTH, L(120, 90, 110, 60, 99, 51, 100),
	    L(R, NONE, NONE, NONE, NONE, NONE, NONE));
	/* values equal to a threshold count as reaching it */
	RUN(STARTUP_BOTH, L(75, 100, 50, 100, 50), L(NONE, R, F, R, F));
	/* one step from above rising to below falling: one falling alarm */
	RUN(STARTUP_BOTH, L(200, 0, 0, 200), L(R, F, NONE, R));
}

static void config_lines(void **state)
{
	struct alarm_config a;
	char err[256];
	assert_int_equal(
	    alarm_config_parse(
		"brmp hw.r10kevctr.fail.brmp each rate 1000000 500000 rising",
		&a, err, sizeof(err)),
	    0);
	assert_string_equal(a.name, "brmp");
	assert_int_equal(a.counter,
			 meta_counter_index_by_name("hw.r10kevctr.fail.brmp"));
	assert_int_equal(a.scope, SCOPE_EACH_CPU);
	assert_int_equal(a.type, TYPE_RATE);
	assert_int_equal(a.rising, 1000000);
	assert_int_equal(a.falling, 500000);
	assert_int_equal(a.startup, STARTUP_RISING);
	assert_int_equal(
	    alarm_config_parse(
		"c0 hw.r10kevctr.cycles 3 absolute 18446744073709551615 0", &a,
		err, sizeof(err)),
	    0);
	assert_int_equal(a.scope, SCOPE_CPU);
	assert_int_equal(a.cpu, 3);
	assert_int_equal(a.rising, UINT64_MAX);
	assert_int_equal(a.startup, STARTUP_BOTH);
	const struct {
		const char *line, *msg;
	} bad[] = {
	    {"x hw.r10kevctr.nosuch sum rate 10 5",
	     "not a counter metric or a statistic (stat.NAME): "
	     "'hw.r10kevctr.nosuch'"},
	    {"x hw.r10kevctr.cycles sum rate 5 10",
	     "falling threshold must be below"},
	    {"x hw.r10kevctr.cycles sum rate 5 5",
	     "falling threshold must be below"},
	    {"x hw.r10kevctr.cycles cpu7 rate 10 5", "bad CPU"},
	    {"x hw.r10kevctr.cycles 70000 rate 10 5", "bad CPU"},
	    {"x hw.r10kevctr.cycles sum delta 10 5",
	     "sample type must be rate or absolute"},
	    {"x hw.r10kevctr.cycles sum rate ten 5", "bad rising threshold"},
	    {"x hw.r10kevctr.cycles sum rate 10 -1", "bad falling threshold"},
	    {"x hw.r10kevctr.cycles sum rate 10 5 never", "startup must be"},
	    {"x hw.r10kevctr.cycles sum rate 10", "expected NAME METRIC"},
	    {"bad/name hw.r10kevctr.cycles sum rate 10 5", "bad name"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(
		    alarm_config_parse(bad[i].line, &a, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].msg))
			fail_msg("%s: expected '%s' in '%s'", bad[i].line,
				 bad[i].msg, err);
	}
	struct config c;
	config_defaults(&c, NULL); /* the generic tokens alone */
	assert_int_equal(config_apply(&c, "alarm",
				      "a hw.r10kevctr.cycles sum rate 10 5",
				      err, 256),
			 0);
	assert_int_equal(config_apply(&c, "alarm",
				      "a hw.r10kevctr.tlb sum rate 10 5", err,
				      256),
			 -1);
	assert_non_null(strstr(err, "name 'a' used twice"));
	assert_int_equal(c.nalarms, 1);
	config_free(&c);
}

/* ---------------------------------------------------- over the cache */

static struct cache cache;
static struct alarm_set *evaluated; /* the set poll() evaluates */
static struct sample smp;
static uint64_t t_ns;
static unsigned emitted_rising, emitted_falling;

static void emit(void *ctx, const struct alarm *a, size_t index,
		 enum alarm_event_kind kind)
{
	if (kind == ALARM_EVENT_RISING)
		emitted_rising++;
	else
		emitted_falling++;
}

/* One poll, 1 s after the last: CPU c's cycles grow by rate[c]; the
 * alarms it fired. */
static unsigned poll(const uint64_t *rate, size_t ncpus, uint32_t epoch)
{
	static uint64_t value[4];
	assert_int_equal(cache_sample_reserve(&smp, ncpus), 0);
	smp.ncpus = ncpus;
	smp.counted = COUNTER_BIT(0);
	t_ns += 1000000000u;
	smp.time_ns = t_ns;
	for (size_t c = 0; c < ncpus; c++) {
		memset(&smp.cpus[c], 0, sizeof(smp.cpus[c]));
		smp.cpus[c].cpu = (unsigned)c;
		smp.cpus[c].counting = true;
		smp.cpus[c].epoch = epoch;
		value[c] += rate[c];
		smp.cpus[c].value[0] = value[c];
	}
	assert_true(cache_update(&cache, &smp, 1) >= 0);
	return alarm_evaluate(&cache, evaluated, emit, NULL);
}

static void over_the_cache(void **state)
{
	struct alarm_config cfg[2];
	struct alarm_set set;
	char err[256];

	assert_int_equal(
	    alarm_config_parse("sum hw.r10kevctr.cycles sum rate 100 50",
			       &cfg[0], err, 256),
	    0);
	assert_int_equal(
	    alarm_config_parse("each hw.r10kevctr.cycles each rate 60 20",
			       &cfg[1], err, 256),
	    0);
	assert_int_equal(alarm_set_build(&set, cfg, 2, NULL), 0);
	cache_init(&cache);
	evaluated = &set;
	log_capture_start();

	/* first poll: no delta yet */
	assert_int_equal(poll((uint64_t[]){10, 10}, 2, 1), 0);
	assert_int_equal(alarm_status_of(&set.alarm[0]), ALARM_WAITING);
	/* sum 20/s: falling at startup */
	assert_int_equal(poll((uint64_t[]){10, 10}, 2, 1), 3);
	assert_int_equal(emitted_falling, 3); /* sum, CPU 0, CPU 1 */
	/* sum 110 rising; CPU 0 rising */
	assert_int_equal(poll((uint64_t[]){70, 40}, 2, 1), 2);
	assert_int_equal(emitted_rising, 2);
	assert_int_equal(set.alarm[0].event_value, 110);
	assert_int_equal(set.alarm[0].event_threshold, 100);
	assert_int_equal(set.alarm[1].event_cpu, 0);
	assert_int_equal(alarm_status_of(&set.alarm[1]), ALARM_RISEN);
	uint64_t v;
	assert_true(alarm_value_of(&set.alarm[1], &v));
	assert_int_equal(v, 70);

	/* a restart (new epoch) makes a huge-looking delta: dropped */
	assert_int_equal(poll((uint64_t[]){5000, 5000}, 2, 2), 0);
	assert_int_equal(emitted_rising, 2);
	assert_int_equal(set.alarm[0].dropped, 1);
	assert_int_equal(set.alarm[1].dropped, 2);
	assert_logged(
	    "alarm sum: sum: sample across a counter discontinuity dropped");
	assert_logged(
	    "alarm each: CPU 1: sample across a counter discontinuity dropped");

	/* a CPU joins: no false alarm from the join either */
	poll((uint64_t[]){70, 40, 9999}, 3, 2);
	assert_int_equal(emitted_rising, 2);
	poll((uint64_t[]){10, 5, 1}, 3, 2); /* all fall */
	/* sum and CPU 0 fall; CPU 1 fell before and is not re-armed; CPU 2
	 * has its first valid sample, below falling: a startup alarm */
	assert_int_equal(emitted_falling, 3 + 3);

	/* a reload with the same settings keeps the state */
	struct alarm_set again;
	assert_int_equal(alarm_set_build(&again, cfg, 2, &set), 0);
	assert_int_equal(again.alarm[0].events, set.alarm[0].events);
	assert_int_equal(again.alarm[1].ninst, set.alarm[1].ninst);
	alarm_set_free(&again);
	/* changed: evaluation starts afresh; the row's Counter32s go on
	 * (they never decrease while the row exists) */
	cfg[0].rising = 1000;
	assert_int_equal(alarm_set_build(&again, cfg, 2, &set), 0);
	assert_int_equal(again.alarm[0].events, set.alarm[0].events);
	assert_int_not_equal(again.alarm[0].events, 0);
	assert_int_equal(again.alarm[0].dropped, set.alarm[0].dropped);
	assert_int_equal(again.alarm[0].ninst, 0);
	alarm_set_free(&again);

	alarm_set_free(&set);

	/* an alarm on a CPU the table does not have waits, and says so once */
	assert_int_equal(
	    alarm_config_parse("far hw.r10kevctr.cycles 9 rate 10 5", &cfg[0],
			       err, 256),
	    0);
	assert_int_equal(alarm_set_build(&set, cfg, 1, NULL), 0);
	evaluated = &set;
	log_capture_start();
	poll((uint64_t[]){10, 10, 10}, 3, 2);
	poll((uint64_t[]){10, 10, 10}, 3, 2);
	assert_logged("alarm far: CPU 9 is not in the CPU table");
	assert_null(strstr(strstr(logbuf, "CPU 9") + 1, "CPU 9"));
	assert_int_equal(alarm_status_of(&set.alarm[0]), ALARM_WAITING);
	alarm_set_free(&set);
	cache_free(&cache);
	cache_sample_free(&smp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(startup_modes),
	    cmocka_unit_test(hysteresis),
	    cmocka_unit_test(config_lines),
	    cmocka_unit_test(over_the_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
