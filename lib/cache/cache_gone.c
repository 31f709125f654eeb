/*
 * cache_gone.c - the rows of CPUs that left the table, kept sorted by CPU
 * with their offsets, so that a CPU that comes back counts on from where
 * it left (cache.c's folding asks).
 */
#include "cache/cache_gone.h"

#include <stdlib.h>
#include <string.h>

#include "util/sorted.h"

static long long gone_key(const void *e)
{
	return ((const struct gone_row *)e)->row.cpu;
}

/* Room for every row to leave at once, so that a pass never fails half
 * way; -1 when out of memory (the cache is unchanged). */
int cache_gone_reserve(struct cache *c)
{
	size_t need = c->ngone + c->nrows;
	if (need <= c->gone_cap)
		return 0;
	struct gone_row *g = realloc(c->gone, need * sizeof(*g));
	if (!g)
		return -1;
	c->gone = g;
	c->gone_cap = need;
	return 0;
}

/* Remember a row that left the table (room reserved by cache_gone_reserve). */
void cache_gone_add(struct cache *c, const struct cpu_row *r,
		     const uint64_t *offset)
{
	size_t i = util_sorted_lower_bound(c->gone, c->ngone, sizeof(*c->gone),
				      gone_key, (long long)r->cpu);
	if (i == c->ngone || c->gone[i].row.cpu != r->cpu) {
		memmove(&c->gone[i + 1], &c->gone[i],
			(c->ngone - i) * sizeof(*c->gone));
		c->ngone++;
	} else {
		cache_span_free(&c->gone[i].row.span);
	}
	c->gone[i].row = *r;
	memcpy(c->gone[i].offset, offset, sizeof(c->gone[i].offset));
}

/* A CPU joins: its row as it left, if it was here before. */
bool cache_gone_take(struct cache *c, unsigned cpu, struct cpu_row *r,
		      uint64_t *offset)
{
	size_t i = util_sorted_lower_bound(c->gone, c->ngone, sizeof(*c->gone),
				      gone_key, (long long)cpu);
	if (i == c->ngone || c->gone[i].row.cpu != cpu)
		return false;
	*r = c->gone[i].row;
	memcpy(offset, c->gone[i].offset, sizeof(c->gone[i].offset));
	memmove(&c->gone[i], &c->gone[i + 1],
		(c->ngone - i - 1) * sizeof(*c->gone));
	c->ngone--;
	return true;
}
