/* test_cache.c - folding samples into monotonic counters and sums. */
#include "testenv.h"

#include "cache/cache.h"
#include "cache/stat_eval.h"
#include "meta/stats.h"

#define ALL ((counter_mask)((UINT64_C(1) << COUNTER_COUNT) - 1))

/* A sample of n CPUs numbered cpus[], counter c = base * (cpu + 1) + c. */
static void fill(struct sample *s, const unsigned *cpus, size_t n,
		 uint64_t base, uint32_t epoch)
{
	assert_int_equal(sample_reserve(s, n), 0);
	s->ncpus = n;
	s->counted = ALL;
	s->system_wide = 0;
	s->system_wide_stopped = false;
	s->ended = false;
	s->state = COUNTER_COUNT;
	snprintf(s->cpurev, sizeof(s->cpurev), "3.4");
	for (size_t i = 0; i < n; i++) {
		struct cpu_sample *cs = &s->cpus[i];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = cpus[i];
		cs->counting = true;
		cs->epoch = epoch;
		cs->time_enabled = base * 10;
		cs->time_running = base * 5;
		for (int c = 0; c < COUNTER_COUNT; c++)
			cs->value[c] = base * (cpus[i] + 1) + (uint64_t)c;
	}
}

static void assert_sums(const struct cache *c)
{
	for (int k = 0; k < COUNTER_COUNT; k++) {
		uint64_t sum = 0;
		for (size_t r = 0; r < c->nrows; r++)
			sum += cpu_row_value(c, &c->rows[r], k);
		assert_int_equal(sum, c->total[k]);
	}
}

/* The sum of the rows plus what the departed CPUs counted. */
static uint64_t rows_and_gone(const struct cache *c, int k)
{
	uint64_t sum = 0;
	for (size_t r = 0; r < c->nrows; r++)
		sum += cpu_row_value(c, &c->rows[r], k);
	for (size_t g = 0; g < c->ngone; g++)
		sum += c->gone[g].row.raw[k] + c->gone[g].offset[k];
	return sum;
}

/* Two CPUs, counters 0 (cycles-like) and 1 (instructions-like): CPU c
 * counts (c + 1) * 100 of counter 0 and (c + 1) * 30 of counter 1 per
 * second; poll t at t seconds. */
static void steady(struct sample *s, unsigned t)
{
	const unsigned two[] = {0, 1};
	fill(s, two, 2, 0, 1);
	s->time_ns = (uint64_t)t * 1000000000u;
	for (size_t i = 0; i < 2; i++) {
		s->cpus[i].value[0] = (i + 1) * 100 * t;
		s->cpus[i].value[1] = (i + 1) * 30 * t;
	}
}

/* Cycles and instructions of CPUs 0 and 1 at poll t (t seconds, uptime
 * t * 100): v[cpu] = {cycles, instructions}, -1 for no reading (the
 * value held from held[cpu], which keeps the last readings). */
static int poll_two(struct cache *c, struct sample *s, unsigned t,
		    const long long v[2][2], uint64_t held[2][2])
{
	const int k[2] = {counter_index_by_name("hw.r10kevctr.cycles"),
			  counter_index_by_name("hw.r10kevctr.grad.instrg")};
	steady(s, t);
	for (size_t cpu = 0; cpu < 2; cpu++)
		for (size_t j = 0; j < 2; j++) {
			if (v[cpu][j] < 0)
				s->cpus[cpu].unread |= COUNTER_BIT(k[j]);
			else
				held[cpu][j] = (uint64_t)v[cpu][j];
			s->cpus[cpu].value[k[j]] = held[cpu][j];
		}
	return cache_update(c, s, t * 100);
}

/* The fixture of the tests that need one cache and one sample: fresh
 * for each test (setup), freed after it (teardown). */
static struct cache c;
static struct sample s;

static int setup(void **state)
{
	(void)state;
	cache_init(&c);
	memset(&s, 0, sizeof(s));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cache_free(&c);
	sample_free(&s);
	return 0;
}


