/*
 * alarm_set.c - the alarm table: its rows sorted by index, built from the
 * config's alarm lines and the rows written over SNMP, with the state of
 * what did not change carried over.
 */
#include "alarm/alarm.h"

#include <stdio.h>
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

void alarm_default_name(uint32_t index, char *buf, size_t len)
{
	snprintf(buf, len, "alarm%u", index);
}

uint32_t alarm_default_name_index(const char *name)
{
	uint32_t n = 0;

	if (strncmp(name, "alarm", 5) != 0 || name[5] < '1' || name[5] > '9')
		return 0; /* "alarm0...": never what "%u" writes */
	for (const char *p = name + 5; *p; p++) {
		if (*p < '0' || *p > '9' || n > ALARM_INDEX_MAX)
			return 0;
		n = n * 10 + (uint32_t)(*p - '0');
	}
	return n <= ALARM_INDEX_MAX ? n : 0;
}

uint32_t alarm_set_next_index(const struct alarm_set *set)
{
	enum { WORDS = ALARM_INDEX_MAX / 64 + 1 };
	uint64_t taken[WORDS] = {0}; /* by a row, or as a row's name */

	for (size_t i = 0; set && i < set->count; i++) {
		uint32_t k = set->alarm[i].index;
		uint32_t d = alarm_default_name_index(set->alarm[i].cfg.name);
		taken[k / 64] |= UINT64_C(1) << (k % 64);
		taken[d / 64] |= UINT64_C(1) << (d % 64);
	}
	for (uint32_t k = ALARM_CONFIG_INDEX_MAX + 1; k <= ALARM_INDEX_MAX; k++)
		if (!(taken[k / 64] >> (k % 64) & 1))
			return k;
	return 0;
}

struct alarm_def alarm_def_of(const struct alarm *a)
{
	struct alarm_def d = {.index = a->index,
			      .storage = a->storage,
			      .row = a->row,
			      .given = a->given,
			      .cfg = a->cfg};
	memcpy(d.owner, a->owner, sizeof(d.owner));
	return d;
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

/* The counters of o into a: a row's Counter32s never go backwards while
 * it exists, whatever is done to its definition or status. */
static void keep_counters(struct alarm *a, const struct alarm *o)
{
	a->events = o->events;
	a->dropped = o->dropped;
	a->event_cpu = o->event_cpu;
	a->event_value = o->event_value;
	a->event_threshold = o->event_threshold;
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
	a->cpu_absent_logged = o->cpu_absent_logged;
	keep_counters(a, o);
	return 0;
}

/* A fresh alarm of def; from old's row of the same index (o, may be
 * NULL) its counters, and its evaluation state when both are active on
 * the same settings; a notReady row keeps the time it became so. */
static int place(struct alarm *a, const struct alarm_def *def,
		 const struct alarm *o, uint64_t now)
{
	memset(a, 0, sizeof(*a));
	a->cfg = def->cfg;
	a->index = def->index;
	a->storage = def->storage;
	a->row = def->row;
	a->given = def->given;
	memcpy(a->owner, def->owner, sizeof(a->owner));
	a->event_cpu = ALARM_CPU_SUM;
	a->not_ready_since = now;
	if (!o)
		return 0; /* new */
	if (o->row == ROW_NOT_READY && a->row == ROW_NOT_READY)
		a->not_ready_since = o->not_ready_since;
	if (o->row == ROW_ACTIVE && a->row == ROW_ACTIVE &&
	    alarm_config_same(&o->cfg, &a->cfg))
		return keep_state(a, o);
	keep_counters(a, o); /* changed: evaluation starts afresh */
	return 0;
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
					     .cfg = cfgs[i],
					     .owner = ALARM_OWNER_CONFIG}
			: rows[i - n];
		const struct alarm *o = alarm_set_find(old, d.index);
		if (place(&set->alarm[i], &d, o, o ? o->not_ready_since : 0)) {
			set->count = i;
			alarm_set_free(set);
			return -1;
		}
	}
	set->count = n + nrows;
	qsort(set->alarm, set->count, sizeof(*set->alarm), by_index);
	return 0;
}

/* The next row of cur and e merged by index: from cur (unchanged), from
 * an edit (placed), or none (gone).  -1 out of memory. */
static int merge_one(struct alarm *out, bool *made, const struct alarm_set *cur,
		     size_t *i, const struct alarm_edit *e, size_t n, size_t *k)
{
	const struct alarm *c = *i < cur->count ? &cur->alarm[*i] : NULL;
	const struct alarm_edit *x = *k < n ? &e[*k] : NULL;

	*made = false;
	if (c && (!x || c->index < x->index)) {
		(*i)++;
		*made = true;
		*out = *c;
		return keep_state(out, c);
	}
	(*k)++;
	if (c && c->index == x->index)
		(*i)++;
	else
		c = NULL;
	if (!x->def && !x->was)
		return 0; /* gone */
	*made = true;
	if (!x->was)
		return place(out, x->def, c, x->now);
	*out = *x->was; /* put back as it was */
	if (keep_state(out, x->was) != 0)
		return -1;
	if (c && c->events > out->events)
		out->events = c->events;
	if (c && c->dropped > out->dropped)
		out->dropped = c->dropped;
	return 0;
}

int alarm_set_edit(struct alarm_set *out, const struct alarm_set *cur,
		   const struct alarm_edit *e, size_t n)
{
	size_t i = 0, k = 0;

	memset(out, 0, sizeof(*out));
	if (cur->count + n == 0)
		return 0;
	out->alarm = calloc(cur->count + n, sizeof(*out->alarm));
	if (!out->alarm)
		return -1;
	while (i < cur->count || k < n) {
		bool made;
		if (merge_one(&out->alarm[out->count], &made, cur, &i, e, n,
			      &k) != 0) {
			alarm_set_free(out);
			return -1;
		}
		out->count += made;
	}
	return 0;
}

int alarm_set_build(struct alarm_set *set, const struct alarm_config *cfgs,
		    size_t n, const struct alarm_set *old)
{
	return alarm_set_build_rows(set, cfgs, n, NULL, 0, old);
}

int alarm_copy(struct alarm *to, const struct alarm *from)
{
	*to = *from;
	return keep_state(to, from);
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
