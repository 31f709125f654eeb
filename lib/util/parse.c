/* parse.c - words, numbers and messages for every input (parse.h). */
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLANKS " \t\r\n"

int util_parse_words(char *line, char **w, int max)
{
	int k = 0;
	for (char *save = NULL, *t = strtok_r(line, BLANKS, &save); t;
	     t = strtok_r(NULL, BLANKS, &save)) {
		if (k == max)
			return max + 1;
		w[k++] = t;
	}
	return k;
}

int util_parse_words_copy(const char *args, char *buf, size_t buflen, char **w,
			  int max)
{
	snprintf(buf, buflen, "%s", args ? args : "");
	return util_parse_words(buf, w, max);
}

int util_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int util_parse_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int util_parse_number(const char *token, char **w, int n, uint64_t min,
		      uint64_t max, uint64_t *out, char *err, size_t len)
{
	if (n != 1 || util_parse_u64(w[0], max, out) || *out < min)
		return util_parse_fail(
		    err, len, "%s: expected one whole number from %llu to %llu",
		    token, (unsigned long long)min, (unsigned long long)max);
	return 0;
}
