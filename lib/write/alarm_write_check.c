/*
 * alarm_write_check.c - TestSet's checks (RFC 3416 4.2.5's errors, RFC
 * 2579's RowStatus rules): each varbind on its own (alarm_write_put.c),
 * then each row as the whole request leaves it (its status, the one
 * validity rule of alarm_def_flaw), then the table as the request leaves
 * it (names, the row limit).  Linear in the varbinds and the rows
 * (sorting aside): names are compared sorted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "write/alarm_write_int.h"
#include "util/log.h"

/* The first of the columns' varbinds, else fallback. */
static size_t blame(const struct aw_change *c, const unsigned *cols,
		    size_t fallback)
{
	for (; *cols; cols++)
		if (c->vb[*cols])
			return c->vb[*cols];
	return fallback;
}

/* The first varbind of the row other than its RowStatus, 0 if none. */
static size_t other_column(const struct aw_change *c)
{
	size_t first = 0;
	for (unsigned col = AC_NAME; col <= AC_MAX; col++)
		if (col != AC_ROW_STATUS && c->vb[col] &&
		    (!first || c->vb[col] < first))
			first = c->vb[col];
	return first;
}

/* destroy(6): of a row that is not there, nothing (RFC 2579); with
 * another column of the row in the request, that column is refused. */
static size_t destroy(struct aw_change *c, bool *name)
{
	size_t other = other_column(c);
	*name = !c->existed;
	c->noop = !c->existed;
	c->destroy = c->existed;
	return other;
}

/* A row that is not there: only createAndGo or createAndWait make it. */
static size_t create(struct aw_change *c, size_t rs, bool complete, bool *name)
{
	if (c->rs != AW_RS_CREATE_AND_GO && c->rs != AW_RS_CREATE_AND_WAIT) {
		*name = c->rs == 0; /* a column of no row */
		return rs;
	}
	c->def.row = c->rs == AW_RS_CREATE_AND_GO ? ROW_ACTIVE
		     : complete			  ? ROW_NOT_IN_SERVICE
						  : ROW_NOT_READY;
	return 0;
}

/* The row's RowStatus transition (RFC 2579); 0 or the varbind to blame
 * for inconsistentValue (inconsistentName when *name). */
static size_t transition(struct aw_change *c, bool *name)
{
	size_t rs = c->vb[AC_ROW_STATUS] ? c->vb[AC_ROW_STATUS] : c->first_vb;
	bool complete = (c->def.given & ALARM_GIVEN_ALL) == ALARM_GIVEN_ALL;
	static const unsigned def[] = {
	    AC_NAME,	   AC_METRIC,	   AC_SCOPE,	   AC_CPU,
	    AC_SAMPLE_TYPE, AC_STARTUP,	   AC_RISING_LOW, AC_RISING_HIGH,
	    AC_FALLING_LOW, AC_FALLING_HIGH, 0};

	*name = false;
	if (c->rs == AW_RS_DESTROY)
		return destroy(c, name);
	if (!c->existed)
		return create(c, rs, complete, name);
	if (c->rs == AW_RS_CREATE_AND_GO || c->rs == AW_RS_CREATE_AND_WAIT)
		return rs; /* the row is there */
	if (c->redefined && c->def.row == ROW_ACTIVE &&
	    c->rs != AW_RS_NOT_IN_SERVICE)
		return blame(c, def, rs);
	if (c->rs == AW_RS_ACTIVE)
		c->def.row = ROW_ACTIVE;
	else if (c->rs == AW_RS_NOT_IN_SERVICE ||
		 (c->def.row == ROW_NOT_READY && complete))
		c->def.row = ROW_NOT_IN_SERVICE;
	return 0;
}

/* The row against the one validity rule (alarm_def_flaw); 0 or the
 * varbind to blame for inconsistentValue.  A scope other than cpu(2)
 * left without a CPU written in the request has none (Cpu reads -1). */
