/* alarm_eval.c - feeds cache samples through the alarm state machine. */
#include "alarm/alarm_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/sorted.h"
#include "cache/stat_eval.h"

static long long instance_key(const void *e)
{
	return ((const struct alarm_instance *)e)->cpu;
}

static struct alarm_instance *instance(struct alarm *a, int cpu)
{
	bool added;
	struct alarm_instance *p = util_sorted_find_or_add(
	    (void **)&a->inst, &a->ninst, sizeof(*a->inst), instance_key, cpu,
	    &added);
	if (p && added) {
		p->cpu = cpu;
		p->status = ALARM_WAITING;
	}
	return p;
}

/* Each-CPU alarms follow the CPU table: a CPU that left loses its state. */
static void drop_departed(struct alarm *a, const struct cache *c)
{
	size_t k = 0;
	for (size_t i = 0; i < a->ninst; i++)
		if (cache_row(c, (unsigned)a->inst[i].cpu))
			a->inst[k++] = a->inst[i];
	a->ninst = k;
}

static unsigned sample_one(const struct cache *c, struct alarm *a,
			   int cpu, alarm_emit_fn emit, void *ctx)
{
	uint64_t v = 0;
	enum sample_status st =
	    a->cfg.stat >= 0 ? cache_stat_value(c, (size_t)a->cfg.stat, cpu, &v)
	    : a->cfg.type == TYPE_RATE
		? cache_rate(c, a->cfg.counter, cpu, &v)
		: cache_value(c, a->cfg.counter, cpu, &v);
	if (st == SAMPLE_NONE || st == SAMPLE_UNREAD)
		return 0; /* nothing to sample now; nothing was lost */
	char who[16] = "sum";
	if (cpu >= 0)
		snprintf(who, sizeof(who), "CPU %d", cpu);
	if (st == SAMPLE_DISCONTINUITY) {
		a->dropped++;
		util_log(LOG_INFO,
			 "alarm %s: %s: sample across a counter discontinuity "
			 "dropped\n",
			 a->cfg.name, who);
		return 0;
	}
	struct alarm_instance *in = instance(a, cpu);
	enum alarm_event_kind kind;
	if (!in || !alarm_step(&a->cfg, in, v, &kind))
		return 0;
	a->events++;
	a->event_cpu = cpu;
	a->event_value = v;
	a->event_threshold =
	    kind == ALARM_EVENT_RISING ? a->cfg.rising : a->cfg.falling;
	util_log(
	    LOG_NOTICE, "alarm %s: %s %s %llu %s threshold %llu\n", a->cfg.name,
	    kind == ALARM_EVENT_RISING ? "rising:" : "falling:", who,
	    (unsigned long long)v, kind == ALARM_EVENT_RISING ? ">=" : "<=",
	    (unsigned long long)a->event_threshold);
	if (emit)
		emit(ctx, a, a->index, kind);
	return 1;
}

unsigned alarm_evaluate(const struct cache *c, struct alarm_set *alarms,
			alarm_emit_fn emit, void *ctx)
{
	unsigned n = 0;
	if (!alarms)
		return 0;
	for (size_t i = 0; i < alarms->count; i++) {
		struct alarm *a = &alarms->alarm[i];
		if (a->row != ROW_ACTIVE)
			continue; /* notInService, notReady: not sampled */
		switch (a->cfg.scope) {
		case SCOPE_SUM:
			n += sample_one(c, a, ALARM_CPU_SUM, emit, ctx);
			break;
		case SCOPE_CPU:
			if (c->polls && !cache_row(c, a->cfg.cpu)) {
				if (!a->cpu_absent_logged)
					util_log(
					    LOG_WARNING,
					    "alarm %s: CPU %u is not in the "
					    "CPU table; the alarm waits for "
					    "it\n",
					    a->cfg.name, a->cfg.cpu);
				a->cpu_absent_logged = true;
				break;
			}
			a->cpu_absent_logged = false;
			n += sample_one(c, a, (int)a->cfg.cpu, emit, ctx);
			break;
		case SCOPE_EACH_CPU:
			drop_departed(a, c);
			for (size_t r = 0; r < c->nrows; r++)
				n += sample_one(c, a, (int)c->rows[r].cpu,
						emit, ctx);
			break;
		}
	}
	return n;
}
