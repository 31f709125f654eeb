/* counter_math.c - wraparound and multiplexing arithmetic. */
#include "util/counter_math.h"

uint64_t util_wrap_delta(uint64_t prev, uint64_t cur, unsigned width)
{
	uint64_t mask = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
	return (cur - prev) & mask;
}

uint64_t util_scale_delta(uint64_t delta, uint64_t d_enabled,
			  uint64_t d_running)
{
	if (d_running == 0)
		return 0;
	if (d_running >= d_enabled)
		return delta;
	unsigned __int128 x = (unsigned __int128)delta * d_enabled / d_running;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

bool util_count_cell_take(struct count_cell *c, uint64_t raw, unsigned width)
{
	bool reset = c->seen && width >= 64 && raw < c->raw;
	if (reset)
		c->acc += raw; /* counted since the restart */
	else if (c->seen)
		c->acc += util_wrap_delta(c->raw, raw, width);
	c->raw = raw;
	c->seen = true;
	c->fresh = true;
	c->reset |= reset;
	return reset;
}