static size_t flawed(struct aw_change *c)
{
	size_t rs = c->vb[AC_ROW_STATUS] ? c->vb[AC_ROW_STATUS] : c->first_vb;
	static const unsigned thresholds[] = {AC_FALLING_LOW, AC_FALLING_HIGH,
					      AC_RISING_LOW, AC_RISING_HIGH, 0};
	static const unsigned stat[] = {AC_SAMPLE_TYPE, AC_METRIC, 0};
	static const unsigned cpu[] = {AC_CPU, AC_SCOPE, 0};

	if (c->def.cfg.scope != SCOPE_CPU &&
	    !(c->vb[AC_CPU] && (c->def.given & ALARM_GIVEN_CPU))) {
		c->def.given &= ~ALARM_GIVEN_CPU;
		c->def.cfg.cpu = 0;
	}
	switch (alarm_def_flaw(&c->def)) {
	case ALARM_FLAW_NONE:
		return 0;
	case ALARM_FLAW_STAT_RATE:
		return blame(c, stat, rs);
	case ALARM_FLAW_CPU:
		return blame(c, cpu, rs);
	case ALARM_FLAW_THRESHOLDS:
		return blame(c, thresholds, rs);
	default: /* incomplete: not ready to be notInService or active */
		return rs;
	}
}

/* Each row as the request leaves it. */
static enum ax_error settle(struct aw_change *c, size_t *bad)
{
	bool name;
	size_t at = transition(c, &name);

	if (!at && !c->destroy && !c->noop)
		at = flawed(c);
	if (at) {
		*bad = at;
		return name ? AX_ERR_INCONSISTENTNAME
			    : AX_ERR_INCONSISTENTVALUE;
	}
	return AX_ERR_NOERROR;
}

/* One name of the table as the request leaves it: whose, and whether
 * the request wrote it (a row created, or its Name column). */
struct name_of {
	const char *name;
	const struct aw_change *c; /* the request's row, else NULL */
	uint32_t index;		   /* the row's */
	bool held;		   /* given by another set in progress */
};

static int by_name(const void *x, const void *y)
{
	const struct name_of *a = x, *b = y;
	int r = strcmp(a->name, b->name);
	if (r == 0 && a->c && b->c) /* the request's first varbind first */
		r = a->c->first_vb < b->c->first_vb ? -1 : 1;
	return r;
}

static bool names_written(const struct aw_change *c)
{
	return !c->destroy && !c->noop && (!c->existed || c->vb[AC_NAME]);
}

/* The names of the table as t leaves it into v (room for them all):
 * the rows t does not touch, the rows of the other sets in progress
 * (they hold the names they give until they end), t's rows. */
static size_t names_of(const struct alarm_writer *w, const struct aw_txn *t,
		       struct name_of *v)
{
	size_t n = 0;
	for (size_t i = 0; i < w->set->count; i++)
		if (!write_change_of(t, w->set->alarm[i].index))
			v[n++] = (struct name_of){w->set->alarm[i].cfg.name,
						  NULL, w->set->alarm[i].index,
						  false};
	for (size_t i = 0; i < AW_TXN_MAX; i++) {
		const struct aw_txn *o = &w->txn[i];
		bool mine = o == t;
		if ((!o->used || o->committed) && !mine)
			continue;
		for (size_t k = 0; k < o->nch; k++)
			if (!o->ch[k].destroy && !o->ch[k].noop)
				v[n++] = (struct name_of){
				    o->ch[k].def.cfg.name,
				    mine ? &o->ch[k] : NULL,
				    o->ch[k].def.index, !mine};
	}
	return n;
}

/* Whose the other row with the name is, for the log. */
static const char *whose(const struct name_of *other)
{
	if (other->c)
		return "in this request";
	if (other->held)
		return "in another set in progress";
	return other->index <= ALARM_CONFIG_INDEX_MAX ? "the config file's"
						      : "created over SNMP";
}

/* The varbind to blame for a name of the request that other has too
 * (its Name; a default name: the RowStatus that creates the row), and
 * the log line that says which name, whose, and why. */
