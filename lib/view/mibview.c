/* mibview.c - GET/GETNEXT lookups by binary search, never by scanning. */
#include "view/mibview.h"

#include <string.h>

#include "alarm/alarm.h"

enum mibview_result view_value(const struct mib_view *v,
			       const struct mib_object *o,
			       unsigned long instance, struct mib_value *val)
{
	const struct cache *c = v->cache;
	const struct alarm_set *alarms = v->served->alarms;
	struct value_at at = {.v = v, .o = o, .group = -1};

	if (o->table == TBL_SCALAR) {
		if (instance != 0)
			return MV_NO_SUCH_INSTANCE;
	} else if (o->table == TBL_ALARM) {
		if (instance > UINT32_MAX ||
		    !(at.alarm = alarm_set_find(alarms, (uint32_t)instance)))
			return MV_NO_SUCH_INSTANCE;
	} else if (o->table == TBL_GROUP) {
		if (instance == 0 || instance > c->groups.n)
			return MV_NO_SUCH_INSTANCE;
		at.group = (long)instance - 1;
	} else {
		if (instance > UINT32_MAX ||
		    !(at.row = cache_row(c, (unsigned)instance)))
			return MV_NO_SUCH_INSTANCE;
	}
	return view_value_read(&at, val);
}

/*
 * Compare object o (root + arcs) with the request `rel` (the request with
 * the root removed, rlen arcs): <0 if every instance of o sorts before the
 * request, 0 if the request lies inside o's subtree, >0 if o sorts after.
 */
static int cmp_object(const struct mib_object *o, const unsigned long *rel,
		      size_t rlen)
{
	for (unsigned i = 0; i < o->len; i++) {
		if (i >= rlen)
			return 1; /* the request is a prefix of o */
		if (o->arcs[i] != rel[i])
			return o->arcs[i] < rel[i] ? -1 : 1;
	}
	return 0;
}

