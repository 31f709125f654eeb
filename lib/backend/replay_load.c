/*
 * replay_load.c - reads a replay file (doc/replay-format.md) into memory:
 * every line checked, every bad one logged with FILE:LINE, skipped and
 * counted; opened without blocking and read in steps (replay_file.c).
 */
#include "backend/replay_data.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "meta/metrics.h"
#include "util/parse.h"
#include "backend/replay_file.h"

/* ------------------------------------------------------------ parsing */

struct parser {
	struct replay *r;
	const char *file;
	unsigned line;
	uint64_t last_time; /* ns */
	bool have_time;
	/* parse-time lookups, so that a line costs O(1) whatever the size */
	uint32_t *slot_of_cpu;		 /* [cpu]: slot + 1, 0 = not seen */
	uint64_t (*last)[COUNTER_COUNT]; /* [slot]: last accepted value */
	size_t cap_last;
	uint64_t sys_last[COUNTER_COUNT]; /* the same, CPU '-' lines */
	/* the first line of each counter with a CPU, and with CPU '-': a
	 * counter is per CPU or system-wide, not both */
	unsigned cpu_line[COUNTER_COUNT], sys_line[COUNTER_COUNT];
};

static int bad(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->r->bad_lines < REPLAY_BAD_LOGGED)
		util_log(LOG_WARNING, "replay: %s:%u: %s; line skipped\n",
			 p->file, p->line, msg);
	else if (p->r->bad_lines == REPLAY_BAD_LOGGED)
		util_log(LOG_WARNING,
			 "replay: %s:%u: %s; line skipped; further bad lines "
			 "are counted, not logged\n",
			 p->file, p->line, msg);
	p->r->bad_lines++;
	return -1;
}

/* A 64-bit value lower than its cell's last: the counter restarted
 * from zero (served as a reset: a discontinuity, counting on from the
 * new value).  Logged with FILE:LINE up to REPLAY_BAD_LOGGED times; the
 * load's summary line gives the count. */
static void note_reset(struct parser *p, const char *metric, const char *cpu,
		       uint64_t last, uint64_t v)
{
	struct replay *r = p->r;
	if (r->resets < REPLAY_BAD_LOGGED)
		util_log(
		    LOG_NOTICE,
		    "replay: %s:%u: %s of CPU %s goes backwards (%llu to "
		    "%llu): a restart from zero, served as a reset (declare "
		    "replayCounterWidth for a counter that wraps)%s\n",
		    p->file, p->line, metric, cpu, (unsigned long long)last,
		    (unsigned long long)v,
		    r->resets + 1 == REPLAY_BAD_LOGGED
			? "; further resets are counted, not logged"
			: "");
	r->resets++;
}

/* Room for element n (0-based) in *ptr, growing the capacity *cap
 * geometrically so that a file of N lines costs O(N) copies. */
static int grow(void **ptr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t want = *cap ? *cap * 2 : 16;
	if (want <= n || want > SIZE_MAX / size)
		return -1;
	void *q = realloc(*ptr, want * size);
	if (!q)
		return -1;
	*ptr = q;
	*cap = want;
	return 0;
}

/* The slot of a CPU, added on first sight; -1 when out of memory. */
static long slot_of(struct parser *p, unsigned cpu)
{
	struct replay *r = p->r;
	if (p->slot_of_cpu[cpu])
		return (long)p->slot_of_cpu[cpu] - 1;
	if (grow((void **)&p->last, &p->cap_last, r->ncpus, sizeof(*p->last)) ||
	    grow((void **)&r->cpus, &r->cap_cpus, r->ncpus, sizeof(*r->cpus)))
		return -1;
	r->cpus[r->ncpus] = cpu;
	memset(p->last[r->ncpus], 0, sizeof(p->last[r->ncpus]));
	p->slot_of_cpu[cpu] = (uint32_t)++r->ncpus;
	return (long)r->ncpus - 1;
}

