/* mibview.c - GET/GETNEXT lookups by binary search, never by scanning. */
#include "mibview.h"

#include <string.h>

#include "alarm.h"

static void set_u64(struct mib_value *v, uint64_t x)
{
	v->type = SYN_COUNTER64;
	v->v.u64 = x;
}

static void set_u32(struct mib_value *v, enum obj_syntax t, uint32_t x)
{
	v->type = t;
	v->v.u32 = x;
}

static void set_str(struct mib_value *v, const char *s)
{
	v->type = SYN_OCTETS;
	v->v.str.ptr = s;
	v->v.str.len = strlen(s);
}

static void set_i32(struct mib_value *v, int32_t x)
{
	v->type = SYN_INTEGER32;
	v->v.i32 = x;
}

static enum mibview_result alarm_value(const struct alarm *a,
				       const struct mib_object *o,
				       struct mib_value *v)
{
	uint64_t x = 0;
	switch (o->tag) {
	case TAG_ALARM_NAME:
		set_str(v, a->cfg.name);
		return MV_OK;
	case TAG_ALARM_METRIC:
		set_str(v, counters[a->cfg.counter].fullname);
		return MV_OK;
	case TAG_ALARM_SCOPE:
		set_i32(v, (int32_t)a->cfg.scope);
		return MV_OK;
	case TAG_ALARM_CPU:
		set_i32(v,
			a->cfg.scope == SCOPE_CPU ? (int32_t)a->cfg.cpu : -1);
		return MV_OK;
	case TAG_ALARM_SAMPLE_TYPE:
		set_i32(v, a->cfg.type == TYPE_RATE ? 2 : 1);
		return MV_OK;
	case TAG_ALARM_RISING:
		set_u64(v, a->cfg.rising);
		return MV_OK;
	case TAG_ALARM_FALLING:
		set_u64(v, a->cfg.falling);
		return MV_OK;
	case TAG_ALARM_STARTUP:
		set_i32(v, (int32_t)a->cfg.startup);
		return MV_OK;
	case TAG_ALARM_VALUE:
		if (!alarm_value_of(a, &x))
			return MV_NO_SUCH_INSTANCE;
		set_u64(v, x);
		return MV_OK;
	case TAG_ALARM_STATUS:
		set_i32(v, (int32_t)alarm_status_of(a));
		return MV_OK;
	case TAG_ALARM_EVENTS:
		set_u32(v, SYN_COUNTER32, a->events);
		return MV_OK;
	case TAG_ALARM_DROPPED:
		set_u32(v, SYN_COUNTER32, a->dropped);
		return MV_OK;
	case TAG_ALARM_EVENT_CPU:
		set_i32(v, a->event_cpu);
		return MV_OK;
	case TAG_ALARM_EVENT_VALUE:
		set_u64(v, a->event_value);
		return MV_OK;
	case TAG_ALARM_EVENT_THRESHOLD:
		set_u64(v, a->event_threshold);
		return MV_OK;
	default:
		return MV_NO_SUCH_INSTANCE;
	}
}

static enum mibview_result cpu_value(const struct cache *c,
				     const struct mib_object *o,
				     const struct cpu_row *r,
				     struct mib_value *v)
{
	switch (o->tag) {
	case TAG_CPU_COUNTER:
		if (!cache_counted(c, o->counter))
			return MV_NO_SUCH_INSTANCE;
		set_u64(v, r->value[o->counter]);
		return MV_OK;
	case TAG_CPU_TIME_ENABLED:
		set_u64(v, r->time_enabled);
		return MV_OK;
	case TAG_CPU_TIME_RUNNING:
		set_u64(v, r->time_running);
		return MV_OK;
	case TAG_CPU_DUTY_CYCLE:
		set_u32(v, SYN_UNSIGNED32, r->duty_cycle);
		return MV_OK;
	case TAG_CPU_STATUS:
		set_i32(v, (int32_t)r->status);
		return MV_OK;
	case TAG_CPU_RATE: {
		uint64_t x;
		if (cache_rate(c, o->counter, (long)r->cpu, &x) != SAMPLE_OK)
			return MV_NO_SUCH_INSTANCE;
		set_u64(v, x);
		return MV_OK;
	}
	default:
		return MV_NO_SUCH_INSTANCE;
	}
}

