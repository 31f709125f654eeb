/*
 * test_cache_groups.c - the CPU groups' sums, folded from the same pass
 * as the per-CPU values and the totals: a CPU's gap and a counter's reset
 * stay in their group (cache_group.h).
 */
#include "testenv.h"

#include "cache/cache.h"
#include "cache/stat_eval.h"
#include "meta/stats.h"
#include "view/mibview.h"

#define ALL ((counter_mask)((UINT64_C(1) << COUNTER_COUNT) - 1))

/* CPU c counts (c + 1) * (k + 1) * 100 of counter k per second. */
static uint64_t value_at(unsigned cpu, int k, unsigned t)
{
	return (uint64_t)(cpu + 1) * (uint64_t)(k + 1) * 100u * t;
}

/* Poll t (t seconds, uptime t * 100) of CPUs 0..3 but `away`
 * (UINT_MAX: none); counter `reset_k` of CPU `reset_cpu` restarted from
 * 0 at reset_t (counts since then). */
struct scenario {
	unsigned away_from, away_to; /* CPU 1 away at these polls */
	unsigned reset_t;
	int reset_k;
};

static int poll(struct cache *c, struct sample *s, unsigned t,
		const struct scenario *sc)
{
	cache_sample_clear(s);
	assert_int_equal(cache_sample_reserve(s, 4), 0);
	s->counted = ALL;
	s->state = COUNTER_COUNT;
	snprintf(s->cpurev, sizeof(s->cpurev), "3.4");
	s->time_ns = (uint64_t)t * 1000000000u;
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		if (cpu == 1 && t >= sc->away_from && t <= sc->away_to)
			continue;
		struct cpu_sample *cs = &s->cpus[s->ncpus++];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = cpu;
		cs->counting = true;
		cs->epoch = 1;
		cs->time_enabled = cs->time_running = s->time_ns;
		for (int k = 0; k < COUNTER_COUNT; k++)
			cs->value[k] = value_at(cpu, k, t);
		if (cpu == 2 && sc->reset_t && t >= sc->reset_t)
			cs->value[sc->reset_k] =
			    value_at(cpu, sc->reset_k, t - sc->reset_t + 1) / 2;
	}
	return cache_update(c, s, t * 100);
}

/* Each group's counters are its CPUs' values (departed ones included)
 * in this poll, and the total is the sum of the groups. */
static void assert_group_sums(const struct cache *c)
{
	for (int k = 0; k < COUNTER_COUNT; k++) {
		uint64_t g[2] = {0, 0};
		for (size_t r = 0; r < c->nrows; r++)
			g[c->rows[r].group] += cache_cpu_row_value(c, &c->rows[r], k);
		for (size_t i = 0; i < c->ngone; i++)
			g[c->gone[i].row.group] +=
			    c->gone[i].row.raw[k] + c->gone[i].offset[k];
		assert_int_equal(c->gsum[0].total[k], g[0]);
		assert_int_equal(c->gsum[1].total[k], g[1]);
		assert_int_equal(c->total[k], g[0] + g[1]);
	}
}

static struct cpu_groups two_groups(void)
{
	struct cpu_groups gs = {0};
	char err[200];
	assert_int_equal(util_cpu_groups_add(&gs, "a", "0-1", err, sizeof(err)),
			 0);
	assert_int_equal(util_cpu_groups_add(&gs, "b", "2,3", err, sizeof(err)),
			 0);
	return gs;
}

static bool group_rate(const struct cache *c, size_t g, int k, uint64_t *r)
{
	return cache_rate(c, k, CACHE_GROUP(g), r) == SAMPLE_OK;
}

/* CPU 1 (group a) away at polls 3, 4 and 5: a's counts stay, its rate is
 * absent at the polls whose windows hold the gap's ends (3 and 6) and
 * present elsewhere, b is never touched. */
static void cpu_gap_stays_in_its_group(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct cpu_groups gs = two_groups();
	const struct scenario sc = {.away_from = 3, .away_to = 5};
	uint64_t last[COUNTER_COUNT] = {0}, r;

	cache_init(&c);
	for (unsigned t = 1; t <= 8; t++) {
		assert_int_equal(cache_groups_use(&c, &gs), 0);
		assert_true(poll(&c, &s, t, &sc) >= 0);
		assert_group_sums(&c);
		for (int k = 0; k < COUNTER_COUNT; k++) {
			assert_true(c.gsum[0].total[k] >= last[k]);
			last[k] = c.gsum[0].total[k];
			bool a = group_rate(&c, 0, k, &r);
			assert_int_equal(a, t != 1 && t != 3 && t != 6);
			if (a) /* CPU 0 alone while CPU 1 is away */
				assert_int_equal(
				    r, (uint64_t)(k + 1) * 100u *
					   (t > 3 && t < 6 ? 1 : 3));
			assert_int_equal(group_rate(&c, 1, k, &r), t != 1);
			if (t != 1)
				assert_int_equal(r, (uint64_t)(k + 1) * 700u);
		}
		uint32_t a_disc = t < 3 ? 100 : t < 6 ? 300 : 600;
		assert_int_equal(c.gsum[0].disc_time, a_disc);
		assert_int_equal(c.gsum[1].disc_time, 100);
		assert_int_equal(c.gsum[0].counting, t >= 3 && t <= 5 ? 1 : 2);
		assert_int_equal(cache_row(&c, 0)->disc_time, 100);
		if (t >= 6)
			assert_int_equal(cache_row(&c, 1)->disc_time, 600);
		assert_int_equal(cache_row(&c, 3)->disc_time, 100);
	}
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
}

