/*
 * values.c - one function per object tag, and the one place where a raw
 * value takes the SNMP type the MIB declares for its object.
 */
#include "view/values.h"

#include <string.h>

#include "alarm/alarm.h"
#include "meta/metrics.h"
#include "cache/stat_eval.h"

/* A value before its type is applied: a number (a negative Integer32
 * sign-extended) or a string. */
struct raw {
	uint64_t num;
	const char *str;
};

typedef bool value_fn(const struct value_at *at, struct raw *r);

#define NUM(fn, expr)                                                          \
	static bool fn(const struct value_at *at, struct raw *r)               \
	{                                                                      \
		r->num = (uint64_t)(expr);                                     \
		return true;                                                   \
	}
#define STR(fn, expr)                                                          \
	static bool fn(const struct value_at *at, struct raw *r)               \
	{                                                                      \
		r->str = (expr);                                               \
		return true;                                                   \
	}

/* The module's scalars. */
NUM(state, at->v->cache->state)
STR(cpurev, at->v->cache->cpurev)
NUM(poll_interval, at->v->served->poll_interval)
NUM(last_poll_time, at->v->cache->last_poll_time)
STR(backend, at->v->served->backend)
NUM(num_cpus, at->v->cache->nrows)
NUM(discontinuity_time, at->v->cache->discontinuity_time)
NUM(polls, at->v->cache->polls)
NUM(counting_time, at->v->cache->counting_ns)
NUM(poll_errors, at->v->served->poll_errors)
STR(discontinuity_reason, at->v->cache->last_discontinuity)

static bool total(const struct value_at *at, struct raw *r)
{
	if (!cache_counted(at->v->cache, at->o->counter))
		return false;
	r->num = at->v->cache->total[at->o->counter];
	return true;
}

/* Where the value is read: the row's CPU, the group, or the sum. */
static long where(const struct value_at *at)
{
	if (at->row)
		return (long)at->row->cpu;
	return at->group >= 0 ? CACHE_GROUP(at->group) : CACHE_SUM;
}

static bool rate(const struct value_at *at, struct raw *r)
{
	return cache_rate(at->v->cache, at->o->counter, where(at), &r->num) ==
	       SAMPLE_OK;
}

/* A derived statistic (stats.def), summed, on a group or on the row's
 * CPU. */
static bool stat(const struct value_at *at, struct raw *r)
{
	long cpu = where(at);
	return cache_stat_value(at->v->cache, (size_t)at->o->stat, cpu,
				&r->num) == SAMPLE_OK;
}

/* The CPU table and its augmentations. */
static bool cpu_counter(const struct value_at *at, struct raw *r)
{
	if (!cache_counted_per_cpu(at->v->cache, at->o->counter))
		return false;
	r->num = cache_cpu_row_value(at->v->cache, at->row, at->o->counter);
	return true;
}
NUM(cpu_time_enabled, at->row->time_enabled)
NUM(cpu_time_running, at->row->time_running)
NUM(cpu_duty_cycle, at->row->duty_cycle)
NUM(cpu_status, at->row->status)
NUM(cpu_discontinuity_time, at->row->disc_time)

/* A CPU in no group is known to be in none: "" (objects.def). */
static bool cpu_group_name(const struct value_at *at, struct raw *r)
{
	long g = at->row->group;
	r->str = g >= 0 ? at->v->cache->groups.g[g].name : "";
	return true;
}

/* The group table and its augmentations. */
#define GROUP_OF(at) (&(at)->v->cache->groups.g[(at)->group])
#define GSUM_OF(at)  (&(at)->v->cache->gsum[(at)->group])
STR(group_name, GROUP_OF(at)->name)
STR(group_cpus, GROUP_OF(at)->text)
NUM(group_num_cpus, GROUP_OF(at)->cpus.n)
NUM(group_counting_cpus, GSUM_OF(at)->counting)
NUM(group_discontinuity_time, GSUM_OF(at)->disc_time)

static bool group_counter(const struct value_at *at, struct raw *r)
{
	if (!cache_counted_per_cpu(at->v->cache, at->o->counter))
		return false;
	r->num = GSUM_OF(at)->total[at->o->counter];
	return true;
}

