/*
 * counter_math.h - the arithmetic of turning hardware readings into 64-bit
 * counts, kept pure so that it is unit-tested on its own.
 */
#ifndef HWR10K_COUNTER_MATH_H
#define HWR10K_COUNTER_MATH_H

#include <stdint.h>

/*
 * Delta of a counter `width` bits wide (1..64) from prev to cur, modulo
 * 2^width: how IRIX kept 64-bit totals from 32-bit registers.  Both values
 * must be below 2^width.
 */
uint64_t wrap_delta(uint64_t prev, uint64_t cur, unsigned width);

/*
 * A multiplexed perf count's delta scaled to the whole interval:
 * delta * d_enabled / d_running, without overflowing 64 bits on the way;
 * delta itself when the event ran all the time (or d_running > d_enabled),
 * 0 when it did not run at all (nothing is known).
 */
uint64_t scale_delta(uint64_t delta, uint64_t d_enabled, uint64_t d_running);

#endif
