/*
 * backend_replay.c - replays recorded samples from a file, one sample set
 * per poll (format: doc/replay-format.md).
 *
 *   # comment
 *   TIME CPU METRIC VALUE
 *   1000.0 - hw.r10kevctr.cpurev 3.1
 *   1000.0 0 hw.r10kevctr.cycles 4294967000
 *
 * Lines with the same TIME form one sample set.  The whole file is checked
 * when the backend opens: every bad line is logged with FILE:LINE, skipped
 * and counted (hwR10kEvCtrPollErrors).  With replayCounterWidth 32 or 48,
 * values are raw hardware counts and deltas are taken modulo 2^width, as
 * IRIX kept 64-bit totals from 32-bit registers; with 64 (the default) a
 * value lower than the cell's previous one is a bad line.  The first value
 * of each cell is its base: served values count from the start of the
 * replay.  At the end the replay holds the last set, or with replayLoop
 * yes starts again in a new counting epoch.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend.h"
#include "backend_replay.h"
#include "counter_math.h"
#include "log.h"
#include "parse.h"

#define REPLAY_CPU_MAX 65535 /* CPU numbers accepted in a file */
/* TIME in seconds: a century past 2^32 s keeps every ns value in 64 bits */
#define REPLAY_TIME_MAX	  UINT64_C(10000000000)
#define REPLAY_STEP_LINES 4096 /* lines between b->progress() calls */

struct rec {
	unsigned slot; /* index into replay.cpus */
	int counter;
	uint64_t value;
};

struct rset {
	uint64_t time_ns;
	size_t first, n; /* records */
	bool has_state, has_cpurev;
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
};

/* What identifies the file loaded: a reload with the same settings
 * reopens the backend only when the file was replaced or changed. */
struct file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct cell {
	bool seen;
	uint64_t raw, acc;
};

struct replay {
	char *file;
	bool loop, ended;
	unsigned width, interval;
	uint64_t time_ns;  /* of the set served last */
	uint64_t start_ns; /* of the epoch's first set */
	struct rec *recs;
	size_t nrecs;
	struct rset *sets;
	size_t nsets, next;
	unsigned *cpus; /* distinct CPU numbers, in order of appearance */
	size_t ncpus;
	size_t cap_recs, cap_sets, cap_cpus; /* allocated elements */
	struct cell (*cells)[COUNTER_COUNT]; /* [slot][counter] */
	counter_mask counted;
	unsigned bad_lines, unreported;
	uint32_t epoch;
	bool *present; /* [slot]: CPU in the set being served */
	bool state_given;
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
	struct file_id id; /* of the file loaded, to see it replaced */
};

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
	hwr_log(LOG_WARNING, "replay: %s:%u: %s; line skipped\n", p->file,
		p->line, msg);
	p->r->bad_lines++;
	return -1;
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

static int parse_line(struct parser *p, char *line)
{
	char *f[4];
	int n = parse_words(line, f, 4);
	if (n == 0 || f[0][0] == '#')
		return 0;
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
	const struct metric *m = metric_by_name(f[2]);
	if (!m)
		return bad(p, "unknown metric '%s'", f[2]);
	if (m->kind != METRIC_COUNTER) {
		if (strcmp(f[1], "-") != 0)
			return bad(p, "CPU must be '-' for %s", f[2]);
		return parse_machine_metric(p, m, f[3], t);
	}
	uint64_t cpu, v;
	if (parse_u64(f[1], REPLAY_CPU_MAX, &cpu))
		return bad(p, "bad CPU '%s' (0..65535)", f[1]);
	uint64_t max =
	    p->r->width >= 64 ? UINT64_MAX : (UINT64_C(1) << p->r->width) - 1;
	if (parse_u64(f[3], max, &v))
		return bad(p,
			   "bad value '%s' (a whole number that fits "
			   "replayCounterWidth)",
			   f[3]);
	int counter = counter_index_of(m);
	long slot = slot_of(p, (unsigned)cpu);
	if (slot < 0)
		return bad(p, "out of memory");
	uint64_t *last = &p->last[slot][counter];
	if (p->r->width >= 64 && v < *last)
		return bad(p,
			   "value %s goes backwards (declare "
			   "replayCounterWidth for wrapping counters)",
			   f[3]);
	struct replay *r = p->r;
	if (!set_for(p, t) ||
	    grow((void **)&r->recs, &r->cap_recs, r->nrecs, sizeof(*r->recs)))
		return bad(p, "out of memory");
	*last = v;
	r->recs[r->nrecs++] = (struct rec){(unsigned)slot, counter, v};
	r->sets[r->nsets - 1].n++;
	r->counted |= COUNTER_BIT(counter);
	return 0;
}

