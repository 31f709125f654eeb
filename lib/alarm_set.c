/*
 * alarm_set.c - the alarm table: its rows sorted by index, built from the
 * config's alarm lines and the rows written over SNMP, with the state of
 * what did not change carried over.
 */
#include "alarm.h"

#include <stdlib.h>
#include <string.h>

bool alarm_config_same(const struct alarm_config *a,
		       const struct alarm_config *b)
{
	return strcmp(a->name, b->name) == 0 && a->counter == b->counter &&
	       a->stat == b->stat && a->scope == b->scope && a->cpu == b->cpu &&
	       a->type == b->type && a->rising == b->rising &&
	       a->falling == b->falling && a->startup == b->startup;
}

size_t alarm_rows_created(const struct alarm_set *set)
{
	size_t n = 0;
	for (size_t i = 0; set && i < set->count; i++)
		n += set->alarm[i].storage != STORAGE_PERMANENT;
	return n;
}

struct alarm_def alarm_def_of(const struct alarm *a)
{
	return (struct alarm_def){.index = a->index,
				  .storage = a->storage,
				  .row = a->row,
				  .given = a->given,
				  .cfg = a->cfg};
}

size_t alarm_set_after(const struct alarm_set *set, uint64_t index)
{
	size_t lo = 0, hi = set ? set->count : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (set->alarm[mid].index <= index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct alarm *alarm_set_find(const struct alarm_set *set, uint32_t index)
{
	size_t i = alarm_set_after(set, index);
	if (i == 0 || set->alarm[i - 1].index != index)
		return NULL;
	return &set->alarm[i - 1];
}

/* The state of o into a (the same alarm, unchanged); -1 out of memory. */
static int keep_state(struct alarm *a, const struct alarm *o)
{
	a->inst = NULL;
	if (o->ninst) {
		a->inst = malloc(o->ninst * sizeof(*a->inst));
		if (!a->inst)
			return -1;
		memcpy(a->inst, o->inst, o->ninst * sizeof(*a->inst));
	}
	a->ninst = o->ninst;
	a->events = o->events;
	a->dropped = o->dropped;
	a->cpu_absent_logged = o->cpu_absent_logged;
	a->event_cpu = o->event_cpu;
	a->event_value = o->event_value;
	a->event_threshold = o->event_threshold;
	return 0;
}

/* A fresh alarm of def, with the state of old's alarm of the same index
 * when both are active on the same settings. */
static int place(struct alarm *a, const struct alarm_def *def,
		 const struct alarm_set *old)
{
	memset(a, 0, sizeof(*a));
	a->cfg = def->cfg;
	a->index = def->index;
	a->storage = def->storage;
	a->row = def->row;
	a->given = def->given;
	a->event_cpu = ALARM_CPU_SUM;
	const struct alarm *o = alarm_set_find(old, def->index);
	if (o && o->row == ROW_ACTIVE && a->row == ROW_ACTIVE &&
	    alarm_config_same(&o->cfg, &a->cfg))
		return keep_state(a, o);
	return 0; /* new or changed: starts afresh */
}

static int by_index(const void *x, const void *y)
{
	const struct alarm *a = x, *b = y;
	return a->index < b->index ? -1 : a->index > b->index;
}

int alarm_set_build_rows(struct alarm_set *set, const struct alarm_config *cfgs,
			 size_t n, const struct alarm_def *rows, size_t nrows,
			 const struct alarm_set *old)
{
	memset(set, 0, sizeof(*set));
	if (n + nrows == 0)
		return 0;
	set->alarm = calloc(n + nrows, sizeof(*set->alarm));
	if (!set->alarm)
		return -1;
	for (size_t i = 0; i < n + nrows; i++) {
		struct alarm_def d =
		    i < n
			? (struct alarm_def){.index = (uint32_t)i + 1,
					     .storage = STORAGE_PERMANENT,
					     .row = ROW_ACTIVE,
					     .given = ALARM_GIVEN_OF(&cfgs[i]),
					     .cfg = cfgs[i]}
			: rows[i - n];
		if (place(&set->alarm[i], &d, old) != 0) {
			set->count = i;
			alarm_set_free(set);
			return -1;
		}
	}
	set->count = n + nrows;
	qsort(set->alarm, set->count, sizeof(*set->alarm), by_index);
	return 0;
}

int alarm_set_build(struct alarm_set *set, const struct alarm_config *cfgs,
		    size_t n, const struct alarm_set *old)
{
	return alarm_set_build_rows(set, cfgs, n, NULL, 0, old);
}

int alarm_set_copy(struct alarm_set *to, const struct alarm_set *from)
{
	memset(to, 0, sizeof(*to));
	if (!from->count)
		return 0;
	to->alarm = calloc(from->count, sizeof(*to->alarm));
	if (!to->alarm)
		return -1;
	for (size_t i = 0; i < from->count; i++) {
		to->alarm[i] = from->alarm[i];
		if (keep_state(&to->alarm[i], &from->alarm[i]) != 0) {
			to->count = i;
			alarm_set_free(to);
			return -1;
		}
		to->count = i + 1;
	}
	return 0;
}

void alarm_set_free(struct alarm_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		free(set->alarm[i].inst);
	free(set->alarm);
	memset(set, 0, sizeof(*set));
}

enum alarm_status alarm_status_of(const struct alarm *a)
{
	enum alarm_status s = ALARM_WAITING;
	for (size_t i = 0; i < a->ninst; i++) {
		if (!a->inst[i].sampled)
			continue;
		if (a->inst[i].status == ALARM_RISEN)
			return ALARM_RISEN; /* any CPU above: the row is risen
					     */
		if (a->inst[i].status == ALARM_FALLEN || s == ALARM_WAITING)
			s = a->inst[i].status;
	}
	return s;
}

bool alarm_value_of(const struct alarm *a, uint64_t *value)
{
	bool any = false;
	for (size_t i = 0; i < a->ninst; i++) {
		if (!a->inst[i].sampled)
			continue;
		if (!any || a->inst[i].value > *value)
			*value = a->inst[i].value;
		any = true;
	}
	return any;
}
