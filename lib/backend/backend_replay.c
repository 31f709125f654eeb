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
 * value lower than the cell's previous one is a restart from zero (a
 * reset: a discontinuity, and the value is what counted since).  A CPU in
 * a set without a line for a counter keeps that count: no rate for the
 * poll, and the next covers the time since its last line.  The first value
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

#include "backend/backend.h"
#include "backend/backend_replay.h"
#include "util/counter_math.h"
#include "util/log.h"
#include "util/parse.h"
#include "backend/replay_data.h"

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
	util_cpu_groups_free(&r->groups);
	free(r);
}

/* ------------------------------------------------------------ settings */

static const struct replay_settings replay_defaults = {.width = 64};

static int parse_width(void *settings, const char *token, char **w, int n,
		       char *err, size_t len)
{
	uint64_t v;
	if (util_parse_number(token, w, n, 1, 64, &v, err, len) ||
	    (v != 32 && v != 48 && v != 64))
		return util_parse_fail(err, len, "%s: expected 32, 48 or 64",
				       token);
	((struct replay_settings *)settings)->width = (unsigned)v;
	return 0;
}

/* Every replay token reopens the recording. */
static const struct config_token replay_tokens[] = {
    TOKEN_STRING("replayFile", "PATH", struct replay_settings, file, true),
    TOKEN_YESNO("replayLoop", "yes|no", struct replay_settings, loop, true),
    TOKEN_CUSTOM("replayCounterWidth", "BITS (32, 48 or 64)",
		 struct replay_settings, width, true, parse_width, NULL, NULL),
    TOKEN_END,
};

static int replay_validate(const void *settings, char *err, size_t errlen)
{
	if (!((const struct replay_settings *)settings)->file)
		return util_parse_fail(err, errlen,
				       "backend replay needs replayFile");
	return 0;
}

static void restart(struct replay *r)
{
	memset(r->cells, 0, r->ncpus * sizeof(*r->cells));
	memset(r->sys_cells, 0, sizeof(r->sys_cells));
	r->next = 0;
	r->epoch = backend_new_epoch();
}

static int backend_replay_open(struct backend *b, const struct config *cfg,
			       char *err, size_t errlen)
{
	const struct replay_settings *rs =
	    config_settings(cfg, &backend_replay_section);
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
	if (backend_replay_load(r, b, err, errlen) != 0) {
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
		bool sys = rec->slot == REPLAY_SYSTEM_SLOT;
		struct count_cell *c = sys ? &r->sys_cells[rec->counter]
					   : &r->cells[rec->slot][rec->counter];
		util_count_cell_take(c, rec->value, r->width);
		if (!sys)
			present[rec->slot] = true;
	}
	if (s->has_state) {
		r->state = s->state;
		r->state_given = true;
	}
	if (s->has_cpurev)
		snprintf(r->cpurev, sizeof(r->cpurev), "%s", s->cpurev);
}

/*
 * What PCP's IRIX PMDA would have served of the recorded counters: none
 * with a recorded state of 0 or -1 (counters disabled, or no R10000);
 * with a recorded cpurev MAJOR.MINOR, vcc only below 3.1 and fucomp only
 * from it (major*100+minor >= 301, the PMDA's own test).
 */
static counter_mask served_counters(const struct replay *r)
{
	counter_mask m = r->counted;

	if (r->state_given && r->state <= 0)
		return 0;
	for (int c = 0; c < COUNTER_COUNT; c++)
		if (!meta_metric_in_revision(&meta_counters[c], r->cpurev))
			m &= ~COUNTER_BIT(c);
	return m;
}

/* The CPUs of this set into out's rows; how many. */
static size_t fill_cpus(struct replay *r, const bool *present,
			struct sample *out)
{
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
		/* a counter without a line in this set is unread */
		for (int c = 0; c < COUNTER_COUNT; c++) {
			struct count_cell *cell = &r->cells[slot][c];
			cs->value[c] = cell->acc;
			util_count_cell_report(cell, COUNTER_BIT(c), r->ended,
					  &cs->unread, &cs->reset);
		}
	}
	return n;
}

static int replay_read(struct backend *b, struct sample *out)
{
	struct replay *r = b->priv;
	bool *present = r->present;

	if (r->next == r->nsets && r->loop) {
		if (r->loops++ == 0)
			util_log(LOG_INFO,
				 "replay: %s: end reached, starting again "
				 "(logged once; each loop is a counter "
				 "discontinuity)\n",
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
			util_log(LOG_NOTICE,
				 "replay: %s: end reached after %zu "
				 "sets; holding the last values\n",
				 r->file, r->nsets);
		r->ended = true;
		out->ended = true; /* rows say so; no rate is served */
		const struct rset *s = &r->sets[i];
		for (size_t k = s->first; k < s->first + s->n; k++)
			if (r->recs[k].slot != REPLAY_SYSTEM_SLOT)
				present[r->recs[k].slot] = true;
	}
	if (cache_sample_reserve(out, r->ncpus) < 0)
		return -1;
	out->ncpus = fill_cpus(r, present, out);
	out->groups = &r->groups;
	out->time_ns = r->time_ns;
	out->counted = served_counters(r);
	out->system_wide = r->system_wide & out->counted;
	for (size_t k = 0; k < out->ncpus; k++)
		out->cpus[k].unread &= out->counted & ~out->system_wide;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		out->total[c] = r->sys_cells[c].acc;
		util_count_cell_report(&r->sys_cells[c], COUNTER_BIT(c), r->ended,
				  &out->total_unread, &out->total_reset);
	}
	out->total_unread &= out->system_wide;
	out->total_epoch = r->epoch;
	out->state = r->state_given ? r->state
				    : (int32_t)__builtin_popcountll(r->counted);
	snprintf(out->cpurev, sizeof(out->cpurev), "%s", r->cpurev);
	out->errors = r->unreported;
	r->unreported = 0;
	return 0;
}

/* The same settings (the token rows say so): reopened all the same when
 * the file was replaced or changed since it was loaded. */
static bool replay_keep(struct backend *b, const struct config *cfg)
{
	struct replay *r = b->priv;
	const struct replay_settings *rs =
	    config_settings(cfg, &backend_replay_section);
	struct file_id now;
	int fd =
	    rs->file ? open(rs->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	bool same = fd >= 0 && backend_replay_file_id(fd, &now) == 0 &&
		    backend_replay_file_id_equal(&now, &r->id);

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

const struct config_section backend_replay_section = {
    .name = "replay",
    .tokens = replay_tokens,
    .settings_size = sizeof(struct replay_settings),
    .defaults = &replay_defaults,
    .validate = replay_validate,
};

const struct backend_ops backend_replay = {
    .section = &backend_replay_section,
    .open = backend_replay_open,
    .read = replay_read,
    .close = replay_close,
    .keep = replay_keep,
};
