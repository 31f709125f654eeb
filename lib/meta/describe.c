/* describe.c - hw.help entry -> DESCRIPTION text. */
#include "meta/describe.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* Length of the phrase match at s (words split by whitespace runs), or 0. */
static size_t phrase_at(const char *s, const char *phrase)
{
	const char *p = s, *q = phrase;

	while (*q) {
		if (*q == ' ') {
			if (!isspace((unsigned char)*p))
				return 0;
			while (isspace((unsigned char)*p))
				p++;
			q++;
		} else if (*p++ != *q++) {
			return 0;
		}
	}
	return (size_t)(p - s);
}

/* "NAME is the sum over all CPUs" at s: its length, or 0. */
static size_t sum_phrase_at(const char *s, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(s, name, n) != 0 || !isspace((unsigned char)s[n]))
		return 0;
	const char *p = s + n;
	while (isspace((unsigned char)*p))
		p++;
	size_t m = phrase_at(p, DESCRIBE_TOTAL_PHRASE);
	return m ? (size_t)(p - s) + m : 0;
}

/* A row of a value table: its first word is a number or "other". */
static bool table_row(const char *line, size_t *word)
{
	size_t n = strcspn(line, " \n");
	bool number = n > 0 && strspn(line + (line[0] == '-'), "0123456789") ==
				   n - (line[0] == '-');
	*word = n;
	return line[n] == ' ' &&
	       (number || (n == 5 && !strncmp(line, "other", 5)));
}

/* The lines after "The values are" up to a blank line, aligned. */
static const char *value_table(struct strbuf *sb, const char *p)
{
	while (*p && *p != '\n') {
		size_t len = strcspn(p, "\n"), w;
		if (table_row(p, &w))
			util_strbuf_addf(sb, "  %-5.*s %.*s", (int)w, p,
					 (int)(len - w - 1), p + w + 1);
		else
			util_strbuf_addf(sb, "        %.*s", (int)len, p);
		p += len;
		if (*p == '\n')
			util_strbuf_add(sb, p++, 1);
	}
	return p;
}

/* DESCRIBE_CPU_PHRASE and DESCRIBE_CPU_OF, on two lines when one would
 * pass DESCRIBE_WIDTH. */
static void per_cpu_phrase(struct strbuf *sb, const char *metric)
{
	const char *nl = sb->buf ? strrchr(sb->buf, '\n') : NULL;
	size_t col = sb->len - (nl ? (size_t)(nl + 1 - sb->buf) : 0);
	size_t len = strlen(DESCRIBE_CPU_PHRASE) + strlen(DESCRIBE_CPU_OF) +
		     strlen(metric);

	util_strbuf_addf(sb, "%s%s", DESCRIBE_CPU_PHRASE,
			 col + len > DESCRIBE_WIDTH ? "\n" : " ");
	util_strbuf_addf(sb, DESCRIBE_CPU_OF, metric);
}

char *meta_metric_description(const struct help_entry *e, int per_cpu)
{
	struct strbuf sb = STRBUF_INIT;
	int replaced = 0;

	util_strbuf_addf(&sb, "%s\n\n", e->summary);
	for (const char *p = e->text; *p;) {
		size_t n = per_cpu ? sum_phrase_at(p, e->metric) : 0;
		if (n) {
			per_cpu_phrase(&sb, e->metric);
			p += n;
			replaced++;
		} else if ((p == e->text || p[-1] == '\n') &&
			   !strncmp(p, "The values are\n", 15)) {
			util_strbuf_add(&sb, p, 15);
			p = value_table(&sb, p + 15);
		} else {
			util_strbuf_add(&sb, p++, 1);
		}
	}
	if (sb.oom || (per_cpu && !replaced)) {
		util_strbuf_release(&sb);
		return NULL;
	}
	return util_strbuf_take(&sb);
}