/* A reset of CPU 2's cycles at poll 4: b's cycles rate (and IPC) absent
 * there only, b's other rates and all of a's present. */
static void reset_stays_in_its_group(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct cpu_groups gs = two_groups();
	int cyc = meta_counter_index_by_name("hw.r10kevctr.cycles");
	int ins = meta_counter_index_by_name("hw.r10kevctr.grad.instrg");
	size_t ipc = (size_t)meta_stat_index_by_name("stat.ipc");
	const struct scenario sc = {.away_from = 99, .away_to = 99,
				    .reset_t = 4, .reset_k = cyc};
	uint64_t r, v;

	cache_init(&c);
	for (unsigned t = 1; t <= 6; t++) {
		assert_int_equal(cache_groups_use(&c, &gs), 0);
		assert_true(poll(&c, &s, t, &sc) >= 0);
		assert_group_sums(&c);
		if (t == 1)
			continue;
		assert_int_equal(group_rate(&c, 1, cyc, &r), t != 4);
		assert_true(group_rate(&c, 1, ins, &r));
		assert_true(group_rate(&c, 0, cyc, &r));
		assert_int_equal(
		    cache_stat_value(&c, ipc, CACHE_GROUP(1), &v) == SAMPLE_OK,
		    t != 4);
		assert_int_equal(cache_stat_value(&c, ipc, CACHE_GROUP(0), &v),
				 SAMPLE_OK);
		assert_int_equal(c.gsum[1].disc_time, t < 4 ? 100 : 400);
		assert_int_equal(c.gsum[0].disc_time, 100);
		assert_int_equal(cache_row(&c, 3)->disc_time, 100);
	}
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
}

/* Groups that change start from their CPUs' values: a discontinuity of
 * every group, and the sums still hold. */
static void groups_change(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct cpu_groups gs = two_groups(), other = {0};
	const struct scenario sc = {.away_from = 99, .away_to = 99};
	char err[200];
	uint64_t r;

	assert_int_equal(
	    util_cpu_groups_add(&other, "a", "0,2", err, sizeof(err)), 0);
	assert_int_equal(
	    util_cpu_groups_add(&other, "b", "1,3", err, sizeof(err)), 0);
	cache_init(&c);
	for (unsigned t = 1; t <= 4; t++) {
		assert_int_equal(cache_groups_use(&c, t < 3 ? &gs : &other),
				 0);
		int disc = poll(&c, &s, t, &sc);
		assert_int_equal(disc, t == 3);
		assert_int_equal(group_rate(&c, 0, 0, &r), t == 2 || t == 4);
		assert_int_equal(c.gsum[1].disc_time, t < 3 ? 100 : 300);
	}
	assert_int_equal(c.gsum[0].total[0], value_at(0, 0, 4) + value_at(2, 0, 4));
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
	util_cpu_groups_free(&other);
}

/* The groups' TimeStamps move with the module's. */
static void restamp_moves_groups(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct cpu_groups gs = two_groups();
	const struct scenario sc = {.away_from = 2, .away_to = 2};

	cache_init(&c);
	for (unsigned t = 1; t <= 3; t++) {
		assert_int_equal(cache_groups_use(&c, &gs), 0);
		poll(&c, &s, t, &sc);
	}
	/* a at 300 (CPU 1 back), b at 100; the module at 300 */
	cache_restamp(&c, 300, 1000);
	assert_int_equal(c.gsum[0].disc_time, 1000);
	assert_int_equal(c.gsum[1].disc_time, 800);
	cache_restamp(&c, 1000, 150); /* b's fell before the master's 0 */
	assert_int_equal(c.gsum[0].disc_time, 150);
	assert_int_equal(c.gsum[1].disc_time, 0);
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
}

/* A CPU away when the master changes: its row, kept aside, moves with
 * the module's TimeStamp too (it comes back with its distance kept). */
static void restamp_moves_gone(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct cpu_groups gs = two_groups();
	const struct scenario sc = {.away_from = 3, .away_to = 3};

	cache_init(&c);
	for (unsigned t = 1; t <= 3; t++) {
		assert_int_equal(cache_groups_use(&c, &gs), 0);
		poll(&c, &s, t, &sc);
	}
	assert_int_equal(c.ngone, 1);
	assert_int_equal(c.gone[0].row.cpu, 1);
	uint32_t old = c.discontinuity_time, before = c.gone[0].row.disc_time;
	assert_true(before > 0 && before <= old);
	cache_restamp(&c, old, old + 5000);
	assert_int_equal(c.gone[0].row.disc_time, before + 5000);
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
}

/* The view serves the groups by index from 1: GET and GETNEXT at the
 * table's edges (index 0, past the last, the largest arc). */
