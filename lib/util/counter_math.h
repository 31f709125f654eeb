/*
 * counter_math.h - the arithmetic of turning hardware readings into 64-bit
 * counts, kept pure so that it is unit-tested on its own.
 */
#ifndef HWR10K_COUNTER_MATH_H
#define HWR10K_COUNTER_MATH_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Delta of a counter `width` bits wide (1..64) from prev to cur, modulo
 * 2^width: how IRIX kept 64-bit totals from 32-bit registers.  Both values
 * must be below 2^width.
 */
uint64_t util_wrap_delta(uint64_t prev, uint64_t cur, unsigned width);

/*
 * A multiplexed perf count's delta scaled to the whole interval:
 * delta * d_enabled / d_running, without overflowing 64 bits on the way;
 * delta itself when the event ran all the time (or d_running > d_enabled),
 * 0 when it did not run at all (nothing is known).
 */
uint64_t util_scale_delta(uint64_t delta, uint64_t d_enabled,
			  uint64_t d_running);

/*
 * A count served from a source's raw readings (the replay and pcp
 * backends): the first reading is its base, so the count starts at 0;
 * each later reading adds its delta modulo 2^width; a 64-bit reading
 * lower than the one before is a restart from zero by the source, so the
 * reading is what it counted since (added, and the cell is reset).
 * fresh and reset say what the reading being served did.
 */
struct count_cell {
	bool seen, fresh, reset;
	uint64_t raw, acc;
};
/* Take a reading; true when it was a reset. */
bool util_count_cell_take(struct count_cell *c, uint64_t raw, unsigned width);
/* Report the served reading's flags as bit in *unread (no reading) and
 * *reset, unless held (a source lost or a recording ended: nothing is
 * read); clears them for the next. */
static inline void util_count_cell_report(struct count_cell *c, uint64_t bit,
				     bool held, uint64_t *unread,
				     uint64_t *reset)
{
	if (!held && !c->fresh)
		*unread |= bit;
	if (!held && c->reset)
		*reset |= bit;
	c->fresh = c->reset = false;
}

#endif