/*
 * parse.h - the one home of line splitting, number parsing and error
 * messages for every input the agent reads: config tokens (generic and
 * each backend's), alarm lines, replay lines.
 */
#ifndef HWR10K_PARSE_H
#define HWR10K_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define PARSE_LINE_MAX 1024 /* longer arguments: an error, never cut */

/*
 * Split line in place at blanks into at most max words; returns how many
 * there are (max + 1 when there are more).
 */
int util_parse_words(char *line, char **w, int max);
/* The same on a copy of args in buf (buflen >= PARSE_LINE_MAX). */
int util_parse_words_copy(const char *args, char *buf, size_t buflen, char **w,
			  int max);

/* Strict unsigned decimal parse of a whole word; -1 on junk or overflow. */
int util_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* Format a message into err and return -1. */
int util_parse_fail(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* TOKEN with one whole number from min to max, or -1 with a message. */
int util_parse_number(const char *token, char **w, int n, uint64_t min,
		      uint64_t max, uint64_t *out, char *err, size_t len);

#endif