static size_t clash_at(const struct name_of *mine, const struct name_of *other)
{
	const struct aw_change *c = mine->c;
	size_t at = c->vb[AC_NAME] ? c->vb[AC_NAME] : c->vb[AC_ROW_STATUS];
	char how[96];

	if (!at)
		at = c->first_vb;
	if (c->vb[AC_NAME])
		snprintf(how, sizeof(how), "hwR10kEvCtrAlarmName.%u, varbind %u",
			 c->def.index, c->vb[AC_NAME]);
	else
		snprintf(how, sizeof(how),
			 "its default name: the request sets no "
			 "hwR10kEvCtrAlarmName.%u",
			 c->def.index);
	util_log(LOG_INFO,
		 "alarm table: row %u not %s: the name '%s' (%s) is taken by "
		 "row %u (%s); inconsistentValue at varbind %zu\n",
		 c->def.index, c->existed ? "changed" : "created", mine->name,
		 how, other->index, whose(other), at);
	return at;
}

/* Two rows with one name, one of them named by this request: the
 * varbind to blame (clash_at), 0 if none. */
static size_t name_clash(const struct alarm_writer *w, const struct aw_txn *t,
			 int *oom)
{
	size_t n, max = w->set->count + t->nch, at = 0;
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used && &w->txn[i] != t && !w->txn[i].committed)
			max += w->txn[i].nch;
	struct name_of *v = malloc((max ? max : 1) * sizeof(*v));
	if ((*oom = !v))
		return 0;
	n = names_of(w, t, v);
	qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n && !at; i++) {
		const struct aw_change *c = v[i].c;
		bool before = i && !strcmp(v[i - 1].name, v[i].name);
		bool after = i + 1 < n && !strcmp(v[i + 1].name, v[i].name);
		if ((before || after) && c && names_written(c))
			at = clash_at(&v[i], &v[before ? i - 1 : i + 1]);
	}
	free(v);
	return at;
}

/* The row over alarmSetMaxRows, as the request leaves the table (its
 * rows destroyed make room first; the other sets in progress hold the
 * rows they create): its RowStatus varbind, 0 if none. */
static size_t over_limit(const struct alarm_writer *w, const struct aw_txn *t,
			 size_t *rows)
{
	size_t n = alarm_rows_created(w->set);
	for (size_t i = 0; i < AW_TXN_MAX; i++) {
		const struct aw_txn *o = &w->txn[i];
		for (size_t k = 0; o->used && !o->committed && k < o->nch; k++)
			n += o != t && !o->ch[k].existed && !o->ch[k].noop;
	}
	for (size_t k = 0; k < t->nch; k++)
		n -= t->ch[k].destroy;
	*rows = n;
	for (size_t k = 0; k < t->nch; k++) { /* in the request's order */
		const struct aw_change *c = &t->ch[k];
		if (c->existed || c->noop)
			continue;
		if (++n > w->env.max_rows)
			return c->vb[AC_ROW_STATUS];
	}
	return 0;
}

enum ax_error write_check(struct alarm_writer *w, struct aw_txn *t,
			  const struct aw_varbind *vb, size_t n, size_t *bad)
{
	int oom;
	size_t rows;

	for (size_t i = 0; i < n; i++) {
		enum ax_error e = write_put_varbind(w, t, &vb[i], i + 1);
		if (e != AX_ERR_NOERROR) {
			*bad = i + 1;
			return e;
		}
	}
	for (size_t i = 0; i < t->nch; i++) {
		enum ax_error e = settle(&t->ch[i], bad);
		if (e != AX_ERR_NOERROR)
			return e;
	}
	if ((*bad = name_clash(w, t, &oom)) != 0 || oom) {
		*bad = *bad ? *bad : 1;
		return oom ? AX_ERR_RESOURCEUNAVAILABLE
			   : AX_ERR_INCONSISTENTVALUE;
	}
	if ((*bad = over_limit(w, t, &rows)) != 0) {
		util_log(LOG_WARNING,
			 "alarm table: row %llu not created: %zu rows created "
			 "over SNMP, the most alarmSetMaxRows allows is %u\n",
			 (unsigned long long)vb[*bad - 1].index, rows,
			 w->env.max_rows);
		return AX_ERR_RESOURCEUNAVAILABLE;
	}
	return AX_ERR_NOERROR;
}