static enum mibview_result scalar_value(const struct cache *c,
					const struct mib_object *o,
					struct mib_value *v)
{
	switch (o->tag) {
	case TAG_STATE:
		set_i32(v, c->state);
		return MV_OK;
	case TAG_CPUREV:
		set_str(v, c->cpurev);
		return MV_OK;
	case TAG_TOTAL:
		if (!cache_counted(c, o->counter))
			return MV_NO_SUCH_INSTANCE;
		set_u64(v, c->total[o->counter]);
		return MV_OK;
	case TAG_POLL_INTERVAL:
		set_u32(v, SYN_UNSIGNED32, c->poll_interval);
		return MV_OK;
	case TAG_LAST_POLL_TIME:
		set_u32(v, SYN_TIMETICKS, c->last_poll_time);
		return MV_OK;
	case TAG_BACKEND:
		set_str(v, c->backend);
		return MV_OK;
	case TAG_NUM_CPUS:
		set_u32(v, SYN_UNSIGNED32, (uint32_t)c->nrows);
		return MV_OK;
	case TAG_DISCONTINUITY_TIME:
		set_u32(v, SYN_TIMETICKS, c->discontinuity_time);
		return MV_OK;
	case TAG_POLLS:
		set_u32(v, SYN_COUNTER32, c->polls);
		return MV_OK;
	case TAG_POLL_ERRORS:
		set_u32(v, SYN_COUNTER32, c->poll_errors);
		return MV_OK;
	case TAG_DISCONTINUITY_REASON:
		set_str(v, c->last_discontinuity);
		return MV_OK;
	case TAG_RATE: {
		uint64_t x;
		if (cache_rate(c, o->counter, -1, &x) != SAMPLE_OK)
			return MV_NO_SUCH_INSTANCE;
		set_u64(v, x);
		return MV_OK;
	}
	default:
		return MV_NO_SUCH_INSTANCE;
	}
}

enum mibview_result mibview_value(const struct cache *c,
				  const struct mib_object *o,
				  unsigned long instance, struct mib_value *val)
{
	if (o->table == TBL_SCALAR)
		return instance == 0 ? scalar_value(c, o, val)
				     : MV_NO_SUCH_INSTANCE;
	if (o->table == TBL_ALARM) {
		if (!c->alarms || instance < 1 || instance > c->alarms->count)
			return MV_NO_SUCH_INSTANCE;
		return alarm_value(&c->alarms->alarm[instance - 1], o, val);
	}
	if (instance > UINT32_MAX)
		return MV_NO_SUCH_INSTANCE;
	const struct cpu_row *r = cache_row(c, (unsigned)instance);
	return r ? cpu_value(c, o, r, val) : MV_NO_SUCH_INSTANCE;
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
	size_t lo = 0, hi = mib_objects_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_object(&mib_objects[mid], rel, rlen) < 0)
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
	for (unsigned i = 0; i < mib_root_len; i++) {
		if (i >= len)
			return -1;
		if (name[i] != mib_root[i])
			return name[i] < mib_root[i] ? -1 : 1;
	}
	*rel = name + mib_root_len;
	*rlen = len - mib_root_len;
	return 0;
}

size_t mibview_oid(const struct mib_object *o, unsigned long instance,
		   unsigned long *out)
{
	size_t n = 0;
	for (unsigned i = 0; i < mib_root_len; i++)
		out[n++] = mib_root[i];
	for (unsigned i = 0; i < o->len; i++)
		out[n++] = o->arcs[i];
	out[n++] = instance;
	return n;
}

