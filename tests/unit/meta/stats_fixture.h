/*
 * stats_fixture.h - the shared set-up of the derived statistics' tests
 * (test_stats_values.c, test_stats_quotes.c): counters by short name,
 * their sim rates, and a backend polled twice into a cache (the sim, or a
 * replay recording) on the test's clock.
 */
#ifndef HWR10K_STATS_FIXTURE_H
#define HWR10K_STATS_FIXTURE_H

#include "testenv.h"

#include <ctype.h>
#include <stdlib.h>
#include <unistd.h>

#include "alarm/alarm_eval.h"
#include "backend/backend.h"
#include "cache/stat_eval.h"
#include "meta/stats.h"
#include "testconf.h"

static inline int C(const char *name)
{
	char full[64];
	snprintf(full, sizeof(full), "%s%s", METRIC_PREFIX, name);
	return meta_counter_index_by_name(full);
}

static inline uint64_t rate(const char *name)
{
	return name[0] ? meta_counters[C(name)].sim_rate : 0;
}

/* The backend's clock, one poll interval per poll (the sim counts
 * elapsed time). */
static uint64_t now_ns;
static inline uint64_t test_clock(void)
{
	return now_ns;
}

/* Poll a backend twice (one interval) into c. */
static inline void two_polls(struct config *cfg, struct cache *c)
{
	struct backend b = {.clock_ns = test_clock};
	struct sample s = {0};
	char err[256];

	assert_int_equal(backend_open(&b, cfg, err, sizeof(err)), 0);
	cache_init(c);
	for (uint32_t t = 1; t <= 2; t++) {
		assert_int_equal(backend_read(&b, &s), 0);
		assert_int_equal(cache_sample_sort(&s), 0);
		assert_true(cache_update(c, &s, t) >= 0);
		now_ns += (uint64_t)cfg->poll_interval * 1000000000u;
	}
	backend_close(&b);
	cache_sample_free(&s);
}

/* Load a replay recording (text) into c over two polls. */
static inline void replay_two_polls(const char *text, struct cache *c)
{
	char path[64];
	struct config cfg;

	tmp_file_with(path, sizeof(path), "hwr-stats", text, strlen(text));
	conf_init(&cfg, "replay");
	CONF(&cfg, "replayFile", "%s", path);
	two_polls(&cfg, c);
	unlink(path);
	config_free(&cfg);
}

#endif
