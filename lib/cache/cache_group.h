/*
 * cache_group.h - the sums of the CPU groups (util/cpugroups.h), folded
 * in the same pass as the totals (cache.c), by the totals' rules: a group
 * accumulates its CPUs' deltas, so a CPU that leaves keeps its counts in
 * it; a CPU event of the group (joined, left, returned, stopped,
 * resumed, restarted) voids the group's deltas, a reset only its cell;
 * a cell of a CPU without a reading leaves the group's cell without a
 * rate at that poll (cache_span.h).  Another group's events leave a
 * group as it is, and every event is noted in the group's own
 * discontinuity time.  A change of the groups restarts each group from
 * the values of its CPUs (in the table or gone), a discontinuity of
 * every group.
 */
#ifndef HWR10K_CACHE_GROUP_H
#define HWR10K_CACHE_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/sample.h"
#include "util/cpugroups.h"

struct cache;
struct cpu_row;

/* The groups a poll folds: the config's cpuGroup lines when it has any,
 * else the backend's (NUMA nodes); NULL: none. */
static inline const struct cpu_groups *
cache_groups_chosen(const struct cpu_groups *configured, const struct sample *s)
{
	return configured->n ? configured : s->groups;
}

/* Take the groups g (NULL: none) for the next pass: nothing when they
 * are the cache's already; else each group starts from the values of its
 * CPUs.  -1 when out of memory (the cache keeps its groups). */
int cache_groups_use(struct cache *c, const struct cpu_groups *g);
/* Before a pass: the scratch zeroed. */
void cache_groups_begin(struct cache *c);
/* A CPU of the group had an event (whole: a CPU event, else a reset). */
void cache_group_event(struct cache *c, long group, bool whole);
/* A folded row's cells for its group's span (unread, reset, no base). */
void cache_group_row(struct cache *c, const struct cpu_row *r);
/*
 * After the rows' pass: the groups' sums into sum (the totals'), their
 * totals, deltas, span sets, live and counting CPUs, and discontinuity
 * times (every group's when all: a change of the counted set).
 */
struct group_end {
	const struct sample *s;
	const struct cpu_row *rows;
	uint64_t *sum;
	bool first, all;
	uint64_t prev_ns;
	uint32_t now;
};
void cache_groups_end(struct cache *c, const struct group_end *e);
void cache_groups_free(struct cache *c);
/*
 * The module's discontinuity time moved from old_disc to new_disc (put
 * on another master's sysUpTime, agent/stamps.c): every CPU's and
 * group's moves with it, keeping its distance before it (0 when that
 * falls before the new master's re-initialization, or was 0).
 */
void cache_restamp(struct cache *c, uint32_t old_disc, uint32_t new_disc);

#endif