static void first_poll_and_deltas(void **state)
{
	const unsigned cpus[] = {0, 1, 3};

	fill(&s, cpus, 3, 1000, 1);
	assert_int_equal(cache_update(&c, &s, 100), 0);
	assert_int_equal(c.nrows, 3);
	assert_int_equal(c.rows[2].cpu, 3);
	assert_int_equal(cpu_row_value(&c, &c.rows[2], 0), 4000);
	assert_int_equal(c.total[0], 1000 + 2000 + 4000);
	assert_int_equal(c.discontinuity_time, 0);
	assert_false(c.total_delta_valid);
	assert_sums(&c);

	fill(&s, cpus, 3, 1500, 1);
	assert_int_equal(cache_update(&c, &s, 200), 0);
	assert_int_equal(cpu_row_value(&c, &c.rows[1], 5), 3005);
	assert_int_equal(c.rows[1].delta[5], 1000);
	assert_true(c.rows[1].delta_valid);
	assert_true(c.total_delta_valid);
	assert_int_equal(c.total_delta[0], 500 + 1000 + 2000);
	assert_int_equal(c.rows[0].duty_cycle, 50);
	assert_int_equal(c.rows[0].time_enabled, 15000);
	assert_int_equal(c.last_poll_time, 200);
	assert_int_equal(c.polls, 2);
	assert_sums(&c);
	assert_non_null(cache_row(&c, 3));
	assert_null(cache_row(&c, 2));
	assert_int_equal(cache_row_after(&c, 1), 2);
	assert_int_equal(cache_row_after(&c, 3), 3);
}

static void cpu_leaves_and_joins(void **state)
{
	const unsigned two[] = {0, 1}, one[] = {0}, three[] = {0, 1, 2};

	fill(&s, two, 2, 1000, 1);
	cache_update(&c, &s, 100);
	uint64_t before = c.total[0];
	fill(&s, one, 1, 1100, 1);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.discontinuity_time, 200);
	assert_non_null(strstr(c.last_discontinuity, "CPU 1 left"));
	assert_int_equal(c.nrows, 1);
	/* the total never goes backwards: CPU 1's counts stay in it */
	assert_int_equal(c.total[0], before + 100);
	assert_false(c.total_delta_valid);

	fill(&s, three, 3, 1200, 1);
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_int_equal(c.discontinuity_time, 300);
	assert_int_equal(c.nrows, 3);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 0), 0), 1200);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 2), 0),
			 3600); /* since its epoch */
	assert_true(c.total[0] >= before);
}

static void restart_and_reset(void **state)
{
	const unsigned one[] = {0};

	fill(&s, one, 1, 1000, 1);
	cache_update(&c, &s, 100);
	/* new epoch: counting restarted, the new reading is the delta */
	fill(&s, one, 1, 10, 2);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 0), 1010);
	assert_false(c.rows[0].delta_valid);
	/* same epoch, value lower: a reset the backend did not announce */
	fill(&s, one, 1, 5, 2);
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 0), 1015);
	assert_int_equal(c.total[0], 1015);
	/* steady again */
	fill(&s, one, 1, 7, 2);
	assert_int_equal(cache_update(&c, &s, 400), 0);
	assert_int_equal(c.discontinuity_time, 300);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 0), 1017);
	/* a CPU joins: the rows move, CPU 0's value goes on from 1017 */
	const unsigned two[] = {0, 1};
	fill(&s, two, 2, 8, 2);
	assert_int_equal(cache_update(&c, &s, 500), 1);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 0), 0), 1018);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 1), 0), 16);
}

static void stop_and_resume(void **state)
{
	const unsigned one[] = {4};

	fill(&s, one, 1, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, one, 1, 9999, 1);
	s.cpus[0].counting = false;
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.rows[0].status, CPU_STOPPED);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 0), 5000);	/* frozen */
	assert_int_equal(cache_update(&c, &s, 300), 0); /* still stopped */
	fill(&s, one, 1, 20, 7);
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(c.rows[0].status, CPU_COUNTING);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 0), 5100);
	assert_non_null(strstr(c.last_discontinuity, "CPU 4 resumed"));
}

