/*
 * alarm_write_check.c - TestSet's checks (RFC 3416 4.2.5's errors, RFC
 * 2579's RowStatus rules): each varbind on its own (the column, the row,
 * the value), then each row as the whole request leaves it (its status,
 * the one validity rule of alarm_def_flaw), then the table as the
 * request leaves it (names, the row limit).  Linear in the varbinds and
 * the rows (sorting aside): the rows of a request are found by an open
 * hash, names are compared sorted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alarm_write_int.h"
#include "log.h"

static size_t hash(uint32_t index, size_t nslot)
{
	return (size_t)((index * 2654435761u) & (uint32_t)(nslot - 1));
}

struct aw_change *aw_change_of(const struct aw_txn *t, uint32_t index)
{
	if (!t->nslot)
		return NULL;
	for (size_t h = hash(index, t->nslot);; h = (h + 1) & (t->nslot - 1)) {
		uint32_t s = t->slot[h];
		if (!s)
			return NULL;
		if (t->ch[s - 1].def.index == index)
			return &t->ch[s - 1];
	}
}

struct aw_change *aw_change_add(struct aw_txn *t, uint32_t index)
{
	size_t h = hash(index, t->nslot);
	while (t->slot[h])
		h = (h + 1) & (t->nslot - 1);
	t->slot[h] = (uint32_t)t->nch + 1;
	struct aw_change *c = &t->ch[t->nch++];
	memset(c, 0, sizeof(*c));
	c->def.index = index;
	return c;
}

bool aw_held(const struct alarm_writer *w, const struct aw_txn *self,
	     uint32_t index)
{
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used && &w->txn[i] != self &&
		    aw_change_of(&w->txn[i], index))
			return true;
	return false;
}

/* A row created over SNMP before it is given anything. */
static struct alarm_def fresh(uint32_t index)
{
	struct alarm_def d = {.index = index,
			      .storage = STORAGE_NONVOLATILE,
			      .row = ROW_NOT_READY};
	snprintf(d.cfg.name, sizeof(d.cfg.name), "alarm%u", index);
	d.cfg.counter = d.cfg.stat = -1;
	d.cfg.scope = SCOPE_SUM;
	d.cfg.type = TYPE_ABSOLUTE;
	d.cfg.startup = STARTUP_BOTH;
	return d;
}

/* The change of the row vb names, made on its first varbind. */
static enum ax_error row_of(struct alarm_writer *w, struct aw_txn *t,
			    const struct aw_varbind *vb, size_t i,
			    struct aw_change **out)
{
	if (vb->index < 1 || vb->index > ALARM_INDEX_MAX)
		return AX_ERR_NOCREATION;
	uint32_t index = (uint32_t)vb->index;
	struct aw_change *c = aw_change_of(t, index);
	if (!c) {
		const struct alarm *a = alarm_set_find(w->set, index);
		if (a && a->storage == STORAGE_PERMANENT)
			return AX_ERR_NOTWRITABLE; /* the config file's */
		if (!a && index <= ALARM_CONFIG_INDEX_MAX)
			return AX_ERR_NOCREATION; /* the config file's range */
		if (aw_held(w, t, index))
			return AX_ERR_RESOURCEUNAVAILABLE;
		c = aw_change_add(t, index);
		c->existed = a != NULL;
		c->def = a ? alarm_def_of(a) : fresh(index);
		c->first_vb = i;
	}
	*out = c;
	return AX_ERR_NOERROR;
}

static void set_half(uint64_t *v, bool high, uint64_t part)
{
	*v = high ? (*v & 0xffffffffu) | part << 32
		  : (*v & ~(uint64_t)0xffffffffu) | part;
}

static bool in(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v <= hi;
}