/* The set for time t: the current one, or a new one. */
static struct rset *set_for(struct parser *p, uint64_t t)
{
	struct replay *r = p->r;
	if (p->have_time && t == p->last_time)
		return &r->sets[r->nsets - 1];
	if (grow((void **)&r->sets, &r->cap_sets, r->nsets, sizeof(*r->sets)))
		return NULL;
	struct rset *s = &r->sets[r->nsets++];
	memset(s, 0, sizeof(*s));
	s->time_ns = t;
	s->first = r->nrecs;
	p->last_time = t;
	p->have_time = true;
	return s;
}

static int parse_machine_metric(struct parser *p, const struct metric *m,
				const char *value, uint64_t t)
{
	struct rset *s;
	if (m->kind == METRIC_STATE) {
		char *end;
		errno = 0;
		long v = strtol(value, &end, 10);
		if (errno || *end || v < -1 || v > INT32_MAX)
			return bad(p, "state '%s' is not a number from -1 up",
				   value);
		if (!(s = set_for(p, t)))
			return bad(p, "out of memory");
		s->has_state = true;
		s->state = (int32_t)v;
		return 0;
	}
	if (strlen(value) > CPUREV_MAX)
		return bad(p, "cpurev '%s' is longer than 32 characters",
			   value);
	if (!(s = set_for(p, t)))
		return bad(p, "out of memory");
	s->has_cpurev = true;
	snprintf(s->cpurev, sizeof(s->cpurev), "%s", value);
	return 0;
}

/* Strict decimal seconds ("12", "12.5"; no sign, exponent or hex) to
 * nanoseconds, exactly. */
static int parse_time_ns(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, decimals = 0;

	for (; isdigit((unsigned char)*s); s++, digits++) {
		sec = sec * 10 + (uint64_t)(*s - '0');
		if (sec > REPLAY_TIME_MAX)
			return -1;
	}
	if (digits == 0)
		return -1;
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			if (++decimals > 9)
				return -1;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		if (decimals == 0)
			return -1;
	}
	if (*s)
		return -1;
	for (; decimals < 9; decimals++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 0;
}

static int parse_counter(struct parser *p, const struct metric *m, char **f,
			 uint64_t t);

/* group NAME CPULIST: a CPU group of the whole recording. */
static int parse_group(struct parser *p, char **f, int n)
{
	char why[300];
	if (n != 3)
		return bad(p, "expected group NAME CPULIST");
	if (util_cpu_groups_add(&p->r->groups, f[1], f[2], why, sizeof(why)) !=
	    0)
		return bad(p, "%s", why);
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	char *f[4];
	int n = util_parse_words(line, f, 4);
	if (n == 0 || f[0][0] == '#')
		return 0;
	if (strcmp(f[0], "group") == 0)
		return parse_group(p, f, n);
	if (n != 4)
		return bad(p, "expected TIME CPU METRIC VALUE");

	uint64_t t;
	if (parse_time_ns(f[0], &t) != 0)
		return bad(p,
			   "bad time '%s' (decimal seconds from 0 to %llu, "
			   "at most 9 decimals)",
			   f[0], (unsigned long long)REPLAY_TIME_MAX);
	if (p->have_time && t < p->last_time)
		return bad(p, "time %s goes backwards", f[0]);
	const struct metric *m = meta_metric_by_name(f[2]);
	if (!m)
		return bad(p, "unknown metric '%s'", f[2]);
	if (m->kind != METRIC_COUNTER) {
		if (strcmp(f[1], "-") != 0)
			return bad(p, "CPU must be '-' for %s", f[2]);
		return parse_machine_metric(p, m, f[3], t);
	}
	return parse_counter(p, m, f, t);
}

