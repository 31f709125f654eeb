/*
 * alarm_store_fixture.h - the shared set-up of the alarm store's tests
 * (test_alarm_store_rows.c, test_alarm_store_paths.c): a temporary
 * directory holding the store's path, cleaned after each test, and the
 * file written and read back whole.
 */
#ifndef HWR10K_ALARM_STORE_FIXTURE_H
#define HWR10K_ALARM_STORE_FIXTURE_H

#include "testenv.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/parse.h"
#include "write/alarm_store.h"
#include "write/alarm_write.h"
#include "logcapture.h"

static char dir[64], path[128];

static inline int setup(void **state)
{
	(void)state;
	log_capture_start();
	snprintf(dir, sizeof(dir), "/tmp/test_alarm_store.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/alarms.conf", dir);
	return 0;
}

static inline int teardown(void **state)
{
	char tmp[160];
	(void)state;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp);
	unlink(path);
	rmdir(path); /* the unreadable case's */
	snprintf(tmp, sizeof(tmp), "%s/secret", dir);
	unlink(tmp);
	rmdir(dir);
	return 0;
}

static inline void write_file(const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline char *read_file(void)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

#endif