static void counted_set_changes(void **state)
{
	const unsigned one[] = {0};

	fill(&s, one, 1, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, one, 1, 2000, 1);
	s.counted = ALL & ~COUNTER_BIT(3);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_false(cache_counted(&c, 3));
	assert_true(cache_counted(&c, 2));
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 3), 1003); /* kept, not served */
	assert_int_equal(c.rows[0].delta[3], 1003);
	/* an uncounted counter's value is ignored, even a lower one */
	fill(&s, one, 1, 2500, 1);
	s.counted = ALL & ~COUNTER_BIT(3);
	s.cpus[0].value[3] = 1;
	assert_int_equal(cache_update(&c, &s, 300), 0);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 3), 1003);
	assert_int_equal(c.rows[0].delta[3], 1003);
	assert_int_equal(c.rows[0].raw[3], 1003);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 2), 2502);
	/* counted again: the delta since its last reading */
	fill(&s, one, 1, 3000, 1);
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 3), 3003);
	assert_int_equal(c.rows[0].delta[3], 2000);
	assert_null(strstr(c.last_discontinuity, "backwards"));
}

static void duplicate_cpu_rejected(void **state)
{
	const unsigned dup[] = {2, 1, 2};
	fill(&s, dup, 3, 1, 1);
	assert_int_equal(sample_sort(&s), -1);
	const unsigned ok[] = {5, 1, 3};
	fill(&s, ok, 3, 1, 1);
	assert_int_equal(sample_sort(&s), 0);
	assert_int_equal(s.cpus[0].cpu, 1);
	assert_int_equal(s.cpus[2].cpu, 5);
}

/* A counter counted system-wide only: no per-CPU value, its sum follows
 * the backend's system-wide reading, a new epoch is a discontinuity. */
static void system_wide_counters(void **state)
{
	const unsigned cpus[] = {0, 1};
	uint64_t v;

	fill(&s, cpus, 2, 1000, 1);
	s.system_wide = COUNTER_BIT(0);
	s.total[0] = 50;
	s.total_epoch = 7;
	assert_int_equal(cache_update(&c, &s, 100), 0);
	assert_int_equal(c.total[0], 50); /* not 1000 + 2000 */
	assert_int_equal(c.total[1], 1001 + 2001);
	assert_false(cache_counted_per_cpu(&c, 0));
	assert_true(cache_counted_per_cpu(&c, 1));
	assert_int_equal(cpu_row_value(&c, &c.rows[0], 0), 0);

	fill(&s, cpus, 2, 1500, 1);
	s.system_wide = COUNTER_BIT(0);
	s.total[0] = 80;
	s.total_epoch = 7;
	assert_int_equal(cache_update(&c, &s, 200), 0);
	assert_int_equal(c.total[0], 80);
	assert_int_equal(c.total_delta[0], 30);
	assert_int_equal(cache_value(&c, 0, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 80);
	assert_int_equal(cache_value(&c, 0, 0, &v), SAMPLE_NONE);
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_NONE);

	/* the system-wide reading restarts: its new value is the delta */
	s.total[0] = 5;
	s.total_epoch = 8;
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_non_null(strstr(c.last_discontinuity, "system-wide"));
	assert_int_equal(c.total[0], 85);
	assert_int_equal(c.discontinuity_time, 300);

	/* a restart whose first reading is above the last one: still a new
	 * epoch (its whole value counted since), not a step of 200 - 5 */
	s.total[0] = 200;
	s.total_epoch = 9;
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(c.total[0], 285);
	assert_int_equal(c.discontinuity_time, 400);
}


