/* helpfile.c - PCP newhelp(1) parser with FILE:LINE diagnostics. */
#include "meta/helpfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "meta/metrics.h"
#include "util/strbuf.h"

static void diag(FILE *err, const char *file, unsigned line, const char *msg,
		 const char *arg)
{
	if (line)
		fprintf(err, "%s:%u: %s%s\n", file, line, msg, arg ? arg : "");
	else
		fprintf(err, "%s: %s%s\n", file, msg, arg ? arg : "");
}

static bool is_blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* Apply the SMI string rule to one line in place; returns false on a bad byte.
 */
static bool smi_clean_line(char *s, size_t *badcol)
{
	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"')
			s[i] = '\'';
		else if (c < 0x20 || c > 0x7e) {
			*badcol = i + 1;
			return false;
		}
	}
	return true;
}

static struct help_entry *add_entry(struct helpfile *hf)
{
	struct help_entry *e =
	    realloc(hf->entries, (hf->count + 1) * sizeof(*hf->entries));
	if (!e)
		return NULL;
	hf->entries = e;
	e = &hf->entries[hf->count++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Drop trailing blank lines of the long text being built. */
static void finish_text(struct strbuf *text, struct help_entry *e)
{
	while (text->len && text->buf[text->len - 1] == '\n')
		text->buf[--text->len] = '\0';
	if (e)
		e->text = util_strbuf_take(text);
	util_strbuf_reset(text);
}

/* Parse "@ METRIC SUMMARY" into e; returns an error message or NULL. */
static const char *parse_at_line(char *line, struct help_entry *e)
{
	char *p = line + 1;
	p += strspn(p, " \t");
	size_t mlen = strcspn(p, " \t");
	if (mlen == 0)
		return "'@' line has no metric name";
	e->metric = strndup(p, mlen);
	char *summary = p + mlen;
	summary += strspn(summary, " \t");
	if (*summary == '\0')
		return "'@' line has no one-line summary for ";
	size_t slen = strlen(summary);
	while (slen && (summary[slen - 1] == ' ' || summary[slen - 1] == '\t'))
		summary[--slen] = '\0';
	e->summary = strdup(summary);
	return NULL;
}

static int check_duplicate(const struct helpfile *hf, const char *file,
			   const struct help_entry *e, FILE *err)
{
	for (size_t i = 0; i + 1 < hf->count; i++) {
		if (strcmp(hf->entries[i].metric, e->metric) == 0) {
			fprintf(
			    err,
			    "%s:%u: duplicate metric %s (first at line %u)\n",
			    file, e->line, e->metric, hf->entries[i].line);
			return 1;
		}
	}
	return 0;
}

/* What meta_helpfile_parse carries from one line to the next. */
struct hp_state {
	struct helpfile *hf;
	const char *filename;
	FILE *err;
	unsigned lineno;
	int errors;
	struct strbuf text;	/* the current entry's text so far */
	struct help_entry *cur; /* NULL before the first good '@' line */
	/* an '@' line was refused (said): cur is NULL again, and the text
	 * until the next good one is skipped, not reported line by line */
	bool refused;
};

/* An '@ metric summary' line: finish the entry before, start a new one.
 * Returns -1 only when out of memory (parsing stops). */
static int start_entry(struct hp_state *s, char *line)
{
	finish_text(&s->text, s->cur);
	s->cur = add_entry(s->hf);
	if (!s->cur) {
		diag(s->err, s->filename, s->lineno, "out of memory", NULL);
		s->errors++;
		return -1;
	}
	s->cur->line = s->lineno;
	const char *msg = parse_at_line(line, s->cur);
	if (msg) {
		diag(s->err, s->filename, s->lineno, msg, s->cur->metric);
		s->errors++;
		s->hf->count--; /* not an entry; its text is discarded */
		free(s->cur->metric);
		free(s->cur->summary);
		s->cur = NULL;
		s->refused = true;
		return 0;
	}
	size_t col = 0;
	if (!smi_clean_line(s->cur->summary, &col)) {
		fprintf(s->err,
			"%s:%u: byte outside printable ASCII in summary of "
			"%s\n",
			s->filename, s->lineno, s->cur->metric);
		s->errors++;
	}
	s->errors += check_duplicate(s->hf, s->filename, s->cur, s->err);
	return 0;
}

/* A line of help text: appended to the current entry. */
static void add_text_line(struct hp_state *s, char *line)
{
	if (!s->cur) {
		if (!s->refused && !is_blank(line)) {
			diag(s->err, s->filename, s->lineno,
			     "text before the first '@' entry", NULL);
			s->errors++;
		}
		return;
	}
	size_t col = 0;
	if (!smi_clean_line(line, &col)) {
		fprintf(s->err,
			"%s:%u:%zu: byte outside printable ASCII (0x%02x) "
			"cannot go into an SMI string\n",
			s->filename, s->lineno, col,
			(unsigned char)line[col - 1]);
		s->errors++;
	}
	if (s->text.len == 0 && is_blank(line))
		return; /* leading blank lines */
	util_strbuf_addf(&s->text, "%s\n", line);
}

int meta_helpfile_parse(FILE *in, const char *filename, struct helpfile *hf,
			FILE *err)
{
	struct hp_state s = {.hf = hf, .filename = filename, .err = err};
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	memset(hf, 0, sizeof(*hf));
	hf->filename = strdup(filename);
	while ((n = getline(&line, &cap, in)) != -1) {
		s.lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (line[0] == '#')
			continue;
		if (line[0] == '@') {
			if (start_entry(&s, line) != 0)
				break;
			continue;
		}
		add_text_line(&s, line);
	}
	finish_text(&s.text, s.cur);
	util_strbuf_release(&s.text);
	free(line);
	if (ferror(in)) {
		diag(err, filename, 0, "read error: ", strerror(errno));
		s.errors++;
	}
	hf->lines = s.lineno;
	return s.errors;
}

int meta_helpfile_check_metrics(const struct helpfile *hf, FILE *err)
{
	int errors = 0;
	char full[128];

	for (size_t i = 0; i < hf->count; i++) {
		const struct help_entry *e = &hf->entries[i];
		if (!meta_metric_by_name(e->metric)) {
			fprintf(err,
				"%s:%u: metric %s is not in the metrics table "
				"(lib/tables/metrics.def)\n",
				hf->filename, e->line, e->metric);
			errors++;
		}
	}
	for (size_t i = 0; i < meta_metrics_count; i++) {
		meta_metric_fullname(&meta_metrics[i], full, sizeof(full));
		if (!meta_helpfile_find(hf, full)) {
			fprintf(err,
				"%s:%u: metric %s of the metrics table has no "
				"entry\n",
				hf->filename, hf->lines, full);
			errors++;
		}
	}
	return errors;
}

int meta_helpfile_load(const char *path, struct helpfile *hf, FILE *err)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		memset(hf, 0, sizeof(*hf));
		fprintf(err, "%s: cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	int errors = meta_helpfile_parse(in, path, hf, err);
	fclose(in);
	return errors + meta_helpfile_check_metrics(hf, err);
}

const struct help_entry *meta_helpfile_find(const struct helpfile *hf,
					    const char *metric)
{
	for (size_t i = 0; i < hf->count; i++)
		if (strcmp(hf->entries[i].metric, metric) == 0)
			return &hf->entries[i];
	return NULL;
}

void meta_helpfile_free(struct helpfile *hf)
{
	for (size_t i = 0; i < hf->count; i++) {
		free(hf->entries[i].metric);
		free(hf->entries[i].summary);
		free(hf->entries[i].text);
	}
	free(hf->entries);
	free(hf->filename);
	memset(hf, 0, sizeof(*hf));
}