/* The alarm table. */
STR(alarm_name, at->alarm->cfg.name)
NUM(alarm_scope, at->alarm->cfg.scope)
/* -1 unless the scope is cpu(2) (alarm_def_flaw: then a CPU is given) */
NUM(alarm_cpu, at->alarm->cfg.scope == SCOPE_CPU &&
			   (at->alarm->given & ALARM_GIVEN_CPU)
		   ? (int32_t)at->alarm->cfg.cpu
		   : -1)
NUM(alarm_sample_type, at->alarm->cfg.type == TYPE_RATE ? 2 : 1)
NUM(alarm_falling, at->alarm->cfg.falling)
NUM(alarm_falling_low, at->alarm->cfg.falling & 0xffffffffu)
NUM(alarm_falling_high, at->alarm->cfg.falling >> 32)
NUM(alarm_storage, at->alarm->storage)
NUM(alarm_row_status, at->alarm->row)

/* A row created over SNMP has no metric or rising threshold until it is
 * given them (RFC 2579: noSuchInstance, not a made-up default). */
static bool alarm_metric(const struct value_at *at, struct raw *r)
{
	r->str = at->alarm->cfg.metric;
	return at->alarm->given & ALARM_GIVEN_METRIC;
}

static bool rising_part(const struct value_at *at, struct raw *r,
			uint64_t value)
{
	r->num = value;
	return at->alarm->given & ALARM_GIVEN_RISING;
}

static bool alarm_rising(const struct value_at *at, struct raw *r)
{
	return rising_part(at, r, at->alarm->cfg.rising);
}

static bool alarm_rising_low(const struct value_at *at, struct raw *r)
{
	return rising_part(at, r, at->alarm->cfg.rising & 0xffffffffu);
}

static bool alarm_rising_high(const struct value_at *at, struct raw *r)
{
	return rising_part(at, r, at->alarm->cfg.rising >> 32);
}
NUM(alarm_startup, at->alarm->cfg.startup)
NUM(alarm_status, alarm_status_of(at->alarm))
NUM(alarm_events, at->alarm->events)
NUM(alarm_dropped, at->alarm->dropped)
STR(alarm_owner, at->alarm->owner)
NUM(alarm_event_cpu, at->alarm->event_cpu)
NUM(alarm_event_value, at->alarm->event_value)
NUM(alarm_event_threshold, at->alarm->event_threshold)

static bool alarm_value(const struct value_at *at, struct raw *r)
{
	return alarm_value_of(at->alarm, &r->num);
}

/* The lowest index from 1025 a row can be created at, 0 if none. */
static bool alarm_next_index(const struct value_at *at, struct raw *r)
{
	r->num = alarm_set_next_index(at->v->served->alarms);
	return true;
}

