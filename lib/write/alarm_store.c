/* alarm_store.c - the file of nonVolatile alarm rows (alarm_store.h). */
#include "write/alarm_store.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "write/alarm_write.h"
#include "util/log.h"
#include "util/parse.h"

#define STORE_TOKEN "alarmRow"
#define NOT_LOADED  "# not loaded"

int write_store_init(struct alarm_store *st, const char *path, uid_t owner)
{
	memset(st, 0, sizeof(*st));
	st->owner = owner == (uid_t)-1 ? geteuid() : owner;
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

void write_store_free(struct alarm_store *st)
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

	if (n < 10 || n > 12)
		return util_parse_fail(
		    why, len,
		    "expected " STORE_TOKEN " INDEX STATUS "
		    "nonVolatile NAME METRIC SCOPE TYPE RISING "
		    "FALLING [STARTUP [OWNER]]");
	if (util_parse_u64(w[1], ALARM_INDEX_MAX, &index) != 0 ||
	    index <= ALARM_CONFIG_INDEX_MAX)
		return util_parse_fail(why, len, "bad index '%s' (%u..%u)",
				       w[1], ALARM_CONFIG_INDEX_MAX + 1,
				       ALARM_INDEX_MAX);
	memset(d, 0, sizeof(*d));
	d->index = (uint32_t)index;
	/* the words write_format_def writes; a notReady row is never kept */
	if (strcmp(w[2], write_format_row_status(ROW_ACTIVE)) == 0)
		d->row = ROW_ACTIVE;
	else if (strcmp(w[2], write_format_row_status(ROW_NOT_IN_SERVICE)) == 0)
		d->row = ROW_NOT_IN_SERVICE;
	else
		return util_parse_fail(
		    why, len, "bad status '%s' (active, notInService)", w[2]);
	if (strcmp(w[3], write_format_storage(STORAGE_NONVOLATILE)) != 0)
		return util_parse_fail(why, len,
				       "bad storage '%s' (nonVolatile)", w[3]);
	d->storage = STORAGE_NONVOLATILE;
	if (n == 12 && write_parse_owner(w[11], d->owner, sizeof(d->owner)))
		return util_parse_fail(why, len, "bad owner '%s'", w[11]);
	for (int i = 4; i < n && i < 11; i++)
		snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest),
			 "%s%s", i > 4 ? " " : "", w[i]);
	/* the one rule of a row of this status, as for a set */
	return alarm_words_parse(rest, d, why, len);
}

/* A row line, checked against the config's alarms and the rows before
 * it. */
static int load_line(char *line, const struct alarm_config *cfgs, size_t ncfg,
		     struct alarm_def *rows, size_t n, struct alarm_def *d,
		     char *why, size_t len)
{
	char *w[13];
	int nw = util_parse_words(line, w, 12);
	if (nw < 1 || strcmp(w[0], STORE_TOKEN) != 0)
		return util_parse_fail(why, len, "not an " STORE_TOKEN " line");
	if (parse_row(w, nw, d, why, len) != 0)
		return -1;
	for (size_t i = 0; i < ncfg; i++)
		if (strcmp(cfgs[i].name, d->cfg.name) == 0)
			return util_parse_fail(
			    why, len,
			    "name '%s' is the config file's "
			    "alarm %zu, which wins (create the "
			    "row again under another name)",
			    d->cfg.name, i + 1);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].index == d->index)
			return util_parse_fail(why, len, "row %u twice",
					       d->index);
		if (strcmp(rows[i].cfg.name, d->cfg.name) == 0)
			return util_parse_fail(why, len, "name '%s' twice",
					       d->cfg.name);
	}
	return 0;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* A line that is not loaded: logged, counted, kept as a comment. */
static int not_loaded(struct alarm_store *st, unsigned no, const char *why,
		      const char *line, size_t len, unsigned *bad)
{
	char where[384], copy[604];

	util_log(LOG_ERR,
		 "%s: line %u: %s; the line is not loaded, "
		 "and kept in the file as a comment\n",
		 st->path, no, why);
	(*bad)++;
	snprintf(where, sizeof(where), NOT_LOADED " (line %u: %s): ", no, why);
	size_t k = 0; /* kept lines stay short and printable */
	for (size_t i = 0; i < len && k < 600; i++)
		copy[k++] = line[i] == '\0' || line[i] == '\r' ? '?' : line[i];
	if (len > 600)
		memcpy(copy + 597, "...", 3);
	copy[k] = '\0';
	return keep(st, where, copy);
}

/* One line (without its newline) of f; 1 a row into d, 0 nothing to
 * load, -1 out of memory. */
static int one_line(struct alarm_store *st, char *line, size_t l, unsigned no,
		    const struct alarm_config *cfgs, size_t ncfg,
		    struct alarm_def *rows, size_t n, struct alarm_def *d,
		    unsigned *bad)
{
	char why[320];
	bool nul = memchr(line, '\0', l) != NULL;

	if (!nul && strncmp(line, NOT_LOADED, strlen(NOT_LOADED)) == 0)
		return keep(st, "", line);
	if (!nul && (line[0] == '#' || blank(line)))
		return 0;
	char words[PARSE_LINE_MAX + 1]; /* util_parse_words cuts its words */
	int r =
	    nul ? util_parse_fail(why, sizeof(why), "a NUL byte in the line")
	    : l > PARSE_LINE_MAX
		? util_parse_fail(why, sizeof(why), "line too long (%zu bytes)",
				  l)
		: load_line(memcpy(words, line, l + 1), cfgs, ncfg, rows, n, d,
			    why, sizeof(why));
	if (r == 0)
		return 1;
	return not_loaded(st, no, why, line, l, bad) == 0 ? 0 : -1;
}

