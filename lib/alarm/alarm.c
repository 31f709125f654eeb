/* alarm.c - the RMON-style alarm state machine and alarm configs. */
#include "alarm/alarm.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/metrics.h"
#include "util/parse.h"
#include "meta/stats.h"

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

static int fail(char *err, size_t len, const char *msg, const char *arg)
{
	return arg ? util_parse_fail(err, len, "alarm: %s: '%s'", msg, arg)
		   : util_parse_fail(err, len, "alarm: %s", msg);
}

bool alarm_name_valid(const char *s, size_t n)
{
	if (n == 0 || n > ALARM_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' &&
		    s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

int alarm_metric_set(struct alarm_config *cfg, const char *metric, size_t n)
{
	char m[ALARM_METRIC_MAX + 1];

	if (n == 0 || n > ALARM_METRIC_MAX || memchr(metric, '\0', n))
		return -1;
	memcpy(m, metric, n);
	m[n] = '\0';
	int counter = meta_counter_index_by_name(m);
	int stat = counter < 0 ? (int)meta_stat_index_by_name(m) : -1;
	if (counter < 0 && stat < 0)
		return -1;
	cfg->counter = counter;
	cfg->stat = stat;
	memcpy(cfg->metric, m, n + 1);
	return 0;
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
	} else if (util_parse_u64(w, 65535, &v) == 0) {
		out->scope = SCOPE_CPU;
		out->cpu = (unsigned)v;
	} else {
		return -1;
	}
	return 0;
}

/* The words into out (no rule between them: alarm_def_flaw's). */
static int words(const char *args, struct alarm_config *out, char *err,
		 size_t len)
{
	char buf[PARSE_LINE_MAX], *w[7];

	memset(out, 0, sizeof(*out));
	if (strlen(args ? args : "") >= sizeof(buf))
		return fail(err, len, "line too long", NULL);
	int n = util_parse_words_copy(args, buf, sizeof(buf), w, 7);
	if (n < 6 || n > 7)
		return fail(err, len,
			    "expected NAME METRIC sum|each|CPU "
			    "rate|absolute RISING FALLING "
			    "[rising|falling|both]",
			    NULL);
	if (!alarm_name_valid(w[0], strlen(w[0])))
		return fail(err, len, "bad name (1-32 of A-Z a-z 0-9 . _ -)",
			    w[0]);
	snprintf(out->name, sizeof(out->name), "%s", w[0]);
	if (alarm_metric_set(out, w[1], strlen(w[1])) != 0)
		return fail(err, len,
			    "not a counter metric or a statistic (stat.NAME)",
			    w[1]);
	if (parse_scope(w[2], out) != 0)
		return fail(err, len, "bad CPU (sum, each, or 0..65535)", w[2]);
	if (strcmp(w[3], "rate") == 0)
		out->type = TYPE_RATE;
	else if (strcmp(w[3], "absolute") == 0)
		out->type = TYPE_ABSOLUTE;
	else
		return fail(err, len, "sample type must be rate or absolute",
			    w[3]);
	if (util_parse_u64(w[4], UINT64_MAX, &out->rising))
		return fail(err, len, "bad rising threshold", w[4]);
	if (util_parse_u64(w[5], UINT64_MAX, &out->falling))
		return fail(err, len, "bad falling threshold", w[5]);
	out->startup = STARTUP_BOTH;
	if (n == 7 && parse_startup(w[6], &out->startup) != 0)
		return fail(err, len, "startup must be rising, falling or both",
			    w[6]);
	return 0;
}

enum alarm_flaw alarm_def_flaw(const struct alarm_def *d)
{
	const struct alarm_config *c = &d->cfg;
	bool cpu = d->given & ALARM_GIVEN_CPU;

	if ((d->given & ALARM_GIVEN_ALL) != ALARM_GIVEN_ALL &&
	    d->row != ROW_NOT_READY)
		return ALARM_FLAW_INCOMPLETE;
	if ((d->given & ALARM_GIVEN_METRIC) && c->stat >= 0 &&
	    c->type == TYPE_RATE)
		return ALARM_FLAW_STAT_RATE;
	if ((c->scope == SCOPE_CPU) != cpu)
		return ALARM_FLAW_CPU;
	if (d->row == ROW_ACTIVE && c->falling >= c->rising)
		return ALARM_FLAW_THRESHOLDS;
	return ALARM_FLAW_NONE;
}

const char *alarm_flaw_text(enum alarm_flaw f)
{
	switch (f) {
	case ALARM_FLAW_INCOMPLETE:
		return "no metric or no rising threshold";
	case ALARM_FLAW_STAT_RATE:
		return "a statistic is already per poll interval: use "
		       "absolute";
	case ALARM_FLAW_CPU:
		return "a CPU is given with the cpu scope, and only with it";
	case ALARM_FLAW_THRESHOLDS:
		return "the falling threshold must be below the rising "
		       "threshold";
	default:
		return "no flaw";
	}
}

int alarm_words_parse(const char *args, struct alarm_def *d, char *err,
		      size_t len)
{
	if (words(args, &d->cfg, err, len) != 0)
		return -1;
	d->given = ALARM_GIVEN_OF(&d->cfg);
	enum alarm_flaw f = alarm_def_flaw(d);
	if (f != ALARM_FLAW_NONE)
		return fail(err, len, alarm_flaw_text(f),
			    f == ALARM_FLAW_STAT_RATE ? d->cfg.metric : NULL);
	return 0;
}

int alarm_config_parse(const char *args, struct alarm_config *out, char *err,
		       size_t len)
{
	struct alarm_def d = {.row = ROW_ACTIVE};
	int r = alarm_words_parse(args, &d, err, len);
	*out = d.cfg;
	return r;
}
