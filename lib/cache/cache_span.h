/*
 * cache_span.h - what each cell's last delta covers, when readings go
 * missing or a counter restarts (cache_span.c).
 *
 * A "span set" belongs to a CPU row and to the sums.  Per poll it says
 * which cells have a valid delta (read now and at their last reading,
 * nothing restarted in between) and over what time: a cell that missed
 * polls (a PCP record or replay set without it, its CPU present) holds
 * its value; its next delta covers the time since its last reading, and
 * its rate is that delta over that time.
 *
 * A derived statistic (stats.def) is a group of counters whose
 * numerator and denominator must cover the same instants: it has a value
 * only at a poll where all its inputs were read, over the time since the
 * last poll where they all were (the deltas when that is the poll
 * before; otherwise the values kept at that poll, its anchor).  A reset
 * of an input breaks the group: no value until its inputs have all been
 * read at one poll, which becomes the new start.
 *
 * A sum's cell can restart at a poll where it has no reading (one CPU
 * reset it, another CPU had no reading of it, at that poll or since
 * before): the reset is kept with the waiting cell (span_gap.crossed),
 * so that the reading that ends the wait is a discontinuity too, with
 * no rate, and every group that needs the cell is broken at once.  A
 * sum's rate or statistic never covers a reset of one of its cells.
 */
#ifndef HWR10K_CACHE_SPAN_H
#define HWR10K_CACHE_SPAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/sample.h"
#include "meta/stats.h"

/* Groups a span set tracks: one per derived statistic (stats.def). */
#define SPAN_GROUPS_MAX STAT_MAX
/* Inputs of a group: num, minus, den, plus. */
#define SPAN_GROUP_INPUTS 4

/* Kept only for a row that ever missed a reading (allocated then). */
struct span_gap {
	/* A waiting or long-span cell: when and at what value it was last
	 * read. */
	uint64_t since_ns[COUNTER_COUNT];
	uint64_t since_value[COUNTER_COUNT];
	/* Waiting cells whose span contains a reset: a sum's cell that
	 * one CPU restarted while another had no reading of it (the reset
	 * hides behind the missing reading).  Their next reading closes a
	 * span across a reset: a discontinuity, and no base. */
	counter_mask crossed;
	/* An anchored group: its inputs' values (in counter order) at its
	 * last complete poll. */
	uint64_t anchor[SPAN_GROUPS_MAX][SPAN_GROUP_INPUTS];
};

struct span_set {
	counter_mask bad;	/* no valid delta at this poll */
	counter_mask unread;	/* no reading at this poll: value held */
	counter_mask reset;	/* restarted at this poll: a discontinuity */
	counter_mask waiting;	/* unread since their last reading */
	counter_mask unknown;	/* waiting, and that reading is no base */
	counter_mask long_span; /* read now after waiting: see gap */
	/* Groups, a bit each: anchored (incomplete since the anchor),
	 * broken (no base since a reset), and how this poll serves them. */
	uint8_t anchored, broken, from_anchor, absent;
	struct span_gap *gap; /* NULL until a cell first waits */
};

/* The input mask of each group (a statistic's counters), resolved once;
 * returns the number of groups. */
unsigned cache_span_groups(const counter_mask **masks);

/* What happened to a span set's cells at one poll. */
struct span_poll {
	counter_mask counted; /* cells that have readings at all */
	counter_mask unread;  /* counted cells with no reading now */
	counter_mask reset;   /* cells the source restarted */
	counter_mask no_base; /* read, but with nothing to difference */
	bool invalid;	      /* every delta void (restart, join, ...) */
	/* After the fold: a cell's value is raw + offset (offset NULL: 0),
	 * its delta over this poll delta. */
	const uint64_t *raw, *offset, *delta;
	uint64_t prev_ns; /* the poll before */
};

/* Fold one poll's events into sp.  A gap is allocated when a cell first
 * waits; false only when that allocation failed (the waiting cells are
 * then unknown: no rate at their next reading, never a wrong one). */
bool cache_span_fold(struct span_set *sp, const struct span_poll *p);
/* Nothing carried from poll to poll and nothing this poll: a steady
 * row, whose fold can be skipped. */
static inline bool cache_span_quiet(const struct span_set *sp)
{
	return !(sp->bad | sp->unread | sp->reset | sp->waiting | sp->unknown |
		 sp->long_span) &&
	       !(sp->anchored | sp->broken | sp->from_anchor | sp->absent);
}
/* A row that stopped counting or ended: no state carried. */
void cache_span_clear(struct span_set *sp);
void cache_span_free(struct span_set *sp);

/* Cell k: its delta and the time it covers, when this poll has a valid
 * one (delta is the fold's delta, interval_ns the poll's interval). */
bool cache_span_cell(const struct span_set *sp, int k, uint64_t value,
		     uint64_t delta, uint64_t interval_ns, uint64_t now_ns,
		     uint64_t *out_delta, uint64_t *out_ns);
enum span_group_status {
	SPAN_GROUP_DELTAS, /* the last interval: use the cells' deltas */
	SPAN_GROUP_ANCHOR, /* since the anchor: value - cache_span_anchor() */
	SPAN_GROUP_NONE,   /* no value this poll */
};
enum span_group_status cache_span_group(const struct span_set *sp, unsigned g);
/* An anchored group's value of counter k at its anchor. */
uint64_t cache_span_anchor(const struct span_set *sp, unsigned g, int k);

#endif
