/* strbuf.h - a growable string, so nothing is built in fixed buffers. */
#ifndef HWR10K_STRBUF_H
#define HWR10K_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, cap;
	int oom; /* set once an allocation failed; contents are then truncated
		  */
};
#define STRBUF_INIT                                                            \
	{                                                                      \
		NULL, 0, 0, 0                                                  \
	}

void util_strbuf_addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void util_strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void util_strbuf_add(struct strbuf *sb, const char *s, size_t n);
void util_strbuf_reset(struct strbuf *sb);
/* Hand the string to the caller (never NULL unless out of memory). */
char *util_strbuf_take(struct strbuf *sb);
void util_strbuf_release(struct strbuf *sb);

#endif
