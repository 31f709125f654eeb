/* stats.c - lib/tables/stats.def as data, and the names of its inputs
 * resolved. */
#include "meta/stats.h"

#include <stdio.h>
#include <string.h>

#include "meta/metrics.h"

#define ANY  STAT_ANY
#define REV3 STAT_REV3
const struct stat_def meta_stat_defs[] = {
#define S(arc, name, desc, num, minus, den, plus, scale, rule, syn, units,     \
	  summary, cite)                                                       \
	{arc,	name, desc, num,   minus,   den, plus,                         \
	 scale, rule, syn,  units, summary, cite},
#include "tables/stats.def"
#undef S
};
#undef ANY
#undef REV3
const size_t meta_stat_count =
    sizeof(meta_stat_defs) / sizeof(meta_stat_defs[0]);
_Static_assert(sizeof(meta_stat_defs) / sizeof(meta_stat_defs[0]) <= STAT_MAX,
	       "stats.def has more rows than STAT_MAX");

static int counter_of(const char *name)
{
	char full[128];

	if (!name[0])
		return -1;
	snprintf(full, sizeof(full), "%s%s", METRIC_PREFIX, name);
	return meta_counter_index_by_name(full);
}

static int resolve(const struct stat_def *s, struct meta_stat_inputs *in)
{
	in->num = counter_of(s->num);
	in->minus = counter_of(s->minus);
	in->den = counter_of(s->den);
	in->plus = counter_of(s->plus);
	return in->num < 0 || (s->minus[0] && in->minus < 0) ||
		       (s->den[0] && in->den < 0) ||
		       (s->plus[0] && in->plus < 0)
		   ? -1
		   : 0;
}

/* Resolved once: cache_stat_value() runs per request (the agent and its tests
 * are single-threaded). */
#define NSTATS (sizeof(meta_stat_defs) / sizeof(meta_stat_defs[0]))
static struct meta_stat_inputs resolved[NSTATS];
static signed char resolved_state[NSTATS]; /* 0 not yet, 1 ok, -1 bad */

int meta_stat_inputs(size_t stat, struct meta_stat_inputs *in)
{
	if (stat >= NSTATS)
		return -1;
	if (resolved_state[stat] == 0)
		resolved_state[stat] =
		    resolve(&meta_stat_defs[stat], &resolved[stat]) == 0 ? 1
									 : -1;
	*in = resolved[stat];
	return resolved_state[stat] == 1 ? 0 : -1;
}

long meta_stat_index_by_name(const char *name)
{
	size_t n = strlen(STAT_PREFIX);

	if (strncmp(name, STAT_PREFIX, n) != 0)
		return -1;
	for (size_t i = 0; i < meta_stat_count; i++)
		if (strcmp(name + n, meta_stat_defs[i].name) == 0)
			return (long)i;
	return -1;
}
