/* describe.c - hw.help entry -> DESCRIPTION text. */
#include "describe.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

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

char *metric_description(const struct help_entry *e, int per_cpu)
{
	struct strbuf sb = STRBUF_INIT;
	int replaced = 0;

	strbuf_addf(&sb, "%s\n\n", e->summary);
	for (const char *p = e->text; *p;) {
		size_t n = per_cpu ? phrase_at(p, DESCRIBE_TOTAL_PHRASE) : 0;
		if (n) {
			strbuf_addf(&sb, "%s", DESCRIBE_CPU_PHRASE);
			p += n;
			replaced++;
		} else {
			strbuf_add(&sb, p++, 1);
		}
	}
	if (sb.oom || (per_cpu && !replaced)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_take(&sb);
}