/* Each CPU counts +100 per set; CPU 1 is missing from one set (a replay
 * set or a PCP record without it) and comes back in the same epoch: the
 * sum is what the CPUs counted (800), never 900; CPU 1's row resumes. */
static void cpu_missing_from_one_set(void **state)
{
	const unsigned two[] = {0, 1}, one[] = {0};
	uint64_t v;

	for (uint64_t t = 0; t <= 4; t++) {
		bool gap = t == 2;
		fill(&s, gap ? one : two, gap ? 1 : 2, 0, 1);
		for (size_t i = 0; i < s.ncpus; i++)
			for (int k = 0; k < COUNTER_COUNT; k++)
				s.cpus[i].value[k] = 100 * t;
		s.time_ns = (t + 1) * 1000000000u;
		int disc = cache_update(&c, &s, (uint32_t)(100 * (t + 1)));
		assert_int_equal(disc, t == 2 || t == 3);
		assert_int_equal(c.total[0], rows_and_gone(&c, 0));
	}
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 0), 0), 400);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 1), 0), 400);
	assert_int_equal(c.total[0], 800);
	assert_int_equal(c.ngone, 0);
	/* the return's delta spans the gap: no rate for it then, and the
	 * next interval is steady again */
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_OK);
}

/* A CPU leaves and comes back in a new epoch: its value goes on from
 * where it left, plus the new epoch's counts; the sum equals rows plus
 * the departed. */
static void cpu_returns_in_new_epoch(void **state)
{
	const unsigned two[] = {0, 1}, one[] = {0};
	uint64_t v;

	fill(&s, two, 2, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, one, 1, 1100, 1);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.ngone, 1);
	assert_int_equal(c.total[0], rows_and_gone(&c, 0));
	fill(&s, two, 2, 1200, 1);
	s.cpus[1].epoch = 2;
	for (int k = 0; k < COUNTER_COUNT; k++)
		s.cpus[1].value[k] = 30;
	assert_int_equal(cache_update(&c, &s, 300), 1);
	assert_non_null(strstr(c.last_discontinuity, "CPU 1 returned"));
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 1), 0), 2000 + 30);
	assert_int_equal(c.total[0], rows_and_gone(&c, 0));
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_DISCONTINUITY);
}

/* pmcd lost: every CPU stopped and the system-wide reading stopped; the
 * summed rates are unknown (no instance), never 0, poll after poll. */
static void nothing_counting_has_no_sum_rate(void **state)
{
	const unsigned two[] = {0, 1};
	uint64_t v;

	for (uint64_t t = 1; t <= 2; t++) {
		fill(&s, two, 2, 1000 * t, 1);
		s.system_wide = COUNTER_BIT(0);
		s.total[0] = 10 * t;
		s.time_ns = t * 1000000000u;
		cache_update(&c, &s, (uint32_t)(100 * t));
	}
	assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 10);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	for (uint64_t t = 3; t <= 5; t++) {
		fill(&s, two, 2, 1000 * t, 1);
		s.cpus[0].counting = s.cpus[1].counting = false;
		s.system_wide = COUNTER_BIT(0);
		s.system_wide_stopped = true;
		s.total[0] = 20;
		s.time_ns = t * 1000000000u;
		cache_update(&c, &s, (uint32_t)(100 * t));
		assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_delta(&c, 1, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_DISCONTINUITY);
	}
	/* one CPU counting again: its sum has a source */
	fill(&s, two, 2, 9000, 2);
	s.cpus[1].counting = false;
	s.time_ns = 6000000000u;
	cache_update(&c, &s, 600);
	fill(&s, two, 2, 9100, 2);
	s.cpus[1].counting = false;
	s.time_ns = 7000000000u;
	cache_update(&c, &s, 700);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
}

/* The recording ended: rows say so, values and times stand, no rate or
 * delta is served (summed or per CPU), and it is no discontinuity. */
