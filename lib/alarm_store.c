/* alarm_store.c - the file of nonVolatile alarm rows (alarm_store.h). */
#include "alarm_store.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alarm_write.h"
#include "log.h"
#include "parse.h"

#define STORE_TOKEN "alarmRow"
#define NOT_LOADED  "# not loaded"

int alarm_store_init(struct alarm_store *st, const char *path)
{
	memset(st, 0, sizeof(*st));
	st->path = strdup(path);
	return st->path ? 0 : -1;
}

static void forget_kept(struct alarm_store *st)
{
	for (size_t i = 0; i < st->nkept; i++)
		free(st->kept[i]);
	free(st->kept);
	st->kept = NULL;
	st->nkept = 0;
}

void alarm_store_free(struct alarm_store *st)
{
	forget_kept(st);
	free(st->path);
	memset(st, 0, sizeof(*st));
}

/* A line kept as it will be rewritten: head then line. */
static int keep(struct alarm_store *st, const char *head, const char *line0)
{
	char line[PARSE_LINE_MAX + 512];
	snprintf(line, sizeof(line), "%s%s", head, line0);
	char **k = realloc(st->kept, (st->nkept + 1) * sizeof(*k));
	if (!k)
		return -1;
	st->kept = k;
	if (!(k[st->nkept] = strdup(line)))
		return -1;
	st->nkept++;
	return 0;
}

/* One row line's words after the token into d; -1 with why. */
static int parse_row(char **w, int n, struct alarm_def *d, char *why,
		     size_t len)
{
	uint64_t index;
	char rest[PARSE_LINE_MAX] = "";

	if (n < 10 || n > 11)
		return parse_fail(why, len,
				  "expected " STORE_TOKEN " INDEX STATUS "
				  "nonVolatile NAME METRIC SCOPE TYPE RISING "
				  "FALLING [STARTUP]");
	if (parse_u64(w[1], ALARM_INDEX_MAX, &index) != 0 ||
	    index <= ALARM_CONFIG_INDEX_MAX)
		return parse_fail(why, len, "bad index '%s' (%u..%u)", w[1],
				  ALARM_CONFIG_INDEX_MAX + 1, ALARM_INDEX_MAX);
	memset(d, 0, sizeof(*d));
	d->index = (uint32_t)index;
	/* the words alarm_def_format writes; a notReady row is never kept */
	if (strcmp(w[2], alarm_row_name(ROW_ACTIVE)) == 0)
		d->row = ROW_ACTIVE;
	else if (strcmp(w[2], alarm_row_name(ROW_NOT_IN_SERVICE)) == 0)
		d->row = ROW_NOT_IN_SERVICE;
	else
		return parse_fail(
		    why, len, "bad status '%s' (active, notInService)", w[2]);
	if (strcmp(w[3], alarm_storage_name(STORAGE_NONVOLATILE)) != 0)
		return parse_fail(why, len, "bad storage '%s' (nonVolatile)",
				  w[3]);
	d->storage = STORAGE_NONVOLATILE;
	for (int i = 4; i < n; i++)
		snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest),
			 "%s%s", i > 4 ? " " : "", w[i]);
	if (alarm_words_parse(rest, &d->cfg, why, len) != 0)
		return -1;
	if (d->row == ROW_ACTIVE && d->cfg.falling >= d->cfg.rising)
		return parse_fail(why, len,
				  "an active row's falling threshold must be "
				  "below its rising threshold");
	d->given = ALARM_GIVEN_OF(&d->cfg);
	return 0;
}

/* A row line, checked against the rows before it. */
static int load_line(char *line, struct alarm_def *rows, size_t n,
		     struct alarm_def *d, char *why, size_t len)
{
	char *w[12];
	int nw = parse_words(line, w, 11);
	if (nw < 1 || strcmp(w[0], STORE_TOKEN) != 0)
		return parse_fail(why, len, "not an " STORE_TOKEN " line");
	if (parse_row(w, nw, d, why, len) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].index == d->index)
			return parse_fail(why, len, "row %u twice", d->index);
		if (strcmp(rows[i].cfg.name, d->cfg.name) == 0)
			return parse_fail(why, len, "name '%s' twice",
					  d->cfg.name);
	}
	return 0;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* Each line of f; rows into *rows. */
