/*
 * confcheck.c - -t's checks beyond each line (confcheck.h): the checks
 * across lines said with their files and lines, and the files a start
 * would open, opened as the agent's user would open them.  A config
 * whose replayFile is missing passed -t and failed the start: the init
 * script's restart then stopped a running agent it could not start
 * again, and its reload returned 0 for a SIGHUP the agent refused.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confcheck.h"
#include "confwhere.h"

#define NAMED_MAX 4

/* Is word in text, as a whole word? */
static bool names(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* Where each token of table that text names was read, into w[*n..). */
static void find_named(const struct config_token *table, const char *text,
		       struct conf_where *w, size_t *n)
{
	for (const struct config_token *t = table; t && t->token; t++)
		if (*n < NAMED_MAX && names(text, t->token)) {
			agent_confwhere_find(t->token, &w[*n]);
			*n += w[*n].line != 0;
		}
}

/* The backend's config section, NULL when none is built in by that
 * name. */
static const struct config_section *section_of(const struct config *cfg)
{
	const struct backend_ops *ops = backend_find(cfg->backend);
	return ops ? ops->section : NULL;
}

/* In the order of the load: file, then line. */
static void sort_where(struct conf_where *w, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && (w[j].order < w[j - 1].order ||
					     (w[j].order == w[j - 1].order &&
					      w[j].line < w[j - 1].line));
		     j--) {
			struct conf_where t = w[j];
			w[j] = w[j - 1];
			w[j - 1] = t;
		}
}

void agent_confcheck_say_across(const struct config *cfg, const char *err)
{
	static struct conf_where w[NAMED_MAX]; /* PATH_MAX each */
	const struct config_section *s = section_of(cfg);
	size_t n = 0;
	char where[PATH_MAX * 2 + 64];

	find_named(config_tokens, err, w, &n);
	find_named(s ? s->tokens : NULL, err, w, &n);
	if (n == 0) { /* a token missing: the backend line asked for it */
		agent_confwhere_find("backend", &w[0]);
		n = w[0].line != 0;
	}
	sort_where(w, n);
	agent_confwhere_say(w, n, where, sizeof(where));
	snmp_log(LOG_ERR, "%s: %s\n", where[0] ? where : "config", err);
}

/* The string value of token in the backend's settings, NULL if unset. */
static const char *value_of(const struct config *cfg, const char *token)
{
	const struct config_section *s = section_of(cfg);
	const struct config_token *t =
	    s ? config_token_find(s->tokens, token) : NULL;

	if (!t || t->kind != TK_STRING)
		return NULL;
	return *(char *const *)((const char *)config_settings(cfg, s) +
				t->offset);
}

/* The files a start opens: the backend's token and whether its value
 * is a pmlogger archive's base name. */
static const struct {
	const char *backend, *token;
	bool archive;
} opened[] = {
    {"replay", "replayFile", false},
    {"pcp", "pcpArchive", true},
};
#define OPENED_N (sizeof(opened) / sizeof(opened[0]))

struct item {
	struct read_check rc;
	const char *token; /* NULL: a -c file */
	const char *value;
	char path[PATH_MAX];
};

/* What libpcp opens for an archive named base: base itself when it is
 * there (a name with its suffix, a directory of archives), else its
 * .meta, compressed or not. */
static void archive_meta(const char *base, struct item *it)
{
	static const char *const z[] = {"",    ".xz", ".lzma", ".bz2", ".bz",
					".gz", ".z",  ".Z",    ".zst"};
	struct stat st;

	it->rc.regular = stat(base, &st) != 0;
	snprintf(it->path, sizeof(it->path), "%s", base);
	for (size_t i = 0; it->rc.regular && i < sizeof(z) / sizeof(z[0]); i++) {
		snprintf(it->path, sizeof(it->path), "%s.meta%s", base, z[i]);
		if (stat(it->path, &st) == 0)
			return;
	}
	if (it->rc.regular)
		snprintf(it->path, sizeof(it->path), "%s.meta", base);
}

/* The backend's files, then (when -u/-g) each -c file, into items;
 * the number. */
static size_t collect(const struct config *cfg, const struct privilege *p,
		      struct item *items, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < OPENED_N && n < max; i++) {
		const char *v = strcmp(cfg->backend, opened[i].backend) == 0
				    ? value_of(cfg, opened[i].token)
				    : NULL;
		if (!v)
			continue;
		items[n] = (struct item){.rc.regular = true,
					 .token = opened[i].token,
					 .value = v};
		if (opened[i].archive)
			archive_meta(v, &items[n]);
		else
			snprintf(items[n].path, sizeof(items[n].path), "%s", v);
		n++;
	}
	const char *list = netsnmp_ds_get_string(NETSNMP_DS_LIBRARY_ID,
						 NETSNMP_DS_LIB_OPTIONALCONFIG);
	char *copy = (p->user || p->group) && list ? strdup(list) : NULL;
	char *save = NULL;
	for (char *f = copy ? strtok_r(copy, ",", &save) : NULL; f && n < max;
	     f = strtok_r(NULL, ",", &save)) {
		items[n] = (struct item){.rc.regular = true};
		snprintf(items[n++].path, sizeof(items[0].path), "%s", f);
	}
	free(copy);
	return n;
}

/* One file that cannot be read, named with its config line. */
static void say_problem(const struct item *it, const char *as)
{
	const char *why = it->rc.err == READ_NOT_REGULAR
			      ? "not a regular file"
			      : strerror(it->rc.err);
	struct conf_where w;
	char where[PATH_MAX + 32];

	if (!it->token) { /* a -c file, read at each reload as the user */
		snmp_log(LOG_ERR,
			 "%s: cannot read the config file%s, as a reload "
			 "does: %s\n",
			 it->path, as, why);
		return;
	}
	agent_confwhere_find(it->token, &w);
	agent_confwhere_say(&w, 1, where, sizeof(where));
	bool other = strcmp(it->path, it->value) != 0; /* an archive's */
	snmp_log(LOG_ERR, "%s: %s %s: cannot read%s%s%s: %s\n",
		 where[0] ? where : "config", it->token, it->value,
		 other ? " " : "", other ? it->path : "", as, why);
}

int agent_confcheck_files(const struct config *cfg, const struct privilege *p)
{
	enum { MAX = OPENED_N + 32 };
	struct item *items = calloc(MAX, sizeof(*items));
	struct read_check rc[MAX];
	char as[160] = "";
	int bad = 0;

	if (!items)
		return 1;
	size_t n = collect(cfg, p, items, MAX);
	for (size_t i = 0; i < n; i++)
		rc[i] = (struct read_check){items[i].path, items[i].rc.regular, 0};
	if (n && agent_privilege_read_check(p, rc, n) != 0) {
		free(items);
		return 1;
	}
	if ((p->user || p->group) && geteuid() == 0)
		snprintf(as, sizeof(as), " as %s%s%s", p->user ? p->user : "",
			 p->group ? (p->user ? ":" : "group ") : "",
			 p->group ? p->group : "");
	for (size_t i = 0; i < n; i++) {
		items[i].rc.err = rc[i].err;
		if (rc[i].err) {
			say_problem(&items[i], as);
			bad++;
		}
	}
	free(items);
	return bad;
}