static void recording_ended(void **state)
{
	const unsigned two[] = {0, 1};
	uint64_t v;

	fill(&s, two, 2, 1000, 1);
	cache_update(&c, &s, 100);
	fill(&s, two, 2, 1500, 1);
	cache_update(&c, &s, 200);
	uint64_t total = c.total[3], enabled = c.rows[0].time_enabled;
	for (uint32_t t = 3; t <= 5; t++) {
		fill(&s, two, 2, 1500, 1);
		s.ended = true;
		s.cpus[0].time_enabled = 99999;
		assert_int_equal(cache_update(&c, &s, 100 * t), 0);
		assert_int_equal(c.rows[0].status, CPU_ENDED);
		assert_int_equal(c.rows[1].status, CPU_ENDED);
		assert_int_equal(c.total[3], total);
		assert_int_equal(c.rows[0].time_enabled, enabled);
		assert_int_equal(cache_rate(&c, 3, -1, &v), SAMPLE_NONE);
		assert_int_equal(cache_rate(&c, 3, 0, &v), SAMPLE_NONE);
		assert_int_equal(cache_value(&c, 3, 1, &v), SAMPLE_NONE);
	}
	assert_int_equal(c.discontinuity_time, 0);
}


static int IPC(void)
{
	return (int)stat_index_by_name("stat.ipc");
}

