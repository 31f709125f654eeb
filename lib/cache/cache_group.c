/*
 * cache_group.c - the CPU groups' sums, folded in the totals' pass
 * (cache_group.h).
 */
#include "cache/cache_group.h"

#include <stdlib.h>
#include <string.h>

#include "cache/cache_data.h"

void cache_groups_free(struct cache *c)
{
	for (size_t g = 0; g < c->groups.n; g++)
		cache_span_free(&c->gsum[g].span);
	free(c->gsum);
	free(c->gpass);
	c->gsum = NULL;
	c->gpass = NULL;
	util_cpu_groups_free(&c->groups);
}

/* Each group from the values of its CPUs, in the table or gone. */
static void start_groups(struct cache *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct cpu_row *r = &c->rows[i];
		r->group = util_cpu_groups_find(&c->groups, r->cpu);
		for (int k = 0; r->group >= 0 && k < COUNTER_COUNT; k++)
			c->gsum[r->group].total[k] += cache_cpu_row_value(c, r, k);
	}
	for (size_t i = 0; i < c->ngone; i++) {
		struct gone_row *gr = &c->gone[i];
		long g = gr->row.group =
		    util_cpu_groups_find(&c->groups, gr->row.cpu);
		for (int k = 0; g >= 0 && k < COUNTER_COUNT; k++)
			c->gsum[g].total[k] += gr->row.raw[k] + gr->offset[k];
	}
}

int cache_groups_use(struct cache *c, const struct cpu_groups *g)
{
	static const struct cpu_groups none;
	if (!g)
		g = &none;
	if (util_cpu_groups_same(&c->groups, g))
		return 0;
	struct cpu_groups copy = {0};
	size_t n = g->n ? g->n : 1;
	struct group_sum *gsum = calloc(n, sizeof(*gsum));
	struct group_pass *gpass = calloc(n, sizeof(*gpass));
	if (!gsum || !gpass || util_cpu_groups_copy(&copy, g) != 0) {
		free(gsum);
		free(gpass);
		return -1;
	}
	cache_groups_free(c);
	c->groups = copy;
	c->gsum = gsum;
	c->gpass = gpass;
	c->groups_changed = true;
	start_groups(c);
	return 0;
}

void cache_groups_begin(struct cache *c)
{
	if (c->groups.n)
		memset(c->gpass, 0, c->groups.n * sizeof(*c->gpass));
}

void cache_group_event(struct cache *c, long group, bool whole)
{
	if (group < 0)
		return;
	c->gpass[group].event = true;
	if (whole)
		c->gpass[group].whole = true;
}

void cache_group_row(struct cache *c, const struct cpu_row *r)
{
	if (r->group < 0)
		return;
	struct group_pass *gp = &c->gpass[r->group];
	gp->unread |= r->span.unread;
	gp->reset |= r->span.reset;
	gp->no_base |= r->span.bad & ~r->span.unread & ~r->span.reset;
}

/* The group's live counters and counting CPUs, from the new rows. */
static void count_live(struct cache *c, const struct group_end *e)
{
	counter_mask per_cpu = e->s->counted & ~e->s->system_wide;
	for (size_t g = 0; g < c->groups.n; g++)
		c->gsum[g].counting = 0;
	for (size_t i = 0; i < e->s->ncpus; i++)
		if (e->rows[i].group >= 0 &&
		    e->rows[i].status == CPU_COUNTING)
			c->gsum[e->rows[i].group].counting++;
	for (size_t g = 0; g < c->groups.n; g++)
		c->gsum[g].live = c->gsum[g].counting ? per_cpu : 0;
}

void cache_groups_end(struct cache *c, const struct group_end *e)
{
	bool all = e->first || e->all || c->groups_changed;
	for (size_t g = 0; g < c->groups.n; g++) {
		struct group_sum *gs = &c->gsum[g];
		struct group_pass *gp = &c->gpass[g];
		for (int k = 0; k < COUNTER_COUNT; k++) {
			e->sum[k] += gp->sum[k];
			gs->total[k] += gp->sum[k];
			gs->delta[k] = gp->sum[k];
		}
		gs->delta_valid = !all && !gp->whole;
		struct span_poll sp = {
		    .counted = e->s->counted & ~e->s->system_wide,
		    .unread = gp->unread,
		    .reset = gp->reset,
		    .no_base = gp->no_base,
		    .invalid = !gs->delta_valid,
		    .raw = gs->total,
		    .delta = gs->delta,
		    .prev_ns = e->prev_ns,
		};
		cache_span_fold(&gs->span, &sp);
		if (all || gp->event)
			gs->disc_time = e->now;
	}
	c->groups_changed = false;
	count_live(c, e);
}

static uint32_t moved(uint32_t t, uint32_t old_disc, uint32_t new_disc)
{
	uint32_t before = old_disc > t ? old_disc - t : 0;
	return t && new_disc > before ? new_disc - before : 0;
}

void cache_restamp(struct cache *c, uint32_t old_disc, uint32_t new_disc)
{
	if (old_disc == new_disc && new_disc)
		return;
	for (size_t i = 0; i < c->nrows; i++)
		c->rows[i].disc_time =
		    moved(c->rows[i].disc_time, old_disc, new_disc);
	for (size_t i = 0; i < c->ngone; i++)
		c->gone[i].row.disc_time =
		    moved(c->gone[i].row.disc_time, old_disc, new_disc);
	for (size_t g = 0; g < c->groups.n; g++)
		c->gsum[g].disc_time =
		    moved(c->gsum[g].disc_time, old_disc, new_disc);
}