static int read_lines(struct alarm_store *st, FILE *f, struct alarm_def **rows,
		      size_t *n, unsigned *bad)
{
	char line[PARSE_LINE_MAX + 2], copy[PARSE_LINE_MAX + 2], why[256];
	unsigned no = 0;

	while (fgets(line, sizeof(line), f)) {
		no++;
		size_t l = strlen(line);
		bool whole = l && line[l - 1] == '\n';
		line[strcspn(line, "\n")] = '\0';
		bool comment = line[0] == '#' || blank(line);
		if (strncmp(line, NOT_LOADED, strlen(NOT_LOADED)) == 0 &&
		    keep(st, "", line) != 0)
			return -1;
		while (comment && !whole && fgets(line, sizeof(line), f) &&
		       !strchr(line, '\n'))
			; /* the rest of a long comment */
		if (comment)
			continue;
		struct alarm_def d;
		snprintf(copy, sizeof(copy), "%s", line);
		struct alarm_def *g = realloc(*rows, (*n + 1) * sizeof(*g));
		if (!g)
			return -1;
		*rows = g;
		int r = !whole && !feof(f)
			    ? parse_fail(why, sizeof(why), "line too long")
			    : load_line(line, *rows, *n, &d, why, sizeof(why));
		if (r == 0) {
			(*rows)[(*n)++] = d;
			continue;
		}
		hwr_log(LOG_ERR,
			"%s: line %u: %s; the line is not loaded, "
			"and kept in the file as a comment\n",
			st->path, no, why);
		(*bad)++;
		char where[320];
		snprintf(where, sizeof(where),
			 NOT_LOADED " (line %u: %s): ", no, why);
		if (strlen(copy) > 600) /* kept lines stay short */
			strcpy(copy + 597, "...");
		if (keep(st, where, copy) != 0)
			return -1;
		while (!whole && fgets(line, sizeof(line), f) &&
		       !strchr(line, '\n'))
			; /* the rest of a long line */
	}
	return 0;
}

int alarm_store_load(struct alarm_store *st, struct alarm_def **rows, size_t *n,
		     unsigned *bad)
{
	FILE *f = fopen(st->path, "re");

	*rows = NULL;
	*n = 0;
	*bad = 0;
	forget_kept(st);
	st->unreadable = false;
	if (!f && errno == ENOENT)
		return 0; /* no row was ever kept */
	if (!f) {
		hwr_log(LOG_ERR, "%s: cannot read the alarm rows: %s\n",
			st->path, strerror(errno));
		st->unreadable = true;
		return -1;
	}
	int r = read_lines(st, f, rows, n, bad);
	if (r == 0 && ferror(f)) {
		hwr_log(LOG_ERR, "%s: cannot read the alarm rows: %s\n",
			st->path, strerror(errno));
		r = -1;
	}
	fclose(f);
	if (r != 0) {
		st->unreadable = true;
		free(*rows);
		*rows = NULL;
		*n = 0;
	}
	return r;
}

static int put_rows(FILE *f, const struct alarm_store *st,
		    const struct alarm_set *set)
{
	char line[256];
	fprintf(f, "## hw-r10kevctr: the alarm rows created over SNMP with "
		   "StorageType nonVolatile.\n"
		   "## Written by the agent at each change (doc/alarms.md); "
		   "edit only while it is stopped.\n"
		   "## " STORE_TOKEN " INDEX STATUS STORAGE NAME METRIC "
		   "SCOPE TYPE RISING FALLING STARTUP\n");
	for (size_t i = 0; i < st->nkept; i++)
		fprintf(f, "%s\n", st->kept[i]);
	for (size_t i = 0; set && i < set->count; i++) {
		const struct alarm *a = &set->alarm[i];
		if (a->storage != STORAGE_NONVOLATILE ||
		    a->row == ROW_NOT_READY)
			continue;
		struct alarm_def d = alarm_def_of(a);
		alarm_def_format(&d, line, sizeof(line));
		fprintf(f, STORE_TOKEN " %s\n", line);
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* fsync the directory of path, so that the rename is on disk. */
static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd =
	    copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int r = fd >= 0 && fsync(fd) == 0 ? 0 : -1;
	if (fd >= 0)
		close(fd);
	free(copy);
	return r;
}

int alarm_store_save(struct alarm_store *st, const struct alarm_set *set,
		     char *why, size_t len)
{
	char tmp[4096];
	if (st->unreadable)
		return parse_fail(why, len,
				  "%s could not be read at the last load; "
				  "not written over (fix it, then reload)",
				  st->path);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", st->path) >=
	    sizeof(tmp))
		return parse_fail(why, len, "%s: path too long", st->path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return parse_fail(why, len, "cannot write %s: %s", tmp,
				  strerror(e));
	}
	int r = put_rows(f, st, set);
	int e = errno;
	if (r == 0 && fsync(fileno(f)) != 0) {
		r = -1;
		e = errno;
	}
	if (fclose(f) != 0 && r == 0) {
		r = -1;
		e = errno;
	}
	if (r == 0 && rename(tmp, st->path) != 0) {
		r = -1;
		e = errno;
	}
	if (r != 0) {
		unlink(tmp);
		return parse_fail(why, len, "cannot write %s: %s", st->path,
				  strerror(e));
	}
	sync_dir(st->path);
	return 0;
}
