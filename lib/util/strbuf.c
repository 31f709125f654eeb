/* strbuf.c - growable string. */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(struct strbuf *sb, size_t extra)
{
	if (sb->oom)
		return -1;
	if (sb->len + extra + 1 <= sb->cap)
		return 0;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *p = realloc(sb->buf, cap);
	if (!p) {
		sb->oom = 1;
		return -1;
	}
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

void util_strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (grow(sb, n) < 0)
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void util_strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || grow(sb, (size_t)n) < 0)
		return;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void util_strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	util_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void util_strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *util_strbuf_take(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : strdup("");
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void util_strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->oom = 0;
}
