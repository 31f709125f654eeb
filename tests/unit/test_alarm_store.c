/* test_alarm_store.c - the file of nonVolatile alarm rows
 * (lib/alarm_store.c): rows read back, every bad line reported by FILE:
 * line N, counted and kept as a comment across rewrites, the write
 * atomic (no temporary left), an unreadable file never written over. */
#include "testenv.h"

#include <sys/stat.h>
#include <unistd.h>

#include "alarm_store.h"
#include "logcapture.h"

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	log_capture_start();
	snprintf(dir, sizeof(dir), "/tmp/test_alarm_store.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/alarms.conf", dir);
	return 0;
}

static int teardown(void **state)
{
	char tmp[160];
	(void)state;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp);
	unlink(path);
	rmdir(path); /* the unreadable case's */
	rmdir(dir);
	return 0;
}

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_file(void)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void rows_and_bad_lines(void **state)
{
	struct alarm_store st;
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	char why[256], longline[1500];
	(void)state;
	memset(longline, 'x', sizeof(longline) - 2);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	char text[4096];
	snprintf(
	    text, sizeof(text),
	    "# a comment\n"
	    "alarmRow 1025 active nonVolatile hot hw.r10kevctr.cycles sum "
	    "rate 100 50 both\n"
	    "\n"
	    "alarmRow 1026 notInService nonVolatile odd stat.ipc 3 "
	    "absolute 5 9 rising\n"
	    "alarmRow 12 active nonVolatile low hw.r10kevctr.tlb sum rate "
	    "10 5\n"
	    "alarmRow 1027 running nonVolatile x hw.r10kevctr.tlb sum rate "
	    "10 5 both\n"
	    "alarmRow 1028 active nonVolatile y hw.r10kevctr.tlb sum rate "
	    "10 50 both\n"
	    "alarmRow 1025 active nonVolatile z hw.r10kevctr.tlb sum rate "
	    "10 5 both\n"
	    "alarmRow 1029 active volatile w hw.r10kevctr.tlb sum rate "
	    "10 5 both\n"
	    "alarmRow 1030 active nonVolatile v hw.r10kevctr.nosuch sum "
	    "rate 10 5 both\n"
	    "%s"
	    "alarm 1031 hw.r10kevctr.tlb sum rate 10 5\n",
	    longline);
	write_file(text);
	assert_int_equal(alarm_store_init(&st, path), 0);
	assert_int_equal(alarm_store_load(&st, &rows, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rows[0].index, 1025);
	assert_int_equal(rows[0].row, ROW_ACTIVE);
	assert_int_equal(rows[0].cfg.type, TYPE_RATE);
	assert_int_equal(rows[1].index, 1026);
	assert_int_equal(rows[1].row, ROW_NOT_IN_SERVICE); /* 9 >= 5: kept */
	assert_int_equal(rows[1].cfg.cpu, 3);
	assert_true(rows[1].given & ALARM_GIVEN_CPU);
	assert_int_equal(bad, 8);
	char want[256];
	snprintf(want, sizeof(want), "%s: line 5: bad index '12'", path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 6: bad status 'running'", path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 7: an active row's falling",
		 path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 8: row 1025 twice", path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 11: line too long", path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 12: not an alarmRow line", path);
	assert_logged(want);

	/* rewritten: the good rows from the table, the bad lines kept */
	struct alarm_set set;
	assert_int_equal(alarm_set_build_rows(&set, NULL, 0, rows, n, NULL), 0);
	assert_int_equal(alarm_store_save(&st, &set, why, sizeof(why)), 0);
	char *f = read_file();
	assert_non_null(strstr(f, "\nalarmRow 1025 active nonVolatile hot "
				  "hw.r10kevctr.cycles sum rate 100 50 "
				  "both\n"));
	assert_non_null(strstr(f, "\nalarmRow 1026 notInService nonVolatile "
				  "odd stat.ipc 3 absolute 5 9 rising\n"));
	assert_non_null(strstr(f, "\n# not loaded (line 6: bad status "
				  "'running' (active, notInService)): "
				  "alarmRow 1027 running"));
	char tmp[160];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_not_equal(access(tmp, F_OK), 0); /* renamed, not left */
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	free(rows);

	/* read again: the same rows, the kept lines kept once, nothing bad */
	assert_int_equal(alarm_store_load(&st, &rows, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_int_equal(bad, 0);
	assert_int_equal(alarm_store_save(&st, &set, why, sizeof(why)), 0);
	char *again = read_file();
	const char *first = strstr(again, "# not loaded (line 6");
	assert_non_null(first);
	assert_null(strstr(first + 1, "# not loaded (line 6"));
	free(rows);
	alarm_set_free(&set);
	alarm_store_free(&st);
}

static void missing_and_unreadable(void **state)
{
	struct alarm_store st;
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	char why[256];
	(void)state;
	assert_int_equal(alarm_store_init(&st, path), 0);
	assert_int_equal(alarm_store_load(&st, &rows, &n, &bad), 0);
	assert_int_equal(n, 0);			/* none yet */
	assert_int_equal(mkdir(path, 0700), 0); /* a directory: unreadable */
	assert_int_equal(alarm_store_load(&st, &rows, &n, &bad), -1);
	assert_int_equal(alarm_store_save(&st, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "could not be read at the last load"));
	alarm_store_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(rows_and_bad_lines, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(missing_and_unreadable, setup,
					    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
