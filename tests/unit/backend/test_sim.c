/* test_sim.c - the sim backend is deterministic and follows its config. */
#include "testenv.h"

#include "backend/backend.h"
#include "backend/backend_sim.h"
#include "testconf.h"

/* The backend's clock, moved by the test: the sim counts elapsed time. */
static uint64_t now_ns;
static uint64_t test_clock(void)
{
	return now_ns;
}
#define SEC UINT64_C(1000000000)

static void read_once(struct backend *b, struct sample *s)
{
	assert_int_equal(backend_read(b, s), 0);
	assert_int_equal(cache_sample_sort(s), 0);
}

/* Read, then let one poll interval pass. */
static void poll_once(struct backend *b, struct sample *s, unsigned interval)
{
	read_once(b, s);
	now_ns += interval * SEC;
}

static void predictable_values(void **state)
{
	struct config cfg;
	struct backend b = {.clock_ns = test_clock};
	struct sample s = {0};
	char err[256];

	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpus", "19");
	cfg.poll_interval = 5;
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	for (uint64_t k = 1; k <= 3; k++) {
		poll_once(&b, &s, 5);
		assert_int_equal(s.ncpus, 19);
		for (unsigned cpu = 0; cpu < 19; cpu++) {
			assert_int_equal(s.cpus[cpu].cpu, cpu);
			/* the CPU factor repeats every 8 CPUs */
			assert_int_equal(s.cpus[cpu].value[0],
					 195000000ull * (cpu % 8 + 1) * 5 *
					     (k - 1));
			assert_int_equal(s.cpus[cpu].time_enabled,
					 5 * (k - 1) * 1000000000ull);
		}
	}
	/* revision 3.4: fucomp counted, vcc not; state = counters counted */
	int vcc = meta_counter_index_by_name("hw.r10kevctr.vcc");
	int fu = meta_counter_index_by_name("hw.r10kevctr.fucomp");
	assert_false(s.counted & COUNTER_BIT(vcc));
	assert_true(s.counted & COUNTER_BIT(fu));
	assert_int_equal(s.state, COUNTER_COUNT - 1);
	assert_string_equal(s.cpurev, "3.4");
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
}

static void revision_and_off(void **state)
{
	struct config cfg;
	struct backend b = {.clock_ns = test_clock};
	struct sample s = {0};
	char err[256];

	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpurev", "2.6");
	CONF(&cfg, "simRate", "%s off", meta_counters[0].fullname);
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	read_once(&b, &s);
	assert_true(s.counted & COUNTER_BIT(meta_counter_index_by_name(
				    "hw.r10kevctr.vcc")));
	assert_false(s.counted & COUNTER_BIT(meta_counter_index_by_name(
				     "hw.r10kevctr.fucomp")));
	assert_false(s.counted & COUNTER_BIT(0));
	assert_int_equal(s.state, COUNTER_COUNT - 2);
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
}

static void seed_offsets(void **state)
{
	struct config cfg;
	struct backend b1 = {.clock_ns = test_clock},
		       b2 = {.clock_ns = test_clock};
	struct sample s1 = {0}, s2 = {0};
	char err[256];

	conf_init(&cfg, NULL);
	CONF(&cfg, "simSeed", "42");
	CONF(&cfg, "simRate", "%s 0", meta_counters[1].fullname);
	assert_int_equal(backend_open(&b1, &cfg, err, sizeof(err)), 0);
	assert_int_equal(backend_open(&b2, &cfg, err, sizeof(err)), 0);
	read_once(&b1, &s1);
	read_once(&b2, &s2);
	assert_memory_equal(s1.cpus[1].value, s2.cpus[1].value,
			    sizeof(s1.cpus[1].value));
	assert_true(s1.cpus[0].epoch != s2.cpus[0].epoch);
	/* rate 0: the value is the offset alone, non-zero and below 2^40 */
	assert_true(s1.cpus[0].value[1] > 0);
	assert_true(s1.cpus[0].value[1] < (UINT64_C(1) << 40));
	assert_true(s1.cpus[0].value[1] != s1.cpus[1].value[1]);
	backend_close(&b1);
	backend_close(&b2);
	cache_sample_free(&s1);
	cache_sample_free(&s2);
	config_free(&cfg);
}

/* Counts follow elapsed time in whole seconds, not reads: extra reads
 * between polls (a reload's) add nothing, a late poll nothing, and over
 * a wall time W the count is rate * W; a reopened sim goes on on the same
 * clock, so reopens lose and add nothing. */