enum mibview_result mibview_get(const struct cache *c,
				const unsigned long *name, size_t len,
				const struct mib_object **obj,
				struct mib_value *val)
{
	const unsigned long *rel;
	size_t rlen;

	if (strip_root(name, len, &rel, &rlen) != 0)
		return MV_NO_SUCH_OBJECT;
	size_t i = lower_bound(rel, rlen);
	if (i == mib_objects_count ||
	    cmp_object(&mib_objects[i], rel, rlen) != 0 ||
	    mib_objects[i].access != ACC_READ_ONLY)
		return MV_NO_SUCH_OBJECT;
	const struct mib_object *o = &mib_objects[i];
	*obj = o;
	if (rlen != o->len + 1)
		return MV_NO_SUCH_INSTANCE;
	return mibview_value(c, o, rel[o->len], val);
}

/*
 * The first instance of o after the instance part `inst` (ilen arcs; ilen 0
 * means "before every instance"); returns MV_OK with *instance set.
 */
static enum mibview_result next_instance(const struct cache *c,
					 const struct mib_object *o,
					 const unsigned long *inst, size_t ilen,
					 unsigned long *instance,
					 struct mib_value *val)
{
	if (o->table == TBL_SCALAR) {
		if (ilen > 0) /* .0 or anything after it */
			return MV_END_OF_VIEW;
		*instance = 0;
		return scalar_value(c, o, val) == MV_OK ? MV_OK
							: MV_END_OF_VIEW;
	}
	/* Index arcs are 32-bit (SMI); a request at or beyond 2^32-1 has
	 * nothing after it in this column.  Never compute inst[0] + 1 before
	 * this check: the master may hand us any unsigned long. */
	if (ilen > 0 && inst[0] >= UINT32_MAX)
		return MV_END_OF_VIEW;
	if (o->table == TBL_ALARM) {
		size_t n = c->alarms ? c->alarms->count : 0;
		/* [x] and [x, ...] are both followed by alarm x+1 */
		for (unsigned long i = ilen ? inst[0] + 1 : 1; i <= n; i++) {
			if (alarm_value(&c->alarms->alarm[i - 1], o, val) ==
			    MV_OK) {
				*instance = i;
				return MV_OK;
			}
		}
		return MV_END_OF_VIEW;
	}
	size_t r = 0;
	if (ilen > 0) /* [x] and [x, ...] are both followed by CPU x+1 on */
		r = cache_row_after(c, inst[0]);
	for (; r < c->nrows; r++) {
		if (cpu_value(c, o, &c->rows[r], val) == MV_OK) {
			*instance = c->rows[r].cpu;
			return MV_OK;
		}
		if (o->tag == TAG_CPU_COUNTER || o->tag == TAG_CPU_RATE) {
			if (!cache_counted(c, o->counter))
				break; /* uncounted: no instance at all */
		}
	}
	return MV_END_OF_VIEW;
}

enum mibview_result mibview_getnext(const struct cache *c,
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
	for (; i < mib_objects_count; i++) {
		const struct mib_object *o = &mib_objects[i];
		if (o->access != ACC_READ_ONLY)
			continue;
		bool inside = where == 0 && cmp_object(o, rel, rlen) == 0;
		unsigned long instance;
		if (next_instance(c, o, inside ? rel + o->len : NULL,
				  inside ? rlen - o->len : 0, &instance,
				  val) == MV_OK) {
			*nextlen = mibview_oid(o, instance, next);
			*obj = o;
			return MV_OK;
		}
	}
	return MV_END_OF_VIEW;
}

int mibview_oid_cmp(const unsigned long *a, size_t alen, const unsigned long *b,
		    size_t blen)
{
	for (size_t k = 0; k < alen && k < blen; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return (alen > blen) - (alen < blen);
}

const struct mib_object *mibview_object(const char *name)
{
	for (size_t i = 0; i < mib_objects_count; i++)
		if (strcmp(mib_objects[i].name, name) == 0)
			return &mib_objects[i];
	return NULL;
}
