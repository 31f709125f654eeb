/*
 * fuzz_mibview.c - GET and GETNEXT with arbitrary OIDs against a populated
 * cache (sim CPUs 0, 2, 5 with one counter uncounted, two alarms).  The
 * first byte chooses whether the module root is prefixed; then each arc
 * is 1, 4 or 8 bytes.  Properties: GETNEXT answers an OID greater than the
 * request whose GET succeeds with the same object; GET never succeeds
 * for an OID outside the module.
 */
#include <string.h>

#include "alarm.h"
#include "cache.h"
#include "fuzz.h"
#include "mibview.h"

static struct cache cache;
static struct alarm_set alarms;
static struct served served;
static const struct mib_view view = {&cache, &served};

static void setup(void)
{
	struct sample s = {0};
	struct alarm_config cfg[2];
	char err[256];

	cache_init(&cache);
	sample_reserve(&s, 3);
	s.ncpus = 3;
	s.counted = ~COUNTER_BIT(7) & ((UINT64_C(1) << COUNTER_COUNT) - 1);
	s.state = 30;
	for (unsigned i = 0; i < 3; i++) {
		s.cpus[i].cpu = i == 2 ? 5 : i * 2;
		s.cpus[i].counting = i != 1;
		s.cpus[i].epoch = 1;
		for (int k = 0; k < COUNTER_COUNT; k++)
			s.cpus[i].value[k] = (uint64_t)(i + 1) * 1000 + k;
	}
	cache_update(&cache, &s, 100);
	for (unsigned i = 0; i < 3; i++)
		for (int k = 0; k < COUNTER_COUNT; k++)
			s.cpus[i].value[k] *= 2;
	s.time_ns = 5000000000u;
	cache_update(&cache, &s, 600);
	alarm_config_parse("a hw.r10kevctr.tlb sum rate 10 5", &cfg[0], err,
			   sizeof(err));
	alarm_config_parse("b hw.r10kevctr.cycles 2 absolute 10 5", &cfg[1],
			   err, sizeof(err));
	alarm_set_build(&alarms, cfg, 2, NULL);
	served_configure(&served, "sim", 5, &alarms);
	sample_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long q[MIBVIEW_OID_MAX * 4], next[MIBVIEW_OID_MAX];
	size_t n = 0, nlen = 0, i = 1;
	const struct mib_object *o = NULL, *o2 = NULL;
	struct mib_value v, v2;

	if (!cache.rows) {
		hwr_log_set(fuzz_quiet);
		setup();
	}
	if (size == 0)
		return 0;
	if (data[0] & 1)
		for (unsigned k = 0; k < mib_root_len; k++)
			q[n++] = mib_root[k];
	while (i < size && n < sizeof(q) / sizeof(q[0])) {
		unsigned w = data[i] >> 6 == 0 ? 8 : data[i] >> 6 == 1 ? 4 : 1;
		unsigned long arc = data[i] & 0x3f;
		i++;
		for (unsigned k = 1; k < w && i < size; k++)
			arc = arc << 8 | data[i++];
		q[n++] = arc;
	}
	if (mibview_getnext(&view, q, n, next, &nlen, &o, &v) == MV_OK) {
		FUZZ_ASSERT(nlen <= MIBVIEW_OID_MAX);
		FUZZ_ASSERT(mibview_oid_cmp(next, nlen, q, n) > 0);
		FUZZ_ASSERT(mibview_get(&view, next, nlen, &o2, &v2) == MV_OK);
		FUZZ_ASSERT(o2 == o && v2.type == v.type);
	}
	if (mibview_get(&view, q, n, &o, &v) == MV_OK) {
		FUZZ_ASSERT(n > mib_root_len);
		for (unsigned k = 0; k < mib_root_len; k++)
			FUZZ_ASSERT(q[k] == mib_root[k]);
	}
	return 0;
}