static void missing_reading(void **state)
{
	uint64_t v;
	int cyc = counter_index_by_name("hw.r10kevctr.cycles");
	int ins = counter_index_by_name("hw.r10kevctr.grad.instrg");

	for (unsigned t = 0; t < 2; t++) {
		steady(&s, t);
		for (size_t i = 0; i < 2; i++) {
			s.cpus[i].value[cyc] = (i + 1) * 1000 * t;
			s.cpus[i].value[ins] = (i + 1) * 500 * t;
		}
		cache_update(&c, &s, t * 100);
	}
	assert_int_equal(stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_OK);
	assert_int_equal(v, 500);
	/* t 2: CPU 0 has no instructions (held at 500); CPU 1 has */
	steady(&s, 2);
	s.cpus[0].value[cyc] = 2000;
	s.cpus[0].value[ins] = 500;
	s.cpus[0].unread = COUNTER_BIT(ins);
	s.cpus[1].value[cyc] = 4000;
	s.cpus[1].value[ins] = 2000;
	assert_int_equal(cache_update(&c, &s, 200), 0); /* no discontinuity */
	assert_int_equal(cache_rate(&c, ins, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, ins, -1, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, ins, 1, &v), SAMPLE_OK);
	assert_int_equal(v, 1000);
	assert_int_equal(cache_rate(&c, cyc, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 1000);
	assert_int_equal(stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_UNREAD);
	assert_int_equal(stat_value(&c, (size_t)IPC(), -1, &v), SAMPLE_UNREAD);
	assert_int_equal(stat_value(&c, (size_t)IPC(), 1, &v), SAMPLE_OK);
	assert_int_equal(cache_value(&c, ins, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(v, 500); /* held */
	assert_sums(&c);
	/* t 3: CPU 0 counted 2500 instructions since t 1, in 2000 cycles */
	steady(&s, 3);
	s.cpus[0].value[cyc] = 3000;
	s.cpus[0].value[ins] = 3000;
	s.cpus[1].value[cyc] = 6000;
	s.cpus[1].value[ins] = 3000;
	assert_int_equal(cache_update(&c, &s, 300), 0);
	assert_int_equal(cache_rate(&c, ins, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 1250); /* 2500 over 2 s */
	assert_int_equal(cache_rate(&c, ins, -1, &v), SAMPLE_OK);
	assert_int_equal(v, (2500 + 2000) / 2); /* the sum: since t 1 too */
	assert_int_equal(cache_delta(&c, ins, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_OK);
	assert_int_equal(v, 2500 * 1000 / 2000);
	assert_int_equal(stat_value(&c, (size_t)IPC(), -1, &v), SAMPLE_OK);
	assert_int_equal(v, (2500 + 2000) * 1000 / (2000 + 4000));
	assert_int_equal(stat_value(&c, (size_t)IPC(), 1, &v), SAMPLE_OK);
	assert_int_equal(v, 1000 * 1000 / 2000); /* CPU 1: the last second */
	/* t 4: steady again, one interval */
	steady(&s, 4);
	s.cpus[0].value[cyc] = 4000;
	s.cpus[0].value[ins] = 3100;
	s.cpus[1].value[cyc] = 8000;
	s.cpus[1].value[ins] = 4000;
	cache_update(&c, &s, 400);
	assert_int_equal(cache_rate(&c, ins, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
	assert_int_equal(stat_value(&c, (size_t)IPC(), 0, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
	assert_int_equal(c.discontinuity_time, 0);
	assert_sums(&c);
}

static void reset_of_one_cell(void **state)
{
	uint64_t v;

	for (unsigned t = 0; t < 2; t++) {
		steady(&s, t);
		cache_update(&c, &s, t * 100);
	}
	/* t 2: the backend says CPU 0's counter 0 restarted; it counted 7
	 * since (its value is already 100 + 7) */
	steady(&s, 2);
	s.cpus[0].value[0] = 107;
	s.cpus[0].reset = COUNTER_BIT(0);
	assert_int_equal(cache_update(&c, &s, 200), 1);
	assert_int_equal(c.discontinuity_time, 200);
	assert_non_null(strstr(c.last_discontinuity, "CPU 0"));
	assert_non_null(strstr(c.last_discontinuity, "(reset)"));
	assert_int_equal(cache_rate(&c, 0, 0, &v), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_OK);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_OK); /* counts on */
	assert_int_equal(v, 30);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 90);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 0), 0), 107);
	assert_sums(&c);
	/* t 3: exact again */
	steady(&s, 3);
	s.cpus[0].value[0] = 207;
	assert_int_equal(cache_update(&c, &s, 300), 0);
	assert_int_equal(cache_rate(&c, 0, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 100);
	assert_int_equal(cache_rate(&c, 0, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 300);
	/* a reading lower than the last without the backend saying so: the
	 * cache's own rule, the same cell-wise result */
	steady(&s, 4);
	s.cpus[1].value[1] = 5;
	assert_int_equal(cache_update(&c, &s, 400), 1);
	assert_int_equal(cache_rate(&c, 1, 1, &v), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, 0, 1, &v), SAMPLE_OK);
	assert_int_equal(cpu_row_value(&c, cache_row(&c, 1), 1), 60 * 3 + 5);
	assert_sums(&c);
}

/* A cell unread from the row's first poll has no base: no rate at its
 * first reading, one at its second. */
static void unread_from_the_start(void **state)
{
	uint64_t v;

	steady(&s, 0);
	s.cpus[0].unread = COUNTER_BIT(1);
	s.cpus[0].value[1] = 0;
	cache_update(&c, &s, 0);
	steady(&s, 1);
	s.cpus[0].unread = COUNTER_BIT(1);
	s.cpus[0].value[1] = 0;
	cache_update(&c, &s, 100);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_UNREAD);
	steady(&s, 2);
	s.cpus[0].value[1] = 0; /* its first reading: the base */
	cache_update(&c, &s, 200);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_UNREAD);
	steady(&s, 3);
	s.cpus[0].value[1] = 30;
	cache_update(&c, &s, 300);
	assert_int_equal(cache_rate(&c, 1, 0, &v), SAMPLE_OK);
	assert_int_equal(v, 30);
	assert_int_equal(cache_rate(&c, 1, -1, &v), SAMPLE_OK);
	assert_int_equal(v, 90);
}


/* The sum's rate and IPC must not span a reset of one of its cells,
 * also when the reset comes at a poll where another CPU has no reading
 * of that counter (issue 38): CPU 0's cycles 1000, 2000, 7, 1007 and
 * CPU 1's 1000, 2000, (none), 4000 once served a summed rate of 1503
 * where the rows say 1000 + 1000 and the truth is none. */
static void reset_behind_missing_reading(void **state)
{
	const long long v[][2][2] = {
	    {{1000, 500}, {1000, 400}}, {{2000, 1000}, {2000, 800}},
	    {{7, 1500}, {-1, -1}},	{{1007, 2000}, {4000, 1600}},
	    {{2007, 2500}, {5000, 2000}},
	};
	int cyc = counter_index_by_name("hw.r10kevctr.cycles");
	int ins = counter_index_by_name("hw.r10kevctr.grad.instrg");
	uint64_t held[2][2] = {{0}}, r;

	poll_two(&c, &s, 0, v[0], held);
	poll_two(&c, &s, 1, v[1], held);
	/* t 2: CPU 0's cycles restart, CPU 1 has no cycles */
	assert_int_equal(poll_two(&c, &s, 2, v[2], held), 1);
	assert_non_null(strstr(c.last_discontinuity, "CPU 0"));
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_UNREAD);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_UNREAD);
	assert_int_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_UNREAD);
	/* t 3: the rows are exact; the sum's span holds the reset */
	assert_int_equal(poll_two(&c, &s, 3, v[3], held), 0);
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_OK);
	assert_int_equal(r, 1000);
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 2000 over 2 s */
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_equal(cache_delta(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_not_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_OK);
	assert_int_equal(stat_value(&c, (size_t)IPC(), 0, &r), SAMPLE_OK);
	assert_int_equal(r, 500 * 1000 / 1000);
	assert_int_equal(stat_value(&c, (size_t)IPC(), 1, &r), SAMPLE_OK);
	assert_int_equal(r, 800 * 1000 / 2000); /* since t 1 */
	assert_int_equal(cache_rate(&c, ins, -1, &r), SAMPLE_OK);
	assert_int_equal(r, (1000 + 800) / 2); /* no reset: since t 1 */
	assert_sums(&c);
	/* t 4: one interval with every reading: exact again */
	assert_int_equal(poll_two(&c, &s, 4, v[4], held), 0);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000 + 1000);
	assert_int_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_OK);
	assert_int_equal(r, (500 + 400) * 1000 / 2000);
	assert_sums(&c);
}

