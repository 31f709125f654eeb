/*
 * cache_span.c - the time each cell's and each statistic's delta covers
 * when readings go missing or counters restart (cache_span.h).
 */
#include "cache/cache_span.h"

#include <stdlib.h>

#include "meta/stats.h"

#define ALL_CELLS ((counter_mask)((UINT64_C(1) << COUNTER_COUNT) - 1))

unsigned cache_span_groups(const counter_mask **masks)
{
	/* resolved once (the agent and its tests are single-threaded) */
	static counter_mask mask[SPAN_GROUPS_MAX];
	static unsigned n;
	static bool done;

	if (!done) {
		for (size_t s = 0; s < meta_stat_count && s < SPAN_GROUPS_MAX;
		     s++) {
			struct meta_stat_inputs in;
			mask[s] = 0;
			if (meta_stat_inputs(s, &in) == 0) {
				const int k[SPAN_GROUP_INPUTS] = {
				    in.num, in.minus, in.den, in.plus};
				for (int j = 0; j < SPAN_GROUP_INPUTS; j++)
					if (k[j] >= 0)
						mask[s] |= COUNTER_BIT(k[j]);
			}
			n = (unsigned)s + 1;
		}
		done = true;
	}
	*masks = mask;
	return n;
}

static uint64_t value_of(const struct span_poll *p, int k)
{
	return p->raw[k] + (p->offset ? p->offset[k] : 0);
}

/* Where counter k sits among a group's inputs (they are kept in counter
 * order). */
static unsigned slot(counter_mask in, int k)
{
	return (unsigned)__builtin_popcountll(in & (COUNTER_BIT(k) - 1));
}

void cache_span_clear(struct span_set *sp)
{
	struct span_gap *gap = sp->gap;
	*sp = (struct span_set){.gap = gap};
	if (gap)
		gap->crossed = 0;
}

void cache_span_free(struct span_set *sp)
{
	free(sp->gap);
	*sp = (struct span_set){0};
}

/* Every delta of this poll is void: the cells read now are the new
 * base; those unread have none until they are read. */
static void fold_invalid(struct span_set *sp, const struct span_poll *p,
			 counter_mask unread, unsigned ng,
			 const counter_mask *masks)
{
	struct span_gap *gap = sp->gap;
	*sp = (struct span_set){.gap = gap};
	if (gap)
		gap->crossed = 0; /* the unread cells are unknown below */
	sp->bad = ALL_CELLS;
	sp->unread = sp->waiting = sp->unknown = unread;
	sp->reset = p->reset & p->counted;
	for (unsigned g = 0; g < ng; g++) {
		sp->absent |= (uint8_t)(1u << g);
		if (masks[g] & unread)
			sp->broken |= (uint8_t)(1u << g);
	}
}

/* Group g at this poll: complete (every input read), broken (an input
 * restarted, or has no base), or neither. */
static void fold_group(struct span_set *sp, const struct span_poll *p,
		       unsigned g, counter_mask inputs, counter_mask no_base)
{
	uint8_t bit = (uint8_t)(1u << g);
	counter_mask in = inputs & p->counted;
	bool complete = !(in & sp->unread);

	if (in & no_base) {
		sp->anchored &= (uint8_t)~bit;
		sp->broken = complete ? sp->broken & (uint8_t)~bit
				      : sp->broken | bit;
		sp->absent |= bit;
		return;
	}
	if (complete) {
		if (sp->anchored & bit)
			sp->from_anchor |= bit;
		else if (sp->broken & bit)
			sp->absent |= bit; /* this poll is the new base */
		sp->anchored &= (uint8_t)~bit;
		sp->broken &= (uint8_t)~bit;
		return;
	}
	sp->absent |= bit;
	if (sp->anchored & bit || sp->broken & bit)
		return; /* still waiting for its inputs */
	if (!sp->gap) {
		sp->broken |= bit;
		return;
	}
	/* complete at the poll before: its values then are the anchor */
	for (counter_mask b = in; b; b &= b - 1) {
		int k = __builtin_ctzll(b);
		sp->gap->anchor[g][slot(inputs, k)] =
		    value_of(p, k) - p->delta[k];
	}
	sp->anchored |= bit;
}