static value_fn *const value_of[TAG_COUNT] = {
    [TAG_STATE] = state,
    [TAG_CPUREV] = cpurev,
    [TAG_TOTAL] = total,
    [TAG_CPU_COUNTER] = cpu_counter,
    [TAG_CPU_STATUS] = cpu_status,
    [TAG_CPU_TIME_ENABLED] = cpu_time_enabled,
    [TAG_CPU_TIME_RUNNING] = cpu_time_running,
    [TAG_CPU_DUTY_CYCLE] = cpu_duty_cycle,
    [TAG_CPU_DISCONTINUITY_TIME] = cpu_discontinuity_time,
    [TAG_CPU_GROUP_NAME] = cpu_group_name,
    [TAG_GROUP_NAME] = group_name,
    [TAG_GROUP_CPUS] = group_cpus,
    [TAG_GROUP_NUM_CPUS] = group_num_cpus,
    [TAG_GROUP_COUNTING_CPUS] = group_counting_cpus,
    [TAG_GROUP_DISCONTINUITY_TIME] = group_discontinuity_time,
    [TAG_GROUP_COUNTER] = group_counter,
    [TAG_GROUP_RATE] = rate,
    [TAG_GROUP_STAT] = stat,
    [TAG_POLL_INTERVAL] = poll_interval,
    [TAG_LAST_POLL_TIME] = last_poll_time,
    [TAG_BACKEND] = backend,
    [TAG_NUM_CPUS] = num_cpus,
    [TAG_DISCONTINUITY_TIME] = discontinuity_time,
    [TAG_POLLS] = polls,
    [TAG_COUNTING_TIME] = counting_time,
    [TAG_POLL_ERRORS] = poll_errors,
    [TAG_DISCONTINUITY_REASON] = discontinuity_reason,
    [TAG_RATE] = rate,
    [TAG_CPU_RATE] = rate,
    [TAG_STAT] = stat,
    [TAG_CPU_STAT] = stat,
    [TAG_ALARM_NAME] = alarm_name,
    [TAG_ALARM_METRIC] = alarm_metric,
    [TAG_ALARM_SCOPE] = alarm_scope,
    [TAG_ALARM_CPU] = alarm_cpu,
    [TAG_ALARM_SAMPLE_TYPE] = alarm_sample_type,
    [TAG_ALARM_RISING] = alarm_rising,
    [TAG_ALARM_FALLING] = alarm_falling,
    [TAG_ALARM_STARTUP] = alarm_startup,
    [TAG_ALARM_VALUE] = alarm_value,
    [TAG_ALARM_STATUS] = alarm_status,
    [TAG_ALARM_EVENTS] = alarm_events,
    [TAG_ALARM_DROPPED] = alarm_dropped,
    [TAG_ALARM_EVENT_CPU] = alarm_event_cpu,
    [TAG_ALARM_EVENT_VALUE] = alarm_event_value,
    [TAG_ALARM_EVENT_THRESHOLD] = alarm_event_threshold,
    [TAG_ALARM_RISING_LOW] = alarm_rising_low,
    [TAG_ALARM_RISING_HIGH] = alarm_rising_high,
    [TAG_ALARM_FALLING_LOW] = alarm_falling_low,
    [TAG_ALARM_FALLING_HIGH] = alarm_falling_high,
    [TAG_ALARM_STORAGE] = alarm_storage,
    [TAG_ALARM_ROW_STATUS] = alarm_row_status,
    [TAG_ALARM_OWNER] = alarm_owner,
    [TAG_ALARM_NEXT_INDEX] = alarm_next_index,
};

bool view_value_has_source(enum obj_tag tag)
{
	return (unsigned)tag < TAG_COUNT && value_of[tag] != NULL;
}

/* The declared syntax decides the type and the width. */
static void typed(enum obj_syntax syn, const struct raw *r, struct mib_value *v)
{
	v->type = syn;
	switch (syn) {
	case SYN_INTEGER32:
		v->v.i32 = (int32_t)(int64_t)r->num;
		break;
	case SYN_UNSIGNED32:
	case SYN_COUNTER32:
	case SYN_TIMETICKS:
		v->v.u32 = (uint32_t)r->num;
		break;
	case SYN_COUNTER64:
		v->v.u64 = r->num;
		break;
	case SYN_OCTETS:
		v->v.str.ptr = r->str ? r->str : "";
		v->v.str.len = strlen(v->v.str.ptr);
		break;
	case SYN_COUNT: /* not a type */
		break;
	}
}

struct ax_value view_value_wire(const struct mib_value *v)
{
	enum ax_data_type t =
	    (unsigned)v->type < SYN_COUNT
		? (enum ax_data_type)meta_smi_type_wire[v->type]
		: AX_NULL;
	return (struct ax_value){t, v->v};
}

void view_varbind(struct ax_buf *b, const unsigned long *name, size_t len,
		  const struct mib_value *v)
{
	struct ax_value w = view_value_wire(v);
	ax_varbind(b, name, len, &w);
}

enum mibview_result view_value_read(const struct value_at *at,
				    struct mib_value *v)
{
	struct raw r = {0};

	if (!view_value_has_source(at->o->tag) || !value_of[at->o->tag](at, &r))
		return MV_NO_SUCH_INSTANCE;
	typed(at->o->syntax, &r, v);
	return MV_OK;
}
