/*
 * mibview_fixture.h - the shared set-up of the MIB view's tests
 * (test_mibview_get.c, test_mibview_walk.c, test_mibview_edges.c): one
 * cache of CPUs 0 and 2 served as the agent serves it, for the whole
 * program (group set-up), and an object's OID by name.
 */
#ifndef HWR10K_MIBVIEW_FIXTURE_H
#define HWR10K_MIBVIEW_FIXTURE_H

#include "testenv.h"

#include <limits.h>

#include "cache/cache.h"
#include "meta/metrics.h"
#include "view/mibview.h"
#include "alarm/alarm.h"

static struct cache cache;
static struct served served;
static const struct mib_view view = {&cache, &served};

/* CPUs 0 and 2; every counter but fucomp (index of metric) counted. */
static inline int setup(void **state)
{
	struct sample s = {0};
	cache_init(&cache);
	cache_sample_reserve(&s, 2);
	s.ncpus = 2;
	s.counted =
	    ((UINT64_C(1) << COUNTER_COUNT) - 1) &
	    ~COUNTER_BIT(meta_counter_index_by_name("hw.r10kevctr.fucomp"));
	s.state = 30;
	snprintf(s.cpurev, sizeof(s.cpurev), "2.6");
	for (int i = 0; i < 2; i++) {
		s.cpus[i].cpu = (unsigned)i * 2;
		s.cpus[i].counting = true;
		s.cpus[i].epoch = 1;
		for (int c = 0; c < COUNTER_COUNT; c++)
			s.cpus[i].value[c] =
			    (uint64_t)(i + 1) * 1000 + (uint64_t)c;
	}
	s.cpus[1].value[0] = UINT64_MAX - 5; /* full 64 bits survive */
	view_served_init(&served);
	view_served_configure(&served, "sim", 5, NULL);
	cache_update(&cache, &s, 4242);
	cache_sample_free(&s);
	return 0;
}

static inline int teardown(void **state)
{
	cache_free(&cache);
	return 0;
}

static inline size_t oid_of(const char *name, unsigned long instance,
			    unsigned long *out)
{
	const struct mib_object *o = view_object(name);
	assert_non_null(o);
	return view_oid(o, instance, out);
}

#endif
