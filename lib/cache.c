/* cache.c - folds backend samples into monotonic 64-bit counters. */
#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cache_init(struct cache *c)
{
	memset(c, 0, sizeof(*c));
	c->state = -1;
	snprintf(c->cpurev, sizeof(c->cpurev), "unknown");
}

void cache_free(struct cache *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

size_t cache_row_after(const struct cache *c, unsigned long cpu)
{
	size_t lo = 0, hi = c->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->rows[mid].cpu <= cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct cpu_row *cache_row(const struct cache *c, unsigned cpu)
{
	size_t i = cache_row_after(c, cpu);
	if (i > 0 && c->rows[i - 1].cpu == cpu)
		return &c->rows[i - 1];
	return NULL;
}

/* Record the first reason for a discontinuity in this pass. */
#define NOTE(...)                                                              \
	do {                                                                   \
		if (!disc)                                                     \
			snprintf(c->last_discontinuity,                        \
				 sizeof(c->last_discontinuity), __VA_ARGS__);  \
		disc = true;                                                   \
	} while (0)

static uint64_t advance(uint64_t *raw, uint64_t now, bool restarted)
{
	uint64_t d = restarted || now < *raw ? now : now - *raw;
	*raw = now;
	return d;
}

/* Fold one CPU's reading into its row; returns true on a discontinuity. */
static bool fold_cpu(struct cpu_row *r, const struct cpu_sample *s,
		     counter_mask counted, uint64_t *sum)
{
	bool disc = false;

	if (!s->counting) {
		disc = r->status == CPU_COUNTING && r->have_raw;
		r->status = CPU_STOPPED;
		r->have_raw = false;
		r->delta_valid = false;
		r->duty_cycle = 0;
		return disc;
	}
	bool restarted = !r->have_raw || r->epoch != s->epoch;
	if (r->have_raw && restarted)
		disc = true; /* counts between the last read and the restart are lost */
	if (r->status == CPU_STOPPED)
		disc = true;
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (!(counted & COUNTER_BIT(i)))
			continue;
		if (!restarted && s->value[i] < r->raw[i])
			disc = true; /* the backend reset without saying so */
		uint64_t d = advance(&r->raw[i], s->value[i], restarted);
		r->value[i] += d;
		r->delta[i] = d;
		sum[i] += d;
	}
	uint64_t de = advance(&r->raw_enabled, s->time_enabled, restarted);
	uint64_t dr = advance(&r->raw_running, s->time_running, restarted);
	r->time_enabled += de;
	r->time_running += dr;
	r->duty_cycle = de ? (unsigned)((dr > de ? de : dr) * 100 / de) : 100;
	r->delta_valid = !restarted && !disc;
	r->epoch = s->epoch;
	r->have_raw = true;
	r->status = CPU_COUNTING;
	return disc;
}

int cache_update(struct cache *c, const struct sample *s, uint32_t now)
{
	struct cpu_row *rows = calloc(s->ncpus ? s->ncpus : 1, sizeof(*rows));
	uint64_t sum[COUNTER_COUNT] = {0};
	bool first = c->polls == 0, disc = false;

	if (!rows)
		return -1;
	if (!first && s->counted != c->counted)
		NOTE("the set of counted events changed");
	size_t old = 0;
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct cpu_sample *cs = &s->cpus[i];
		while (old < c->nrows && c->rows[old].cpu < cs->cpu) {
			NOTE("CPU %u left the table", c->rows[old].cpu);
			old++;
		}
		if (old < c->nrows && c->rows[old].cpu == cs->cpu) {
			rows[i] = c->rows[old++];
		} else {
			rows[i].cpu = cs->cpu;
			rows[i].status = CPU_STOPPED;
			if (!first)
				NOTE("CPU %u joined the table", cs->cpu);
		}
		bool was_counting = rows[i].status == CPU_COUNTING;
		if (fold_cpu(&rows[i], cs, s->counted, sum) && !first) {
			if (was_counting)
				NOTE("CPU %u stopped or restarted counting",
				     cs->cpu);
			else
				NOTE("CPU %u resumed counting", cs->cpu);
		}
	}
	for (; old < c->nrows; old++)
		NOTE("CPU %u left the table", c->rows[old].cpu);

	for (int i = 0; i < COUNTER_COUNT; i++) {
		c->total[i] += sum[i];
		c->total_delta[i] = sum[i];
	}
	c->total_delta_valid = !first && !disc;
	free(c->rows);
	c->rows = rows;
	c->nrows = s->ncpus;
	c->counted = s->counted;
	c->state = s->state;
	snprintf(c->cpurev, sizeof(c->cpurev), "%s", s->cpurev);
	c->poll_errors += s->errors;
	c->polls++;
	c->last_poll_time = now;
	if (disc) {
		c->discontinuity_time = now;
		c->discontinuities++;
	}
	return disc;
}
