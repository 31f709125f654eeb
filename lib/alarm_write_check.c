/*
 * alarm_write_check.c - TestSet's checks (RFC 3416 4.2.5's errors, RFC
 * 2579's RowStatus rules): each varbind on its own (the column, the row,
 * the value), then each row as the whole request leaves it.
 */
#include <stdio.h>
#include <string.h>

#include "alarm_write_int.h"
#include "log.h"

struct aw_change *aw_change_of(const struct aw_txn *t, uint32_t index)
{
	for (size_t i = 0; i < t->nch; i++)
		if (t->ch[i].def.index == index)
			return &t->ch[i];
	return NULL;
}

/* Is the row locked by another transaction in progress? */
static bool locked(struct alarm_writer *w, const struct aw_txn *self,
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
		if (locked(w, t, index))
			return AX_ERR_RESOURCEUNAVAILABLE;
		c = &t->ch[t->nch++];
		memset(c, 0, sizeof(*c));
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

/* A DisplayString column into the row's definition. */
static enum ax_error put_text(struct aw_change *c, const struct aw_varbind *vb)
{
	struct alarm_config *cfg = &c->def.cfg;
	size_t max = vb->column == AC_NAME ? ALARM_NAME_MAX : 64;

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

/* The value of one column into the row's definition. */
static enum ax_error put(struct aw_change *c, const struct aw_varbind *vb)
{
	struct alarm_config *cfg = &c->def.cfg;
	uint64_t u = (uint64_t)vb->num;

	if (vb->column == AC_NAME || vb->column == AC_METRIC)
		return put_text(c, vb);
	if (!in_range(vb->column, vb->num))
		return AX_ERR_WRONGVALUE;
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
	case AC_ROW_STATUS:
		if (c->rs)
			return AX_ERR_INCONSISTENTVALUE; /* twice */
		c->rs = (unsigned)vb->num;
		break;
	default:
		return AX_ERR_NOTWRITABLE;
	}
	return AX_ERR_NOERROR;
}

static bool writable(unsigned col)
{
	return (col >= AC_NAME && col <= AC_SAMPLE_TYPE) || col == AC_STARTUP ||
	       (col >= AC_RISING_LOW && col <= AC_ROW_STATUS);
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
		c->vb[vb->column] = i;
		c->redefined |=
		    vb->column != AC_STORAGE && vb->column != AC_ROW_STATUS;
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

/* Can the row be active?  If not, the varbind to blame. */
static size_t cannot_activate(const struct aw_change *c, size_t at)
{
	const struct alarm_config *cfg = &c->def.cfg;
	static const unsigned thresholds[] = {AC_FALLING_LOW, AC_FALLING_HIGH,
					      AC_RISING_LOW, AC_RISING_HIGH, 0};
	static const unsigned stat[] = {AC_SAMPLE_TYPE, AC_METRIC, 0};
	static const unsigned cpu[] = {AC_SCOPE, AC_CPU, 0};

	if ((c->def.given & ALARM_GIVEN_ALL) != ALARM_GIVEN_ALL)
		return at;
	if (cfg->scope == SCOPE_CPU && !(c->def.given & ALARM_GIVEN_CPU))
		return blame(c, cpu, at);
	if (cfg->stat >= 0 && cfg->type == TYPE_RATE)
		return blame(c, stat, at);
	if (cfg->falling >= cfg->rising)
		return blame(c, thresholds, at);
	return 0;
}

/* The row's RowStatus transition (RFC 2579); 0 or the varbind to blame
 * for inconsistentValue (inconsistentName when *name). */
static size_t transition(struct aw_change *c, bool *name)
{
	size_t rs = c->vb[AC_ROW_STATUS] ? c->vb[AC_ROW_STATUS] : c->first_vb;
	bool complete = (c->def.given & ALARM_GIVEN_ALL) == ALARM_GIVEN_ALL;

	*name = false;
	if (!c->existed) {
		if (c->rs == AW_RS_DESTROY) {
			c->noop = true;
			return 0;
		}
		if (c->rs != AW_RS_CREATE_AND_GO &&
		    c->rs != AW_RS_CREATE_AND_WAIT) {
			*name = c->rs == 0; /* a column of no row */
			return rs;
		}
		c->def.row = c->rs == AW_RS_CREATE_AND_GO ? ROW_ACTIVE
			     : complete			  ? ROW_NOT_IN_SERVICE
							  : ROW_NOT_READY;
		return c->rs == AW_RS_CREATE_AND_GO ? cannot_activate(c, rs)
						    : 0;
	}
	if (c->rs == AW_RS_CREATE_AND_GO || c->rs == AW_RS_CREATE_AND_WAIT)
		return rs; /* the row is there */
	if (c->rs == AW_RS_DESTROY) {
		c->destroy = true;
		return 0;
	}
	if (c->redefined && c->def.row == ROW_ACTIVE &&
	    c->rs != AW_RS_NOT_IN_SERVICE) {
		static const unsigned def[] = {AC_NAME,
					       AC_METRIC,
					       AC_SCOPE,
					       AC_CPU,
					       AC_SAMPLE_TYPE,
					       AC_STARTUP,
					       AC_RISING_LOW,
					       AC_RISING_HIGH,
					       AC_FALLING_LOW,
					       AC_FALLING_HIGH,
					       0};
		return blame(c, def, rs);
	}
	if (c->rs == AW_RS_ACTIVE) {
		c->def.row = ROW_ACTIVE;
		return cannot_activate(c, rs);
	}
	if (c->rs == AW_RS_NOT_IN_SERVICE) {
		c->def.row = ROW_NOT_IN_SERVICE;
		return complete ? 0 : rs;
	}
	if (c->def.row == ROW_NOT_READY && complete)
		c->def.row = ROW_NOT_IN_SERVICE;
	return 0;
}

/* Is the row's name another row's (as the request leaves the table)? */
static bool name_taken(const struct alarm_writer *w, const struct aw_txn *t,
		       const struct aw_change *c)
{
	for (size_t i = 0; i < w->set->count; i++) {
		const struct alarm *a = &w->set->alarm[i];
		const struct aw_change *o = aw_change_of(t, a->index);
		if (a->index != c->def.index && !o &&
		    strcmp(a->cfg.name, c->def.cfg.name) == 0)
			return true;
	}
	for (size_t i = 0; i < t->nch; i++)
		if (&t->ch[i] != c && !t->ch[i].destroy && !t->ch[i].noop &&
		    strcmp(t->ch[i].def.cfg.name, c->def.cfg.name) == 0)
			return true;
	return false;
}

/* Rows the pending transactions create. */
static size_t creating(const struct alarm_writer *w)
{
	size_t n = 0;
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		for (size_t k = 0; k < w->txn[i].nch; k++)
			n += !w->txn[i].ch[k].existed &&
			     !w->txn[i].ch[k].noop && !w->txn[i].committed;
	return n;
}

/* Each row as the request leaves it. */
static enum ax_error settle(struct alarm_writer *w, struct aw_txn *t,
			    struct aw_change *c, size_t *bad)
{
	bool name;
	size_t at = transition(c, &name);

	if (at) {
		*bad = at;
		return name ? AX_ERR_INCONSISTENTNAME
			    : AX_ERR_INCONSISTENTVALUE;
	}
	if (c->destroy || c->noop)
		return AX_ERR_NOERROR;
	if (name_taken(w, t, c)) {
		*bad = c->vb[AC_NAME] ? c->vb[AC_NAME] : c->first_vb;
		return AX_ERR_INCONSISTENTVALUE;
	}
	if (!c->existed &&
	    alarm_rows_created(w->set) + creating(w) > w->env.max_rows) {
		hwr_log(LOG_WARNING,
			"alarm table: row %u not created: %zu rows created "
			"over SNMP, the most alarmSetMaxRows allows is %u\n",
			c->def.index, alarm_rows_created(w->set),
			w->env.max_rows);
		*bad = c->vb[AC_ROW_STATUS];
		return AX_ERR_RESOURCEUNAVAILABLE;
	}
	return AX_ERR_NOERROR;
}

enum ax_error aw_check(struct alarm_writer *w, struct aw_txn *t,
		       const struct aw_varbind *vb, size_t n, size_t *bad)
{
	for (size_t i = 0; i < n; i++) {
		enum ax_error e = one(w, t, &vb[i], i + 1);
		if (e != AX_ERR_NOERROR) {
			*bad = i + 1;
			return e;
		}
	}
	for (size_t i = 0; i < t->nch; i++) {
		enum ax_error e = settle(w, t, &t->ch[i], bad);
		if (e != AX_ERR_NOERROR)
			return e;
	}
	return AX_ERR_NOERROR;
}
