/* testenv.h - helpers shared by the cmocka unit tests. */
#ifndef HWR10K_TESTENV_H
#define HWR10K_TESTENV_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* A file of the source tree ($HWR_SRCDIR, set by make check). */
static inline const char *src_path(const char *rel)
{
	static char buf[4096];
	const char *d = getenv("HWR_SRCDIR");
	snprintf(buf, sizeof(buf), "%s/%s", d ? d : ".", rel);
	return buf;
}

/* A file of the build tree ($HWR_BUILDDIR). */
static inline const char *build_path(const char *rel)
{
	static char buf[4096];
	const char *d = getenv("HWR_BUILDDIR");
	snprintf(buf, sizeof(buf), "%s/%s", d ? d : ".", rel);
	return buf;
}

/* A new file /tmp/PREFIX-XXXXXX holding the len bytes of text; its name
 * into path (size bytes). */
static inline void tmp_file_with(char *path, size_t size, const char *prefix,
				 const void *text, size_t len)
{
	snprintf(path, size, "/tmp/%s-XXXXXX", prefix);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

/* Run `fn` with a FILE* capturing what it writes; returns malloc'ed text. */
#define CAPTURE(var, expr)                                                     \
	do {                                                                   \
		size_t cap_len_ = 0;                                           \
		FILE *cap_ = open_memstream(&(var), &cap_len_);                \
		FILE *err = cap_;                                              \
		(void)err;                                                     \
		expr;                                                          \
		fclose(cap_);                                                  \
	} while (0)

#endif
