/* test_stats.c - the derived statistics of mib/stats.def: predicted values
 * on the sim and on a replay recording, the revision rule, no instance
 * without an input or a denominator, and alarms that watch them. */
#include "testenv.h"

#include <unistd.h>

#include "alarm_eval.h"
#include "backend.h"
#include "stat_eval.h"
#include "stats.h"
#include "testconf.h"

static int C(const char *name)
{
	char full[64];
	snprintf(full, sizeof(full), "%s%s", METRIC_PREFIX, name);
	return counter_index_by_name(full);
}

static uint64_t rate(const char *name)
{
	return name[0] ? counters[C(name)].sim_rate : 0;
}

/* Poll a backend twice (one interval) into c. */
static void two_polls(struct config *cfg, struct cache *c)
{
	struct backend b = {0};
	struct sample s = {0};
	char err[256];

	assert_int_equal(backend_open(&b, cfg, err, sizeof(err)), 0);
	cache_init(c);
	for (uint32_t t = 1; t <= 2; t++) {
		assert_int_equal(backend_read(&b, &s), 0);
		assert_int_equal(sample_sort(&s), 0);
		assert_true(cache_update(c, &s, t) >= 0);
	}
	backend_close(&b);
	sample_free(&s);
}

/* Every statistic on the sim equals what its row predicts from the sim
 * rates: the CPU factor and the interval cancel in ratios. */
static void sim_predicted(void **state)
{
	struct config cfg;
	struct cache c;
	uint64_t v;

	config_defaults(&cfg);
	CONF(&cfg, "simCpus", "3");
	cfg.poll_interval = 2;
	two_polls(&cfg, &c);
	for (size_t i = 0; i < stat_count; i++) {
		const struct stat_def *s = &stat_defs[i];
		uint64_t num = rate(s->num) - rate(s->minus);
		uint64_t den = rate(s->den) + rate(s->plus);
		for (long cpu = -1; cpu < 3; cpu++) {
			uint64_t factor =
			    cpu < 0 ? 1 + 2 + 3 : (uint64_t)cpu + 1;
			uint64_t want =
			    s->scale ? (uint64_t)((unsigned __int128)num *
						  s->scale / den)
				     : num * factor * 2;
			if (stat_value(&c, i, cpu, &v) != SAMPLE_OK)
				fail_msg("%s, cpu %ld: no value", s->name, cpu);
			if (v != want)
				fail_msg("%s, cpu %ld: %llu, predicted %llu",
					 s->name, cpu, (unsigned long long)v,
					 (unsigned long long)want);
		}
	}
	cache_free(&c);

	/* an R10000 before 3.0: no misprediction rate; an input off: none */
	CONF(&cfg, "simCpurev", "2.6");
	CONF(&cfg, "simRate", "hw.r10kevctr.cycles off");
	two_polls(&cfg, &c);
	assert_int_equal(
	    stat_value(&c, (size_t)stat_index_by_name("stat.branch.mispredict"),
		       -1, &v),
	    SAMPLE_NONE);
	assert_int_equal(
	    stat_value(&c, (size_t)stat_index_by_name("stat.ipc"), 0, &v),
	    SAMPLE_NONE);
	assert_int_equal(
	    stat_value(&c, (size_t)stat_index_by_name("stat.scond.ok"), 0, &v),
	    SAMPLE_OK);
	cache_free(&c);
	config_free(&cfg);
}

/* One replay interval: IPC per CPU and summed from the same deltas; at
 * the end (no deltas) no instance; before the second poll none. */
static void replay_predicted(void **state)
{
	char path[] = "/tmp/hwr-stats-XXXXXX";
	int fd = mkstemp(path);
	const char *text = "0 - hw.r10kevctr.cpurev 3.1\n"
			   "0 0 hw.r10kevctr.cycles 1000\n"
			   "0 1 hw.r10kevctr.cycles 1000\n"
			   "0 0 hw.r10kevctr.grad.instrg 10\n"
			   "0 1 hw.r10kevctr.grad.instrg 10\n"
			   "5 0 hw.r10kevctr.cycles 3000\n"
			   "5 1 hw.r10kevctr.cycles 4000\n"
			   "5 0 hw.r10kevctr.grad.instrg 210\n"
			   "5 1 hw.r10kevctr.grad.instrg 410\n";
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);

	struct config cfg;
	struct cache c;
	uint64_t v;
	size_t ipc = (size_t)stat_index_by_name("stat.ipc");
	config_defaults(&cfg);
	CONF(&cfg, "backend", "replay");
	CONF(&cfg, "replayFile", "%s", path);
	two_polls(&cfg, &c);
	unlink(path);
	assert_int_equal(stat_value(&c, ipc, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 200 * 1000 / 2000); /* 100 */
	assert_int_equal(stat_value(&c, ipc, 1, &v), SAMPLE_OK);
	assert_int_equal(v, 400 * 1000 / 3000); /* 133 */
	assert_int_equal(stat_value(&c, ipc, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 600 * 1000 / 5000); /* 120, not 100 + 133 */
	assert_int_equal(
	    stat_value(&c,
		       (size_t)stat_index_by_name("stat.pcache.dmiss.ratio"),
		       -1, &v),
	    SAMPLE_NONE); /* not recorded */
	cache_free(&c);
	config_free(&cfg);
}

static void emit_count(void *ctx, const struct alarm *a, size_t index,
		       enum alarm_event_kind kind)
{
	(*(unsigned *)ctx)++;
}

/* "stat.NAME" in an alarm line: absolute only, and it fires. */
static void alarms_on_statistics(void **state)
{
	struct alarm_config ac;
	struct alarm_set set = {0};
	struct config cfg;
	struct cache c;
	char err[256];
	unsigned fired = 0;

	assert_int_not_equal(alarm_config_parse("x stat.ipc sum rate 2 1", &ac,
						err, sizeof(err)),
			     0);
	assert_non_null(strstr(err, "use absolute"));
	assert_int_not_equal(
	    alarm_config_parse("x stat.nosuch sum absolute 2 1", &ac, err,
			       sizeof(err)),
	    0);
	assert_int_equal(
	    alarm_config_parse("ipc stat.ipc each absolute 700 500", &ac, err,
			       sizeof(err)),
	    0);
	assert_string_equal(ac.metric, "stat.ipc");
	assert_int_equal(alarm_set_build(&set, &ac, 1, NULL), 0);
	config_defaults(&cfg);
	CONF(&cfg, "simCpus", "2");
	two_polls(&cfg, &c);
	/* IPC 0.769 on each CPU: both rise over 0.700 at startup */
	assert_int_equal(alarms_evaluate(&c, &set, emit_count, &fired), 2);
	assert_int_equal(fired, 2);
	alarm_set_free(&set);
	cache_free(&c);
	config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sim_predicted),
	    cmocka_unit_test(replay_predicted),
	    cmocka_unit_test(alarms_on_statistics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