/* Each line of f; rows into *rows. */
static int read_lines(struct alarm_store *st, FILE *f,
		      const struct alarm_config *cfgs, size_t ncfg,
		      struct alarm_def **rows, size_t *n, unsigned *bad)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned no = 0;
	int r = 0;

	while (r == 0 && (got = getline(&line, &cap, f)) >= 0) {
		size_t l = (size_t)got;
		no++;
		if (l && line[l - 1] == '\n')
			line[--l] = '\0';
		struct alarm_def d;
		struct alarm_def *g = realloc(*rows, (*n + 1) * sizeof(*g));
		if (!g) {
			r = -1;
			break;
		}
		*rows = g;
		int k = one_line(st, line, l, no, cfgs, ncfg, *rows, *n, &d,
				 bad);
		if (k < 0)
			r = -1;
		else if (k > 0)
			(*rows)[(*n)++] = d;
	}
	free(line);
	return r;
}

/* The file, opened without following a symlink: a regular file of the
 * agent's user; NULL (errno ENOENT: there is none) with why. */
static FILE *open_store(const struct alarm_store *st, char *why, size_t len)
{
	struct stat sb;
	int fd = open(st->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	FILE *f = NULL;

	if (fd < 0) {
		util_parse_fail(why, len, "%s",
				e == ELOOP ? "a symlink, not followed"
					   : strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &sb) != 0)
		util_parse_fail(why, len, "%s", strerror(errno));
	else if (!S_ISREG(sb.st_mode))
		util_parse_fail(why, len, "not a regular file");
	else if (sb.st_uid != st->owner)
		util_parse_fail(
		    why, len,
		    "owned by uid %u, not by the agent's user (uid %u)",
		    (unsigned)sb.st_uid, (unsigned)st->owner);
	else if (!(f = fdopen(fd, "r")))
		util_parse_fail(why, len, "%s", strerror(errno));
	if (!f) {
		close(fd);
		errno = EPERM;
	}
	return f;
}

int write_store_load(struct alarm_store *st, const struct alarm_config *cfgs,
		     size_t ncfg, struct alarm_def **rows, size_t *n,
		     unsigned *bad)
{
	char why[256];
	FILE *f = open_store(st, why, sizeof(why));

	*rows = NULL;
	*n = 0;
	*bad = 0;
	forget_kept(st);
	st->unreadable = false;
	if (!f && errno == ENOENT)
		return 0; /* no row was ever kept */
	if (!f) {
		util_log(LOG_ERR, "%s: cannot read the alarm rows: %s\n",
			 st->path, why);
		st->unreadable = true;
		return -1;
	}
	int r = read_lines(st, f, cfgs, ncfg, rows, n, bad);
	if (r == 0 && ferror(f)) {
		util_log(LOG_ERR, "%s: cannot read the alarm rows: %s\n",
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
	char line[768];
	fprintf(f, "## hw-r10kevctr: the alarm rows created over SNMP with "
		   "StorageType nonVolatile.\n"
		   "## Written by the agent at each change (doc/alarms.md); "
		   "edit only while it is stopped.\n"
		   "## " STORE_TOKEN " INDEX STATUS STORAGE NAME METRIC "
		   "SCOPE TYPE RISING FALLING STARTUP OWNER\n");
	for (size_t i = 0; i < st->nkept; i++)
		fprintf(f, "%s\n", st->kept[i]);
	for (size_t i = 0; set && i < set->count; i++) {
		const struct alarm *a = &set->alarm[i];
		if (!write_store_keeps(a->storage, a->row))
			continue;
		struct alarm_def d = alarm_def_of(a);
		write_format_def(&d, line, sizeof(line));
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

/* Remove what is at tmp (a leftover of a crash between create and
 * rename, or a plant), never following it; a symlink is not the agent's
 * doing, so it is said in the log (where it pointed, too).  -1 with
 * errno if it cannot be removed. */
static int remove_leftover(const char *tmp)
{
	struct stat sb;
	char to[4096];
	bool is_link = lstat(tmp, &sb) == 0 && S_ISLNK(sb.st_mode);
	ssize_t n = is_link ? readlink(tmp, to, sizeof(to) - 1) : -1;

	if (unlink(tmp) != 0)
		return -1;
	to[n < 0 ? 0 : n] = '\0';
	if (is_link)
		util_log(LOG_WARNING,
			 "alarm store: %s was a symlink (to %s), planted where "
			 "the store writes its temporary file: removed, not "
			 "followed\n",
			 tmp, n < 0 ? "?" : to);
	return 0;
}

int write_store_save(struct alarm_store *st, const struct alarm_set *set,
		     char *why, size_t len)
{
	char tmp[4096];
	if (st->unreadable)
		return util_parse_fail(why, len,
				       "%s could not be read at the last load; "
				       "not written over (fix it, then reload)",
				       st->path);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", st->path) >=
	    sizeof(tmp))
		return util_parse_fail(why, len, "%s: path too long", st->path);
	/* a new file, never through a symlink planted at tmp: a leftover
	 * (a crash between create and rename, or a plant) is removed, not
	 * followed, and creation tried once more */
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = open(tmp, flags, 0600);
	if (fd < 0 && errno == EEXIST && remove_leftover(tmp) == 0)
		fd = open(tmp, flags, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return util_parse_fail(why, len, "cannot write %s: %s", tmp,
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
		return util_parse_fail(why, len, "cannot write %s: %s",
				       st->path, strerror(e));
	}
	sync_dir(st->path);
	return 0;
}
