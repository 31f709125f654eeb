/* alarm.c - the RMON-style alarm state machine and alarm configs. */
#include "alarm.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "parse.h"
#include "stats.h"

int alarm_step(const struct alarm_config *cfg, struct alarm_instance *in,
	       uint64_t v, enum alarm_event_kind *kind)
{
	bool first = !in->sampled;
	int fired = 0;

	in->value = v;
	in->sampled = true;
	if (first) {
		if (v >= cfg->rising && cfg->startup != STARTUP_FALLING) {
			*kind = ALARM_EVENT_RISING;
			fired = 1;
		} else if (v <= cfg->falling &&
			   cfg->startup != STARTUP_RISING) {
			*kind = ALARM_EVENT_FALLING;
			fired = 1;
		}
		/* arm by where the first sample lies, fired or not */
		in->rise_armed = v < cfg->rising;
		in->fall_armed = v > cfg->falling;
		in->status = fired
				 ? (*kind == ALARM_EVENT_RISING ? ALARM_RISEN
								: ALARM_FALLEN)
				 : ALARM_ARMED;
		return fired;
	}
	if (v >= cfg->rising && in->rise_armed) {
		*kind = ALARM_EVENT_RISING;
		in->rise_armed = false;
		in->fall_armed = true;
		in->status = ALARM_RISEN;
		return 1;
	}
	if (v <= cfg->falling && in->fall_armed) {
		*kind = ALARM_EVENT_FALLING;
		in->fall_armed = false;
		in->rise_armed = true;
		in->status = ALARM_FALLEN;
		return 1;
	}
	return 0;
}

static bool same_config(const struct alarm_config *a,
			const struct alarm_config *b)
{
	return strcmp(a->name, b->name) == 0 && a->counter == b->counter &&
	       a->stat == b->stat && a->scope == b->scope && a->cpu == b->cpu &&
	       a->type == b->type && a->rising == b->rising &&
	       a->falling == b->falling && a->startup == b->startup;
}

int alarm_set_build(struct alarm_set *set, const struct alarm_config *cfgs,
		    size_t n, const struct alarm_set *old)
{
	memset(set, 0, sizeof(*set));
	if (n == 0)
		return 0;
	set->alarm = calloc(n, sizeof(*set->alarm));
	if (!set->alarm)
		return -1;
	set->count = n;
	for (size_t i = 0; i < n; i++) {
		struct alarm *a = &set->alarm[i];
		a->cfg = cfgs[i];
		a->event_cpu = ALARM_CPU_SUM;
		for (size_t k = 0; old && k < old->count; k++) {
			const struct alarm *o = &old->alarm[k];
			if (!same_config(&o->cfg, &cfgs[i]))
				continue;
			a->inst = o->ninst ? malloc(o->ninst * sizeof(*a->inst))
					   : NULL;
			if (o->ninst && !a->inst) {
				alarm_set_free(set);
				return -1;
			}
			if (o->ninst)
				memcpy(a->inst, o->inst,
				       o->ninst * sizeof(*a->inst));
			a->ninst = o->ninst;
			a->events = o->events;
			a->dropped = o->dropped;
			a->event_cpu = o->event_cpu;
			a->event_value = o->event_value;
			a->event_threshold = o->event_threshold;
			break;
		}
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

static int fail(char *err, size_t len, const char *msg, const char *arg)
{
	return arg ? parse_fail(err, len, "alarm: %s: '%s'", msg, arg)
		   : parse_fail(err, len, "alarm: %s", msg);
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > ALARM_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' &&
		    *s != '.')
			return false;
	return true;
}

/* The optional 7th word: which first sample may trigger (RFC 2819's
 * alarmStartupAlarm). */
static int parse_startup(const char *w, enum alarm_startup *startup)
{
	if (strcmp(w, "rising") == 0)
		*startup = STARTUP_RISING;
	else if (strcmp(w, "falling") == 0)
		*startup = STARTUP_FALLING;
	else if (strcmp(w, "both") == 0)
		*startup = STARTUP_BOTH;
	else
		return -1;
	return 0;
}

/* sum, each or a CPU number into out's scope; -1 when none of them. */
static int parse_scope(const char *w, struct alarm_config *out)
{
	uint64_t v;
	if (strcmp(w, "sum") == 0) {
		out->scope = SCOPE_SUM;
	} else if (strcmp(w, "each") == 0) {
		out->scope = SCOPE_EACH_CPU;
	} else if (parse_u64(w, 65535, &v) == 0) {
		out->scope = SCOPE_CPU;
		out->cpu = (unsigned)v;
	} else {
		return -1;
	}
	return 0;
}

int alarm_config_parse(const char *args, struct alarm_config *out, char *err,
		       size_t len)
{
	char buf[PARSE_LINE_MAX], *w[7];

	memset(out, 0, sizeof(*out));
	if (strlen(args ? args : "") >= sizeof(buf))
		return fail(err, len, "line too long", NULL);
	int n = parse_words_copy(args, buf, sizeof(buf), w, 7);
	if (n < 6 || n > 7)
		return fail(err, len,
			    "expected NAME METRIC sum|each|CPU "
			    "rate|absolute RISING FALLING "
			    "[rising|falling|both]",
			    NULL);
	if (!valid_name(w[0]))
		return fail(err, len, "bad name (1-32 of A-Z a-z 0-9 . _ -)",
			    w[0]);
	snprintf(out->name, sizeof(out->name), "%s", w[0]);
	out->counter = counter_index_by_name(w[1]);
	out->stat = out->counter < 0 ? (int)stat_index_by_name(w[1]) : -1;
	if (out->counter < 0 && out->stat < 0)
		return fail(err, len,
			    "not a counter metric or a statistic (stat.NAME)",
			    w[1]);
	snprintf(out->metric, sizeof(out->metric), "%s", w[1]);
	if (parse_scope(w[2], out) != 0)
		return fail(err, len, "bad CPU (sum, each, or 0..65535)", w[2]);
	if (strcmp(w[3], "rate") == 0)
		out->type = TYPE_RATE;
	else if (strcmp(w[3], "absolute") == 0)
		out->type = TYPE_ABSOLUTE;
	else
		return fail(err, len, "sample type must be rate or absolute",
			    w[3]);
	if (out->stat >= 0 && out->type == TYPE_RATE)
		return fail(err, len,
			    "a statistic is already per poll interval: use "
			    "absolute",
			    w[1]);
	if (parse_u64(w[4], UINT64_MAX, &out->rising))
		return fail(err, len, "bad rising threshold", w[4]);
	if (parse_u64(w[5], UINT64_MAX, &out->falling))
		return fail(err, len, "bad falling threshold", w[5]);
	if (out->falling >= out->rising)
		return fail(err, len,
			    "the falling threshold must be below the rising "
			    "threshold",
			    NULL);
	out->startup = STARTUP_BOTH;
	if (n == 7 && parse_startup(w[6], &out->startup) != 0)
		return fail(err, len, "startup must be rising, falling or both",
			    w[6]);
	return 0;
}