static void counts_by_elapsed_time(void **state)
{
	struct config cfg;
	struct backend b = {.clock_ns = test_clock};
	struct sample s = {0};
	char err[256];
	const uint64_t rate = meta_counters[0].sim_rate;

	conf_init(&cfg, NULL);
	cfg.poll_interval = 2;
	now_ns = 1000 * SEC;
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	read_once(&b, &s);
	assert_int_equal(s.cpus[0].value[0], 0); /* nothing elapsed */
	for (int i = 0; i < 100; i++) { /* 100 reads within 0.9 s */
		now_ns += 9 * SEC / 1000;
		read_once(&b, &s);
	}
	assert_int_equal(s.cpus[0].value[0], 0); /* no whole second yet */
	now_ns = 1000 * SEC + 2 * SEC + SEC / 10; /* a late poll */
	read_once(&b, &s);
	assert_int_equal(s.cpus[0].value[0], rate * 2);
	assert_int_equal(s.time_ns, 2 * SEC);
	now_ns = 1000 * SEC + 4 * SEC - SEC / 10;
	read_once(&b, &s);
	assert_int_equal(s.cpus[0].value[0], rate * 3);
	now_ns = 1000 * SEC + 60 * SEC; /* a minute after the first read */
	read_once(&b, &s);
	assert_int_equal(s.cpus[0].value[0], rate * 60);
	/* 30 reopens, one every 0.3 s: the sims together count the 9 s */
	uint64_t total = s.cpus[0].value[0];
	for (int i = 0; i < 30; i++) {
		uint64_t last = s.cpus[0].value[0];
		now_ns += 3 * SEC / 10;
		read_once(&b, &s); /* the old one, a last time */
		total += s.cpus[0].value[0] - last;
		backend_close(&b);
		assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
		read_once(&b, &s); /* the new one's base */
		assert_int_equal(s.cpus[0].value[0], 0);
	}
	assert_int_equal(total, rate * 69);
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
}

/* A reload keeps the sim open unless its own settings change; the poll
 * interval is taken without a reopen (the clock goes on in the new
 * step). */
static void keep_on_reload(void **state)
{
	struct config cfg, run; /* the next config, the one opened */
	struct backend b = {.clock_ns = test_clock};
	struct sample s = {0};
	char err[256];

	conf_init(&cfg, NULL);
	conf_init(&run, NULL);
	cfg.poll_interval = run.poll_interval = 5;
	now_ns = 0;
	assert_int_equal(backend_open(&b, &run, err, sizeof(err)), 0);
	read_once(&b, &s);
	now_ns += 5 * SEC;
	poll_once(&b, &s, 5); /* 5 s */
	assert_int_equal(s.cpus[0].value[0], 195000000ull * 5);
	cfg.poll_interval = 1; /* the reload, 5 s after the read */
	assert_true(backend_keep(&b, &run, &cfg));
	now_ns += 1 * SEC;
	read_once(&b, &s); /* 10 s, then 1 s of the new step */
	assert_int_equal(s.cpus[0].value[0], 195000000ull * 11);
	CONF(&cfg, "simCpus", "%d", SIM_CPUS_DEFAULT + 1);
	assert_false(backend_keep(&b, &run, &cfg));
	CONF(&cfg, "simCpus", "%d", SIM_CPUS_DEFAULT);
	assert_true(backend_keep(&b, &run, &cfg));
	CONF(&cfg, "simRate", "%s 7", meta_counters[3].fullname);
	assert_false(backend_keep(&b, &run, &cfg));
	CONF(&cfg, "simRate", "%s %llu", meta_counters[3].fullname,
	     (unsigned long long)meta_counters[3].sim_rate);
	assert_true(backend_keep(&b, &run, &cfg));
	CONF(&cfg, "simCpurev", "2.6");
	assert_false(backend_keep(&b, &run, &cfg));
	backend_close(&b);
	cache_sample_free(&s);
	config_free(&cfg);
	config_free(&run);
}

/* simNodes: groups node0..nodeN-1 over the CPUs split evenly, in every
 * reading; none without it. */
static void nodes_split_evenly(void **state)
{
	struct config cfg;
	struct backend b = {.clock_ns = test_clock};
	struct sample s = {0};
	char err[256];

	conf_init(&cfg, NULL);
	CONF(&cfg, "simCpus", "10");
	CONF(&cfg, "simNodes", "3");
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	read_once(&b, &s);
	assert_non_null(s.groups);
	assert_int_equal(s.groups->n, 3);
	assert_string_equal(s.groups->g[0].name, "node0");
	assert_string_equal(s.groups->g[0].text, "0-3");
	assert_string_equal(s.groups->g[1].text, "4-6");
	assert_string_equal(s.groups->g[2].text, "7-9");
	backend_close(&b);
	config_free(&cfg);
	conf_init(&cfg, NULL);
	assert_int_equal(backend_open(&b, &cfg, err, sizeof(err)), 0);
	read_once(&b, &s);
	assert_true(!s.groups || s.groups->n == 0);
	backend_close(&b);
	config_free(&cfg);
	cache_sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(keep_on_reload),
	    cmocka_unit_test(counts_by_elapsed_time),
	    cmocka_unit_test(predictable_values),
	    cmocka_unit_test(nodes_split_evenly),
	    cmocka_unit_test(revision_and_off),
	    cmocka_unit_test(seed_offsets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