static void view_serves_groups(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct served served;
	struct cpu_groups gs = two_groups();
	const struct scenario sc = {.away_from = 99, .away_to = 99};
	const struct mib_view view = {&c, &served};
	const struct mib_object *o, *name = view_object("hwR10kEvCtrGroupName");
	const struct mib_object *cpus = view_object("hwR10kEvCtrGroupCpus");
	const struct mib_object *cyc = view_object("hwR10kEvCtrGroupCycles");
	unsigned long oid[MIBVIEW_OID_MAX], next[MIBVIEW_OID_MAX];
	size_t len, nlen;
	struct mib_value v;

	view_served_configure(&served, "sim", 5, NULL);
	cache_init(&c);
	for (unsigned t = 1; t <= 2; t++) {
		assert_int_equal(cache_groups_use(&c, &gs), 0);
		poll(&c, &s, t, &sc);
	}
	assert_non_null(name);
	assert_int_equal(view_value(&view, name, 2, &v), MV_OK);
	assert_int_equal(v.v.str.len, 1);
	assert_int_equal(view_value(&view, name, 0, &v), MV_NO_SUCH_INSTANCE);
	assert_int_equal(view_value(&view, name, 3, &v), MV_NO_SUCH_INSTANCE);
	assert_int_equal(view_value(&view, cyc, 1, &v), MV_OK);
	assert_int_equal(v.v.u64, c.gsum[0].total[0]);
	const unsigned long after[] = {2, 4294967295ul, ~0ul};
	for (size_t i = 0; i < 3; i++) {
		len = view_oid(name, after[i], oid);
		assert_int_equal(
		    view_getnext(&view, oid, len, next, &nlen, &o, &v), MV_OK);
		assert_ptr_equal(o, cpus); /* the next column's first row */
		assert_int_equal(next[nlen - 1], 1);
	}
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
}

/* hwR10kEvCtrCpuGroupName of CPU cpu is want ("": in no group). */
static void assert_cpu_group(const struct mib_view *view, unsigned cpu,
			     const char *want)
{
	const struct mib_object *o = view_object("hwR10kEvCtrCpuGroupName");
	struct mib_value v;
	assert_non_null(o);
	assert_int_equal(view_value(view, o, cpu, &v), MV_OK);
	assert_int_equal(v.type, SYN_OCTETS);
	assert_int_equal(v.v.str.len, strlen(want));
	assert_memory_equal(v.v.str.ptr, want, v.v.str.len);
}

/* Each CPU's row names its group, from the groups of the poll it is
 * served with: a CPU in a group, one in none (an empty name, not no
 * instance), a CPU that is not a row (no instance), and the new
 * groups at once after a reload changes them, before the next poll. */
static void cpu_names_its_group(void **state)
{
	(void)state;
	struct cache c;
	struct sample s = {0};
	struct served served;
	struct cpu_groups gs = {0}, other = {0};
	char err[200];
	const struct scenario sc = {.away_from = 99, .away_to = 99};
	const struct mib_view view = {&c, &served};
	const struct mib_object *o = view_object("hwR10kEvCtrCpuGroupName");
	struct mib_value v;

	assert_int_equal(util_cpu_groups_add(&gs, "a", "0-1", err, sizeof(err)),
			 0);
	assert_int_equal(util_cpu_groups_add(&gs, "b", "3", err, sizeof(err)),
			 0);
	assert_int_equal(
	    util_cpu_groups_add(&other, "node.7_x-Y", "2-3", err, sizeof(err)),
	    0);
	view_served_configure(&served, "sim", 5, NULL);
	cache_init(&c);
	assert_int_equal(cache_groups_use(&c, &gs), 0);
	poll(&c, &s, 1, &sc);
	assert_cpu_group(&view, 0, "a");
	assert_cpu_group(&view, 1, "a");
	assert_cpu_group(&view, 2, "");
	assert_cpu_group(&view, 3, "b");
	assert_int_equal(view_value(&view, o, 4, &v), MV_NO_SUCH_INSTANCE);
	assert_int_equal(cache_groups_use(&c, &other), 0); /* a reload */
	assert_cpu_group(&view, 0, "");
	assert_cpu_group(&view, 2, "node.7_x-Y");
	assert_cpu_group(&view, 3, "node.7_x-Y");
	poll(&c, &s, 2, &sc);
	assert_cpu_group(&view, 1, "");
	assert_cpu_group(&view, 3, "node.7_x-Y");
	assert_int_equal(cache_groups_use(&c, NULL), 0); /* none at all */
	poll(&c, &s, 3, &sc);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		assert_cpu_group(&view, cpu, "");
	cache_free(&c);
	cache_sample_free(&s);
	util_cpu_groups_free(&gs);
	util_cpu_groups_free(&other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(cpu_gap_stays_in_its_group),
	    cmocka_unit_test(reset_stays_in_its_group),
	    cmocka_unit_test(groups_change),
	    cmocka_unit_test(restamp_moves_groups),
	    cmocka_unit_test(restamp_moves_gone),
	    cmocka_unit_test(view_serves_groups),
	    cmocka_unit_test(cpu_names_its_group),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