/* The other orders: CPU 1's reading goes missing first and CPU 0 resets
 * while it still waits (t 2, 3); then CPU 0 resets while CPU 1 has no
 * reading, and CPU 0 has none at the next poll while CPU 1 has one (t
 * 6, 7): the sum's next reading with every CPU (t 4, t 8) has no rate
 * and no IPC, the one after has both. */
static void reset_while_waiting(void **state)
{
	const long long v[][2][2] = {
	    {{1000, 500}, {1000, 400}},	 {{2000, 1000}, {2000, 800}},
	    {{3000, 1500}, {-1, -1}},	 {{5, 2000}, {-1, -1}},
	    {{1005, 2500}, {5000, 2000}}, {{2005, 3000}, {6000, 2400}},
	    {{9, 3500}, {-1, -1}},	 {{-1, -1}, {8000, 3200}},
	    {{2009, 4500}, {9000, 3600}}, {{3009, 5000}, {10000, 4000}},
	};
	int cyc = counter_index_by_name("hw.r10kevctr.cycles");
	uint64_t held[2][2] = {{0}}, r;

	for (unsigned t = 0; t < 4; t++)
		poll_two(&c, &s, t, v[t], held);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_UNREAD);
	poll_two(&c, &s, 4, v[4], held);
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_OK);
	assert_int_equal(r, 1000);
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 3000 over 3 s */
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_not_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_OK);
	poll_two(&c, &s, 5, v[5], held);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_OK);
	assert_int_equal(r, 2000);
	assert_int_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_OK);
	assert_int_equal(r, (500 + 400) * 1000 / 2000);
	for (unsigned t = 6; t < 8; t++) {
		poll_two(&c, &s, t, v[t], held);
		assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_UNREAD);
	}
	assert_int_equal(cache_rate(&c, cyc, 1, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 2000 over 2 s */
	poll_two(&c, &s, 8, v[8], held);
	assert_int_equal(cache_rate(&c, cyc, 0, &r), SAMPLE_OK);
	assert_int_equal(r, 1000); /* 2000 since its reset's 9, over 2 s */
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_DISCONTINUITY);
	assert_int_not_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_OK);
	assert_sums(&c);
	poll_two(&c, &s, 9, v[9], held);
	assert_int_equal(cache_rate(&c, cyc, -1, &r), SAMPLE_OK);
	assert_int_equal(r, 2000);
	assert_int_equal(stat_value(&c, (size_t)IPC(), -1, &r), SAMPLE_OK);
	assert_int_equal(r, (500 + 400) * 1000 / 2000);
	assert_sums(&c);
}