/* OwnerString (RMON-MIB): a DisplayString, printable ASCII here. */
static enum ax_error put_owner(struct aw_change *c, const struct aw_varbind *vb)
{
	if (vb->len > ALARM_OWNER_MAX)
		return AX_ERR_WRONGLENGTH;
	for (size_t k = 0; k < vb->len; k++)
		if (vb->str[k] < 0x20 || vb->str[k] > 0x7e)
			return AX_ERR_WRONGVALUE;
	memcpy(c->def.owner, vb->str, vb->len);
	c->def.owner[vb->len] = '\0';
	return AX_ERR_NOERROR;
}

/* A DisplayString column into the row's definition. */
static enum ax_error put_text(struct aw_change *c, const struct aw_varbind *vb)
{
	struct alarm_config *cfg = &c->def.cfg;
	size_t max = vb->column == AC_NAME ? ALARM_NAME_MAX : 64;

	if (vb->column == AC_OWNER)
		return put_owner(c, vb);
	if (vb->len < 1 || vb->len > max)
		return AX_ERR_WRONGLENGTH;
	if (vb->column == AC_METRIC) {
		if (alarm_metric_set(cfg, vb->str, vb->len) != 0)
			return AX_ERR_WRONGVALUE; /* no such metric */
		c->def.given |= ALARM_GIVEN_METRIC;
		return AX_ERR_NOERROR;
	}
	if (!alarm_name_valid(vb->str, vb->len))
		return AX_ERR_WRONGVALUE;
	memcpy(cfg->name, vb->str, vb->len);
	cfg->name[vb->len] = '\0';
	return AX_ERR_NOERROR;
}

/* The enumerations and ranges of the numeric columns (MIB SYNTAX, and
 * RFC 2579: only volatile and nonVolatile may be written, never
 * notReady). */
static bool in_range(unsigned column, int64_t v)
{
	switch (column) {
	case AC_SCOPE:
		return in(v, SCOPE_SUM, SCOPE_EACH_CPU);
	case AC_CPU:
		return in(v, -1, 65535);
	case AC_SAMPLE_TYPE:
		return in(v, TYPE_ABSOLUTE, TYPE_RATE);
	case AC_STARTUP:
		return in(v, STARTUP_RISING, STARTUP_BOTH);
	case AC_STORAGE:
		return v == STORAGE_VOLATILE || v == STORAGE_NONVOLATILE;
	case AC_ROW_STATUS:
		return in(v, AW_RS_ACTIVE, AW_RS_DESTROY) &&
		       v != AW_RS_NOT_READY;
	default: /* the Unsigned32 halves */
		return true;
	}
}

/* A numeric column into the row's definition (in range). */
static enum ax_error put_number(struct aw_change *c,
				const struct aw_varbind *vb)
{
	struct alarm_config *cfg = &c->def.cfg;
	uint64_t u = (uint64_t)vb->num;

	switch (vb->column) {
	case AC_SCOPE:
		cfg->scope = (enum alarm_scope)vb->num;
		break;
	case AC_CPU:
		cfg->cpu = vb->num < 0 ? 0 : (unsigned)vb->num;
		c->def.given = vb->num < 0 ? c->def.given & ~ALARM_GIVEN_CPU
					   : c->def.given | ALARM_GIVEN_CPU;
		break;
	case AC_SAMPLE_TYPE:
		cfg->type = (enum alarm_type)vb->num;
		break;
	case AC_STARTUP:
		cfg->startup = (enum alarm_startup)vb->num;
		break;
	case AC_RISING_LOW:
	case AC_RISING_HIGH:
		set_half(&cfg->rising, vb->column == AC_RISING_HIGH, u);
		c->def.given |= ALARM_GIVEN_RISING;
		break;
	case AC_FALLING_LOW:
	case AC_FALLING_HIGH:
		set_half(&cfg->falling, vb->column == AC_FALLING_HIGH, u);
		break;
	case AC_STORAGE:
		c->def.storage = (enum alarm_storage)vb->num;
		break;
	default:
		return AX_ERR_NOTWRITABLE;
	}
	return AX_ERR_NOERROR;
}