/* Cells that start waiting at this poll: when and at what value they
 * were last read (the poll before).  False when the gap could not be
 * allocated: those cells are then unknown (no rate at their next
 * reading, never a wrong one). */
static bool start_waiting(struct span_set *sp, const struct span_poll *p,
			  counter_mask newly)
{
	bool ok = true;

	if (newly && !sp->gap && !(sp->gap = calloc(1, sizeof(*sp->gap))))
		ok = false;
	for (counter_mask b = newly; b; b &= b - 1) {
		int k = __builtin_ctzll(b);
		if (!sp->gap) {
			sp->unknown |= COUNTER_BIT(k);
			continue;
		}
		/* last read at the poll before: its value then (a row's is
		 * unchanged; a sum's grew by its other CPUs' deltas) */
		sp->gap->since_ns[k] = p->prev_ns;
		sp->gap->since_value[k] = value_of(p, k) - p->delta[k];
	}
	return ok;
}

bool cache_span_fold(struct span_set *sp, const struct span_poll *p)
{
	const counter_mask *masks;
	unsigned ng = cache_span_groups(&masks);
	counter_mask unread = p->unread & p->counted;
	counter_mask reset = p->reset & p->counted & ~unread;
	/* restarted with no reading (a sum: one CPU reset it while another
	 * had no reading of it): kept with the waiting cell */
	counter_mask hidden = p->reset & p->counted & unread;

	if (p->invalid) {
		fold_invalid(sp, p, unread, ng, masks);
		return true;
	}
	sp->from_anchor = sp->absent = 0;
	sp->long_span = 0;
	sp->unread = unread;
	sp->reset = reset;
	if (!(unread | reset | sp->waiting | sp->anchored | sp->broken)) {
		sp->bad = 0; /* the steady poll */
		return true;
	}
	bool ok = start_waiting(sp, p, unread & ~sp->waiting);
	counter_mask read = p->counted & ~unread;
	counter_mask crossed = sp->gap ? sp->gap->crossed : 0;
	reset |= read & crossed; /* its span, now ended, holds a reset */
	sp->reset = reset;
	counter_mask no_base = (read & sp->unknown) | (p->no_base & read);
	sp->long_span = read & sp->waiting & ~sp->unknown & ~reset;
	sp->bad = unread | reset | no_base;
	sp->waiting = unread;
	sp->unknown &= unread;
	/* without a gap every waiting cell is unknown: no base anyway */
	if (sp->gap)
		sp->gap->crossed = (crossed | hidden) & unread;
	else
		sp->unknown |= hidden;
	counter_mask broken = reset | hidden | no_base;
	for (unsigned g = 0; g < ng; g++)
		if (masks[g] & p->counted)
			fold_group(sp, p, g, masks[g], broken);
	return ok;
}

bool cache_span_cell(const struct span_set *sp, int k, uint64_t value,
		     uint64_t delta, uint64_t interval_ns, uint64_t now_ns,
		     uint64_t *out_delta, uint64_t *out_ns)
{
	counter_mask bit = COUNTER_BIT(k);

	if (sp->bad & bit)
		return false;
	if ((sp->long_span & bit) && sp->gap) {
		*out_delta = value - sp->gap->since_value[k];
		*out_ns = now_ns > sp->gap->since_ns[k]
			      ? now_ns - sp->gap->since_ns[k]
			      : 0;
	} else {
		*out_delta = delta;
		*out_ns = interval_ns;
	}
	return *out_ns > 0;
}

enum span_group_status cache_span_group(const struct span_set *sp, unsigned g)
{
	uint8_t bit = (uint8_t)(1u << g);

	if (g >= SPAN_GROUPS_MAX || (sp->absent & bit))
		return SPAN_GROUP_NONE;
	return sp->from_anchor & bit ? SPAN_GROUP_ANCHOR : SPAN_GROUP_DELTAS;
}

uint64_t cache_span_anchor(const struct span_set *sp, unsigned g, int k)
{
	const counter_mask *masks;
	cache_span_groups(&masks);
	return sp->gap ? sp->gap->anchor[g][slot(masks[g], k)] : 0;
}