/* A counter's line: TIME CPU|- METRIC VALUE, the time already checked. */
static int parse_counter(struct parser *p, const struct metric *m, char **f,
			 uint64_t t)
{
	uint64_t cpu, v;
	bool sys = strcmp(f[1], "-") == 0;
	if (!sys && util_parse_u64(f[1], REPLAY_CPU_MAX, &cpu))
		return bad(p, "bad CPU '%s' (0..65535, or - for the system)",
			   f[1]);
	int counter = meta_counter_index_of(m);
	unsigned other = sys ? p->cpu_line[counter] : p->sys_line[counter];
	if (other)
		return bad(p,
			   "%s has %s lines (the first at line %u): a metric "
			   "is per CPU or system-wide (CPU -), not both",
			   f[2], sys ? "per-CPU" : "system-wide", other);
	uint64_t max =
	    p->r->width >= 64 ? UINT64_MAX : (UINT64_C(1) << p->r->width) - 1;
	if (util_parse_u64(f[3], max, &v))
		return bad(p,
			   "bad value '%s' (a whole number that fits "
			   "replayCounterWidth)",
			   f[3]);
	long slot = sys ? (long)REPLAY_SYSTEM_SLOT : slot_of(p, (unsigned)cpu);
	if (slot < 0)
		return bad(p, "out of memory");
	uint64_t *last = sys ? &p->sys_last[counter] : &p->last[slot][counter];
	if (p->r->width >= 64 && v < *last)
		note_reset(p, f[2], f[1], *last, v);
	struct replay *r = p->r;
	if (!set_for(p, t) ||
	    grow((void **)&r->recs, &r->cap_recs, r->nrecs, sizeof(*r->recs)))
		return bad(p, "out of memory");
	*last = v;
	r->recs[r->nrecs++] = (struct rec){(unsigned)slot, counter, v};
	r->sets[r->nsets - 1].n++;
	r->counted |= COUNTER_BIT(counter);
	if (sys)
		r->system_wide |= COUNTER_BIT(counter);
	unsigned *first = sys ? &p->sys_line[counter] : &p->cpu_line[counter];
	if (!*first)
		*first = p->line;
	return 0;
}

static int loaded(struct replay *r, char *err, size_t errlen);

int backend_replay_load(struct replay *r, const struct backend *b, char *err,
			size_t errlen)
{
	FILE *in = backend_replay_open(r, err, errlen);
	if (!in)
		return -1;
	struct parser p = {.r = r, .file = r->file};
	p.slot_of_cpu = calloc(REPLAY_CPU_MAX + 1, sizeof(*p.slot_of_cpu));
	if (!p.slot_of_cpu) {
		fclose(in);
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	struct replay_reader *rd = backend_replay_reader_new(in, b);
	char line[REPLAY_LINE_MAX + 1];
	size_t got;
	bool nul;
	if (!rd) {
		free(p.slot_of_cpu);
		fclose(in);
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	line[0] = '\0';
	while (backend_replay_reader_next(rd, line, &got, &nul)) {
		p.line++;
		if (p.line % REPLAY_STEP_LINES == 0) /* many short lines */
			backend_replay_reader_step(rd);
		if (backend_replay_reader_cancelled(rd))
			break;
		if (got > REPLAY_LINE_MAX)
			bad(&p, "line of %zu bytes (at most %d)", got,
			    REPLAY_LINE_MAX);
		else if (nul)
			bad(&p, "NUL byte in the line");
		else
			parse_line(&p, line);
	}
	bool stopped = backend_replay_reader_cancelled(rd);
	free(rd);
	free(p.last);
	free(p.slot_of_cpu);
	fclose(in);
	if (stopped) {
		snprintf(err, errlen, "replay: %s: loading stopped at line %u",
			 r->file, p.line);
		return -1;
	}
	return loaded(r, err, errlen);
}

/* The whole file read: the cells the reads fill, and the summary. */
static int loaded(struct replay *r, char *err, size_t errlen)
{
	if (r->nsets == 0) {
		snprintf(err, errlen, "replay: %s: no valid sample lines",
			 r->file);
		return -1;
	}
	r->cells = calloc(r->ncpus ? r->ncpus : 1, sizeof(*r->cells));
	r->present = calloc(r->ncpus ? r->ncpus : 1, sizeof(*r->present));
	if (!r->cells || !r->present) {
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	r->unreported = r->bad_lines;
	util_log(LOG_INFO,
		 "replay: %s: %zu sample sets, %zu CPUs, %u bad "
		 "line(s) skipped, %u reset(s)\n",
		 r->file, r->nsets, r->ncpus, r->bad_lines, r->resets);
	return 0;
}