/* The value of one column into the row's definition. */
static enum ax_error put(struct aw_change *c, const struct aw_varbind *vb)
{
	if (vb->column == AC_NAME || vb->column == AC_METRIC ||
	    vb->column == AC_OWNER)
		return put_text(c, vb);
	if (!in_range(vb->column, vb->num))
		return AX_ERR_WRONGVALUE;
	if (vb->column == AC_ROW_STATUS) {
		if (c->rs)
			return AX_ERR_INCONSISTENTVALUE; /* twice */
		c->rs = (unsigned)vb->num;
		return AX_ERR_NOERROR;
	}
	return put_number(c, vb);
}

static bool writable(unsigned col)
{
	return (col >= AC_NAME && col <= AC_SAMPLE_TYPE) || col == AC_STARTUP ||
	       (col >= AC_RISING_LOW && col <= AC_OWNER);
}

/* One varbind; the error, if any, is this varbind's. */
static enum ax_error one(struct alarm_writer *w, struct aw_txn *t,
			 const struct aw_varbind *vb, size_t i)
{
	struct aw_change *c;
	if (!writable(vb->column))
		return vb->column >= 2 && vb->column <= 16 ? AX_ERR_NOTWRITABLE
							   : AX_ERR_NOCREATION;
	enum ax_error e = row_of(w, t, vb, i, &c);
	if (e == AX_ERR_NOERROR)
		e = put(c, vb);
	if (e == AX_ERR_NOERROR) {
		c->vb[vb->column] = (uint32_t)i;
		c->redefined |= vb->column != AC_STORAGE &&
				vb->column != AC_ROW_STATUS &&
				vb->column != AC_OWNER;
	}
	return e;
}

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

/* Two rows with one name, one of them named by this request: the
 * varbind to blame (its Name, else its first), 0 if none.  The other
 * sets in progress hold the names they give (until they end). */
static size_t name_clash(const struct alarm_writer *w, const struct aw_txn *t,
			 int *oom)
{
	size_t n = 0, max = w->set->count + t->nch, at = 0;
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used && &w->txn[i] != t && !w->txn[i].committed)
			max += w->txn[i].nch;
	struct name_of *v = malloc((max ? max : 1) * sizeof(*v));
	if (!(*oom = !v)) {
		for (size_t i = 0; i < w->set->count; i++)
			if (!aw_change_of(t, w->set->alarm[i].index))
				v[n++] = (struct name_of){
				    w->set->alarm[i].cfg.name, NULL};
		for (size_t i = 0; i < AW_TXN_MAX; i++) {
			const struct aw_txn *o = &w->txn[i];
			bool mine = o == t;
			if ((!o->used || o->committed) && !mine)
				continue;
			for (size_t k = 0; k < o->nch; k++)
				if (!o->ch[k].destroy && !o->ch[k].noop)
					v[n++] = (struct name_of){
					    o->ch[k].def.cfg.name,
					    mine ? &o->ch[k] : NULL};
		}
		qsort(v, n, sizeof(*v), by_name);
		for (size_t i = 0; i < n && !at; i++) {
			const struct aw_change *c = v[i].c;
			bool dup = (i && !strcmp(v[i - 1].name, v[i].name)) ||
				   (i + 1 < n && !strcmp(v[i + 1].name, v[i].name));
			if (dup && c && names_written(c))
				at = c->vb[AC_NAME] ? c->vb[AC_NAME] : c->first_vb;
		}
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

enum ax_error aw_check(struct alarm_writer *w, struct aw_txn *t,
		       const struct aw_varbind *vb, size_t n, size_t *bad)
{
	int oom;
	size_t rows;

	for (size_t i = 0; i < n; i++) {
		enum ax_error e = one(w, t, &vb[i], i + 1);
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
		hwr_log(LOG_WARNING,
			"alarm table: row %llu not created: %zu rows created "
			"over SNMP, the most alarmSetMaxRows allows is %u\n",
			(unsigned long long)vb[*bad - 1].index, rows,
			w->env.max_rows);
		return AX_ERR_RESOURCEUNAVAILABLE;
	}
	return AX_ERR_NOERROR;
}
