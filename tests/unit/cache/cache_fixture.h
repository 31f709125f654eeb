/*
 * cache_fixture.h - the shared set-up of the cache's tests
 * (test_cache_fold.c, test_cache_sets.c, test_cache_unread.c): samples
 * built by hand (fill, steady, poll_two), the checks of the sums against
 * the rows, and one cache and one sample, fresh for each test.
 */
#ifndef HWR10K_CACHE_FIXTURE_H
#define HWR10K_CACHE_FIXTURE_H

#include "testenv.h"

#include "cache/cache.h"
#include "cache/stat_eval.h"
#include "meta/stats.h"

#define ALL ((counter_mask)((UINT64_C(1) << COUNTER_COUNT) - 1))

/* A sample of n CPUs numbered cpus[], counter c = base * (cpu + 1) + c. */
static inline void fill(struct sample *s, const unsigned *cpus, size_t n,
			uint64_t base, uint32_t epoch)
{
	assert_int_equal(cache_sample_reserve(s, n), 0);
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

static inline void assert_sums(const struct cache *c)
{
	for (int k = 0; k < COUNTER_COUNT; k++) {
		uint64_t sum = 0;
		for (size_t r = 0; r < c->nrows; r++)
			sum += cache_cpu_row_value(c, &c->rows[r], k);
		assert_int_equal(sum, c->total[k]);
	}
}

/* The sum of the rows plus what the departed CPUs counted. */
static inline uint64_t rows_and_gone(const struct cache *c, int k)
{
	uint64_t sum = 0;
	for (size_t r = 0; r < c->nrows; r++)
		sum += cache_cpu_row_value(c, &c->rows[r], k);
	for (size_t g = 0; g < c->ngone; g++)
		sum += c->gone[g].row.raw[k] + c->gone[g].offset[k];
	return sum;
}

/* Two CPUs, counters 0 (cycles-like) and 1 (instructions-like): CPU c
 * counts (c + 1) * 100 of counter 0 and (c + 1) * 30 of counter 1 per
 * second; poll t at t seconds. */
static inline void steady(struct sample *s, unsigned t)
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
static inline int poll_two(struct cache *c, struct sample *s, unsigned t,
			   const long long v[2][2], uint64_t held[2][2])
{
	const int k[2] = {
	    meta_counter_index_by_name("hw.r10kevctr.cycles"),
	    meta_counter_index_by_name("hw.r10kevctr.grad.instrg")};
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

static inline int setup(void **state)
{
	(void)state;
	cache_init(&c);
	memset(&s, 0, sizeof(s));
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	cache_free(&c);
	cache_sample_free(&s);
	return 0;
}

#endif
