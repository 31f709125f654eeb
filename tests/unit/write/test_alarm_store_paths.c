/* test_alarm_store_paths.c - where the alarm store is written
 * (lib/write/alarm_store.c): a path at PATH_MAX's limit, a missing or
 * unreadable file (never written over), symlinks never followed. */
#include "alarm_store_fixture.h"

/* A store path whose temporary file's name (PATH.tmp) would not fit
 * PATH_MAX's 4096 bytes with its NUL is refused as too long, never cut:
 * 4091 bytes make a 4095-byte name (it fits), 4092 one of 4096. */
static void path_at_the_limit(void **state)
{
	struct alarm_store st;
	struct alarm_set set = {0};
	static char why[8192], p[4200];
	(void)state;
	for (size_t len = 4091; len <= 4092; len++) {
		memset(p, 'd', len);
		p[0] = '/';
		p[len] = '\0';
		assert_int_equal(write_store_init(&st, p, (uid_t)-1), 0);
		why[0] = '\0';
		assert_int_equal(write_store_save(&st, &set, why, sizeof(why)),
				 -1);
		if (len == 4092)
			assert_non_null(strstr(why, "path too long"));
		else
			assert_null(strstr(why, "path too long"));
		write_store_free(&st);
	}
}

static void missing_and_unreadable(void **state)
{
	struct alarm_store st;
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	char why[256];
	(void)state;
	assert_int_equal(write_store_init(&st, path, (uid_t)-1), 0);
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), 0);
	assert_int_equal(n, 0);			/* none yet */
	assert_int_equal(mkdir(path, 0700), 0); /* a directory: unreadable */
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), -1);
	assert_int_equal(write_store_save(&st, NULL, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "could not be read at the last load"));
	write_store_free(&st);
}

/* A file the agent must never read through, nor write through. */
static const char *secret(void)
{
	static char p[160];
	snprintf(p, sizeof(p), "%s/secret", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("alarmRow 1025 active nonVolatile stolen hw.r10kevctr.cycles "
	      "sum rate 10 5 both\n",
	      f);
	fclose(f);
	return p;
}

static void symlinks(void **state)
{
	struct alarm_store st;
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	char why[256], tmp[160], want[512];
	(void)state;
	/* the store a symlink (to a root file, say): not followed, not
	 * loaded, never written over */
	assert_int_equal(symlink(secret(), path), 0);
	assert_int_equal(write_store_init(&st, path, (uid_t)-1), 0);
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), -1);
	assert_int_equal(n, 0);
	snprintf(want, sizeof(want),
		 "%s: cannot read the alarm rows: a symlink, not followed",
		 path);
	assert_logged(want);
	assert_int_equal(write_store_save(&st, NULL, why, sizeof(why)), -1);
	unlink(path);
	/* a symlink planted at the temporary file: removed, not followed */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(symlink(secret(), tmp), 0);
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), 0);
	assert_int_equal(write_store_save(&st, NULL, why, sizeof(why)), 0);
	struct stat sb;
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_not_equal(lstat(tmp, &sb), 0);
	FILE *f = fopen(secret(), "r");
	char line[256];
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_non_null(strstr(line, "stolen")); /* untouched */
	/* and said in the log, with its path and where it pointed */
	snprintf(want, sizeof(want),
		 "alarm store: %s was a symlink (to %s), planted where the "
		 "store writes its temporary file: removed, not followed\n",
		 tmp, secret());
	assert_logged_at(LOG_WARNING, want);
	/* a file of another user: not loaded */
	write_store_free(&st);
	assert_int_equal(write_store_init(&st, path, geteuid() + 1), 0);
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), -1);
	assert_logged("not by the agent's user");
	write_store_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(path_at_the_limit),
	    cmocka_unit_test_setup_teardown(missing_and_unreadable, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(symlinks, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