/* First object that is not entirely before the request. */
static size_t lower_bound(const unsigned long *rel, size_t rlen)
{
	size_t lo = 0, hi = meta_objects_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_object(&meta_objects[mid], rel, rlen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Request relative to the module root: <0 before it, >0 after, 0 inside. */
static int strip_root(const unsigned long *name, size_t len,
		      const unsigned long **rel, size_t *rlen)
{
	for (unsigned i = 0; i < meta_root_len; i++) {
		if (i >= len)
			return -1;
		if (name[i] != meta_root[i])
			return name[i] < meta_root[i] ? -1 : 1;
	}
	*rel = name + meta_root_len;
	*rlen = len - meta_root_len;
	return 0;
}

size_t view_oid(const struct mib_object *o, unsigned long instance,
		unsigned long *out)
{
	size_t n = 0;
	for (unsigned i = 0; i < meta_root_len; i++)
		out[n++] = meta_root[i];
	for (unsigned i = 0; i < o->len; i++)
		out[n++] = o->arcs[i];
	out[n++] = instance;
	return n;
}

enum mibview_result view_get(const struct mib_view *v,
			     const unsigned long *name, size_t len,
			     const struct mib_object **obj,
			     struct mib_value *val)
{
	const unsigned long *rel;
	size_t rlen;

	if (strip_root(name, len, &rel, &rlen) != 0)
		return MV_NO_SUCH_OBJECT;
	size_t i = lower_bound(rel, rlen);
	if (i == meta_objects_count ||
	    cmp_object(&meta_objects[i], rel, rlen) != 0 ||
	    meta_objects[i].access == ACC_FOR_NOTIFY)
		return MV_NO_SUCH_OBJECT;
	const struct mib_object *o = &meta_objects[i];
	*obj = o;
	if (rlen != o->len + 1)
		return MV_NO_SUCH_INSTANCE;
	return view_value(v, o, rel[o->len], val);
}

/* The first group of at->o after index after (0: every one). */
static enum mibview_result next_group(struct value_at *at,
				      unsigned long after,
				      unsigned long *instance,
				      struct mib_value *val)
{
	size_t n = at->v->cache->groups.n;
	/* [x] and [x, ...] are both followed by index x+1, position x */
	for (size_t g = after < n ? after : n; g < n; g++) {
		at->group = (long)g;
		if (view_value_read(at, val) == MV_OK) {
			*instance = g + 1;
			return MV_OK;
		}
		if (at->o->counter >= 0 &&
		    !cache_counted_per_cpu(at->v->cache, at->o->counter))
			break; /* uncounted per CPU: no instance at all */
	}
	return MV_END_OF_VIEW;
}

/*
 * The first instance of o after the instance part `inst` (ilen arcs; ilen 0
 * means "before every instance"); returns MV_OK with *instance set.
 */
static enum mibview_result next_instance(const struct mib_view *v,
					 const struct mib_object *o,
					 const unsigned long *inst, size_t ilen,
					 unsigned long *instance,
					 struct mib_value *val)
{
	const struct cache *c = v->cache;
	const struct alarm_set *alarms = v->served->alarms;
	struct value_at at = {.v = v, .o = o, .group = -1};
	if (o->table == TBL_SCALAR) {
		if (ilen > 0) /* .0 or anything after it */
			return MV_END_OF_VIEW;
		*instance = 0;
		return view_value_read(&at, val) == MV_OK ? MV_OK
							  : MV_END_OF_VIEW;
	}
	if (o->table == TBL_ALARM) {
		size_t n = alarms ? alarms->count : 0;
		/* [x] and [x, ...] are both followed by the first alarm
		 * after x */
		for (size_t i = alarm_set_after(alarms, ilen ? inst[0] : 0);
		     i < n; i++) {
			at.alarm = &alarms->alarm[i];
			if (view_value_read(&at, val) == MV_OK) {
				*instance = alarms->alarm[i].index;
				return MV_OK;
			}
		}
		return MV_END_OF_VIEW;
	}
	if (o->table == TBL_GROUP)
		return next_group(&at, ilen ? inst[0] : 0, instance, val);
	size_t r = 0;
	/* [x] and [x, ...] are both followed by CPU x+1 on; x may be any
	 * unsigned long the master sends (cache_row_after guards x + 1; the
	 * alarm table's search above takes any 64-bit x) */
	if (ilen > 0)
		r = cache_row_after(c, inst[0]);
	for (; r < c->nrows; r++) {
		at.row = &c->rows[r];
		if (view_value_read(&at, val) == MV_OK) {
			*instance = c->rows[r].cpu;
			return MV_OK;
		}
		if (o->counter >= 0 && !cache_counted_per_cpu(c, o->counter))
			break; /* uncounted per CPU: no instance at all */
	}
	return MV_END_OF_VIEW;
}

enum mibview_result view_getnext(const struct mib_view *v,
				 const unsigned long *name, size_t len,
				 unsigned long *next, size_t *nextlen,
				 const struct mib_object **obj,
				 struct mib_value *val)
{
	const unsigned long *rel = NULL;
	size_t rlen = 0, i = 0;
	int where = strip_root(name, len, &rel, &rlen);

	if (where > 0)
		return MV_END_OF_VIEW;
	if (where == 0)
		i = lower_bound(rel, rlen);
	for (; i < meta_objects_count; i++) {
		const struct mib_object *o = &meta_objects[i];
		if (o->access == ACC_FOR_NOTIFY)
			continue;
		bool inside = where == 0 && cmp_object(o, rel, rlen) == 0;
		unsigned long instance;
		if (next_instance(v, o, inside ? rel + o->len : NULL,
				  inside ? rlen - o->len : 0, &instance,
				  val) == MV_OK) {
			*nextlen = view_oid(o, instance, next);
			*obj = o;
			return MV_OK;
		}
	}
	return MV_END_OF_VIEW;
}

int view_oid_cmp(const unsigned long *a, size_t alen, const unsigned long *b,
		 size_t blen)
{
	for (size_t k = 0; k < alen && k < blen; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return (alen > blen) - (alen < blen);
}

const struct mib_object *view_object(const char *name)
{
	for (size_t i = 0; i < meta_objects_count; i++)
		if (strcmp(meta_objects[i].name, name) == 0)
			return &meta_objects[i];
	return NULL;
}