static int file_id_of(int fd, struct file_id *id)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	*id = (struct file_id){st.st_dev, st.st_ino, st.st_size, st.st_mtim};
	return S_ISREG(st.st_mode) ? 0 : 1;
}

static bool file_id_equal(const struct file_id *a, const struct file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec;
}

/*
 * Open without blocking (a FIFO or device named as replayFile would stall
 * the main loop until the master drops us) and accept regular files only.
 */
static FILE *open_regular(struct replay *r, char *err, size_t errlen)
{
	int fd = open(r->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int kind = fd < 0 ? -1 : file_id_of(fd, &r->id);
	FILE *in = kind == 0 ? fdopen(fd, "r") : NULL;

	if (!in) {
		snprintf(err, errlen, "replay: %s: %s", r->file,
			 kind > 0 ? "not a regular file" : strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return in;
}

static int load(struct replay *r, const struct backend *b, char *err,
		size_t errlen)
{
	FILE *in = open_regular(r, err, errlen);
	if (!in)
		return -1;
	struct parser p = {.r = r, .file = r->file};
	p.slot_of_cpu = calloc(REPLAY_CPU_MAX + 1, sizeof(*p.slot_of_cpu));
	if (!p.slot_of_cpu) {
		fclose(in);
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	bool stopped = false;
	while ((got = getline(&line, &cap, in)) != -1) {
		p.line++;
		if (p.line % REPLAY_STEP_LINES == 0) {
			if (b->progress)
				b->progress();
			if (b->cancel && *b->cancel) {
				stopped = true;
				break;
			}
		}
		if (memchr(line, '\0', (size_t)got))
			bad(&p, "NUL byte in the line");
		else
			parse_line(&p, line);
	}
	free(line);
	free(p.last);
	free(p.slot_of_cpu);
	fclose(in);
	if (stopped) {
		snprintf(err, errlen, "replay: %s: loading stopped at line %u",
			 r->file, p.line);
		return -1;
	}
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
	hwr_log(LOG_INFO,
		"replay: %s: %zu sample sets, %zu CPUs, %u bad "
		"line(s) skipped\n",
		r->file, r->nsets, r->ncpus, r->bad_lines);
	return 0;
}

/* ------------------------------------------------------------ backend */

static void free_replay(struct replay *r)
{
	if (!r)
		return;
	free(r->file);
	free(r->recs);
	free(r->sets);
	free(r->cpus);
	free(r->cells);
	free(r->present);
	free(r);
}

/* ------------------------------------------------------------ settings */

static const struct config_token replay_tokens[] = {
    {"replayFile", "PATH"},
    {"replayLoop", "yes|no"},
    {"replayCounterWidth", "BITS (32, 48 or 64)"},
    {NULL, NULL},
};

static const struct replay_settings replay_defaults = {.width = 64};

static int replay_apply(void *settings, const char *token, char **w, int n,
			char *err, size_t len)
{
	struct replay_settings *s = settings;
	uint64_t v;

	if (strcasecmp(token, "replayFile") == 0) {
		if (n != 1)
			return parse_fail(err, len, "%s: expected one PATH",
					  token);
		free(s->file);
		s->file = strdup(w[0]);
		return s->file ? 0 : parse_fail(err, len, "out of memory");
	}
	if (strcasecmp(token, "replayLoop") == 0) {
		if (n != 1 || (strcmp(w[0], "yes") && strcmp(w[0], "no")))
			return parse_fail(err, len, "%s: expected yes or no",
					  token);
		s->loop = strcmp(w[0], "yes") == 0;
		return 0;
	}
	/* replayCounterWidth */
	if (parse_number(token, w, n, 1, 64, &v, err, len) ||
	    (v != 32 && v != 48 && v != 64))
		return parse_fail(err, len, "%s: expected 32, 48 or 64", token);
	s->width = (unsigned)v;
	return 0;
}

static void replay_settings_free(void *settings)
{
	free(((struct replay_settings *)settings)->file);
}

static int replay_validate(const void *settings, char *err, size_t errlen)
{
	if (!((const struct replay_settings *)settings)->file)
		return parse_fail(err, errlen,
				  "backend replay needs replayFile");
	return 0;
}

static void restart(struct replay *r)
{
	memset(r->cells, 0, r->ncpus * sizeof(*r->cells));
	r->next = 0;
	r->epoch = backend_new_epoch();
}

static int replay_open(struct backend *b, const struct config *cfg, char *err,
		       size_t errlen)
{
	const struct replay_settings *rs =
	    config_settings(cfg, &backend_replay);
	struct replay *r = calloc(1, sizeof(*r));
	if (!r || !rs->file || !(r->file = strdup(rs->file))) {
		free(r);
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	r->loop = rs->loop;
	r->interval = cfg->poll_interval;
	r->width = rs->width;
	snprintf(r->cpurev, sizeof(r->cpurev), "unknown");
	if (load(r, b, err, errlen) != 0) {
		free_replay(r);
		return -1;
	}
	restart(r);
	b->priv = r;
	return 0;
}

/* Apply set `i` to the cells. */
static void apply_set(struct replay *r, const struct rset *s, bool *present)
{
	for (size_t k = s->first; k < s->first + s->n; k++) {
		const struct rec *rec = &r->recs[k];
		struct cell *c = &r->cells[rec->slot][rec->counter];
		if (c->seen)
			c->acc += wrap_delta(c->raw, rec->value, r->width);
		c->raw = rec->value;
		c->seen = true;
		present[rec->slot] = true;
	}
	if (s->has_state) {
		r->state = s->state;
		r->state_given = true;
	}
	if (s->has_cpurev)
		snprintf(r->cpurev, sizeof(r->cpurev), "%s", s->cpurev);
}

static int replay_read(struct backend *b, struct sample *out)
{
	struct replay *r = b->priv;
	bool *present = r->present;

	if (r->next == r->nsets && r->loop) {
		hwr_log(LOG_INFO, "replay: %s: end reached, starting again\n",
			r->file);
		restart(r);
	}
	memset(present, 0, r->ncpus * sizeof(*present));
	size_t i = r->next < r->nsets ? r->next : r->nsets - 1;
	if (r->next < r->nsets) {
		r->time_ns = r->sets[r->next].time_ns;
		if (r->next == 0)
			r->start_ns = r->time_ns;
		apply_set(r, &r->sets[r->next++], present);
	} else {
		/* holding: time goes on, the counters stand still */
		r->time_ns += (uint64_t)r->interval * 1000000000u;
		if (!r->ended)
			hwr_log(LOG_NOTICE,
				"replay: %s: end reached after %zu "
				"sets; holding the last values\n",
				r->file, r->nsets);
		r->ended = true;
		const struct rset *s = &r->sets[i];
		for (size_t k = s->first; k < s->first + s->n; k++)
			present[r->recs[k].slot] = true;
	}
	if (sample_reserve(out, r->ncpus) < 0)
		return -1;
	size_t n = 0;
	for (size_t slot = 0; slot < r->ncpus; slot++) {
		if (!present[slot])
			continue; /* CPUs of this set only */
		struct cpu_sample *cs = &out->cpus[n++];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = r->cpus[slot];
		cs->counting = true;
		cs->epoch = r->epoch;
		/* no enabled/running times in a recording: elapsed time */
		cs->time_enabled = cs->time_running = r->time_ns - r->start_ns;
		for (int c = 0; c < COUNTER_COUNT; c++)
			cs->value[c] = r->cells[slot][c].acc;
	}
	out->ncpus = n;
	out->time_ns = r->time_ns;
	out->counted = r->counted;
	out->state = r->state_given ? r->state
				    : (int32_t)__builtin_popcountll(r->counted);
	snprintf(out->cpurev, sizeof(out->cpurev), "%s", r->cpurev);
	out->errors = r->unreported;
	r->unreported = 0;
	return 0;
}

/* Same file (not replaced or changed since it was loaded) and settings. */
static bool replay_keep(struct backend *b, const struct config *cfg)
{
	struct replay *r = b->priv;
	const struct replay_settings *rs =
	    config_settings(cfg, &backend_replay);
	struct file_id now;
	int fd =
	    rs->file ? open(rs->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	bool same = fd >= 0 && file_id_of(fd, &now) == 0 &&
		    file_id_equal(&now, &r->id) &&
		    strcmp(rs->file, r->file) == 0 && rs->loop == r->loop &&
		    rs->width == r->width;

	if (fd >= 0)
		close(fd);
	if (same)
		r->interval = cfg->poll_interval; /* holding: time step */
	return same;
}

static void replay_close(struct backend *b)
{
	free_replay(b->priv);
}

const struct backend_ops backend_replay = {
    .name = "replay",
    .tokens = replay_tokens,
    .settings_size = sizeof(struct replay_settings),
    .defaults = &replay_defaults,
    .apply = replay_apply,
    .settings_free = replay_settings_free,
    .validate = replay_validate,
    .open = replay_open,
    .read = replay_read,
    .close = replay_close,
    .keep = replay_keep,
};