/* hwR10kEvCtrCountingTime: the known intervals, summed; with the
 * counters it gives the exact rate between any two polls. */
static void counting_time(void **state)
{
	/* poll k at times[k] s; CPU 0 counts rates[k] per s before it */
	const unsigned times[] = {5, 8, 9, 14, 20};
	const uint64_t rates[] = {0, 1000, 5000, 2000, 3000};
	uint64_t v = 0, e[5], t[5];

	for (int k = 0; k < 5; k++) {
		steady(&s, times[k]);
		v += k ? rates[k] * (times[k] - times[k - 1]) : 0;
		s.cpus[0].value[0] = v;
		cache_update(&c, &s, times[k] * 100);
		e[k] = cpu_row_value(&c, &c.rows[0], 0);
		t[k] = c.counting_ns;
	}
	assert_int_equal(t[0], 0);
	assert_int_equal(t[4], 15 * 1000000000ull);
	/* polls 1 to 4: 5000 + 10000 + 18000 events in 12 s */
	assert_int_equal((e[4] - e[1]) * 1000000000ull / (t[4] - t[1]),
			 33000 / 12);
	/* a clock that went backwards adds nothing, nor does the first poll
	 * of another backend's clock */
	steady(&s, 3);
	cache_update(&c, &s, 2100);
	assert_int_equal(c.counting_ns, t[4]);
	assert_int_equal(c.interval_ns, 0);
	cache_clock_restart(&c);
	steady(&s, 100);
	cache_update(&c, &s, 2200);
	assert_int_equal(c.counting_ns, t[4]);
	steady(&s, 102);
	cache_update(&c, &s, 2300);
	assert_int_equal(c.counting_ns, t[4] + 2 * 1000000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(first_poll_and_deltas, setup, teardown),
	    cmocka_unit_test_setup_teardown(cpu_leaves_and_joins, setup, teardown),
	    cmocka_unit_test_setup_teardown(restart_and_reset, setup, teardown),
	    cmocka_unit_test_setup_teardown(stop_and_resume, setup, teardown),
	    cmocka_unit_test_setup_teardown(counted_set_changes, setup, teardown),
	    cmocka_unit_test_setup_teardown(duplicate_cpu_rejected, setup, teardown),
	    cmocka_unit_test_setup_teardown(system_wide_counters, setup, teardown),
	    cmocka_unit_test_setup_teardown(cpu_missing_from_one_set, setup, teardown),
	    cmocka_unit_test_setup_teardown(cpu_returns_in_new_epoch, setup, teardown),
	    cmocka_unit_test_setup_teardown(nothing_counting_has_no_sum_rate, setup, teardown),
	    cmocka_unit_test_setup_teardown(recording_ended, setup, teardown),
	    cmocka_unit_test_setup_teardown(missing_reading, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_of_one_cell, setup, teardown),
	    cmocka_unit_test_setup_teardown(unread_from_the_start, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_behind_missing_reading, setup, teardown),
	    cmocka_unit_test_setup_teardown(reset_while_waiting, setup, teardown),
	    cmocka_unit_test_setup_teardown(counting_time, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
