/*
 * alarm_write_put.c - TestSet's first pass: each varbind on its own (the
 * column, the row, the value, RFC 3416's errors) into the change of its
 * row; the changes of a set, found by row index in constant time (an
 * open hash), and the rows other sets in progress hold.
 */
#include <stdio.h>
#include <string.h>

#include "write/alarm_write_int.h"

static size_t hash(uint32_t index, size_t nslot)
{
	return (size_t)((index * 2654435761u) & (uint32_t)(nslot - 1));
}

struct aw_change *write_change_of(const struct aw_txn *t, uint32_t index)
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

struct aw_change *write_change_add(struct aw_txn *t, uint32_t index)
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

bool write_held(const struct alarm_writer *w, const struct aw_txn *self,
		uint32_t index)
{
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used && &w->txn[i] != self &&
		    write_change_of(&w->txn[i], index))
			return true;
	return false;
}

/* A row created over SNMP before it is given anything. */
static struct alarm_def fresh(uint32_t index)
{
	struct alarm_def d = {.index = index,
			      .storage = STORAGE_NONVOLATILE,
			      .row = ROW_NOT_READY};
	alarm_default_name(index, d.cfg.name, sizeof(d.cfg.name));
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
	struct aw_change *c = write_change_of(t, index);
	if (!c) {
		const struct alarm *a = alarm_set_find(w->set, index);
		if (a && a->storage == STORAGE_PERMANENT)
			return AX_ERR_NOTWRITABLE; /* the config file's */
		if (!a && index <= ALARM_CONFIG_INDEX_MAX)
			return AX_ERR_NOCREATION; /* the config file's range */
		if (write_held(w, t, index))
			return AX_ERR_RESOURCEUNAVAILABLE;
		c = write_change_add(t, index);
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

enum ax_error write_put_varbind(struct alarm_writer *w, struct aw_txn *t,
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

