/* test_alarm_store_rows.c - the file of nonVolatile alarm rows
 * (lib/write/alarm_store.c): rows read back, every bad line reported by
 * FILE: line N, counted and kept as a comment across rewrites, the write
 * atomic (no temporary left, the directory synced), the longest line, the
 * one rule and the names, the words of the store and the log. */
#include "alarm_store_fixture.h"

int __real_fsync(int fd);
int __wrap_fsync(int fd);
static int dir_syncs; /* fsync()s of a directory */

int __wrap_fsync(int fd)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		dir_syncs++;
	return __real_fsync(fd);
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
	assert_int_equal(write_store_init(&st, path, (uid_t)-1), 0);
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), 0);
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
	snprintf(want, sizeof(want),
		 "%s: line 7: alarm: the falling threshold must be below", path);
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
	dir_syncs = 0;
	assert_int_equal(write_store_save(&st, &set, why, sizeof(why)), 0);
	/* the rename made durable: its directory synced once */
	assert_int_equal(dir_syncs, 1);
	char *f = read_file();
	assert_non_null(strstr(f, "\nalarmRow 1025 active nonVolatile hot "
				  "hw.r10kevctr.cycles sum rate 100 50 "
				  "both -\n"));
	assert_non_null(strstr(f, "\nalarmRow 1026 notInService nonVolatile "
				  "odd stat.ipc 3 absolute 5 9 rising -\n"));
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
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_int_equal(bad, 0);
	assert_int_equal(write_store_save(&st, &set, why, sizeof(why)), 0);
	char *again = read_file();
	const char *first = strstr(again, "# not loaded (line 6");
	assert_non_null(first);
	assert_null(strstr(first + 1, "# not loaded (line 6"));
	free(rows);
	alarm_set_free(&set);
	write_store_free(&st);
}

/* A line of PARSE_LINE_MAX bytes (its newline aside) is read; one byte
 * more is "line too long", kept for the operator, the next line read. */
static void line_of_the_most_bytes(void **state)
{
	struct alarm_store st;
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	static char text[3 * PARSE_LINE_MAX];
	const char *row[] = {"alarmRow 1025 active nonVolatile a "
			     "hw.r10kevctr.cycles sum rate 100 50 both",
			     "alarmRow 1026 active nonVolatile b "
			     "hw.r10kevctr.cycles sum rate 100 50 both"};
	(void)state;
	/* the same row padded with blanks to 1024 and to 1025 bytes */
	snprintf(text, sizeof(text), "%-*s\n%-*s\n", PARSE_LINE_MAX, row[0],
		 PARSE_LINE_MAX + 1, row[1]);
	write_file(text);
	assert_int_equal(write_store_init(&st, path, (uid_t)-1), 0);
	assert_int_equal(write_store_load(&st, NULL, 0, &rows, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].index, 1025);
	assert_int_equal(bad, 1);
	char want[256];
	snprintf(want, sizeof(want), "%s: line 2: line too long (1025 bytes)",
		 path);
	assert_logged(want);
	free(rows);
	write_store_free(&st);
}

static void one_rule_and_names(void **state)
{
	struct alarm_store st;
	struct alarm_def *rows;
	size_t n;
	unsigned bad;
	struct alarm_config cfg[1];
	char err[256], text[512], want[320];
	(void)state;
	assert_int_equal(alarm_config_parse("hot hw.r10kevctr.tlb sum rate 10 "
					    "5",
					    &cfg[0], err, sizeof(err)),
			 0);
	snprintf(text, sizeof(text),
		 "alarmRow 1025 notInService nonVolatile ipc stat.ipc sum "
		 "rate 10 5 both\n"
		 "alarmRow 1026 active nonVolatile hot hw.r10kevctr.cycles "
		 "sum rate 10 5 both ops%%20desk\n"
		 "alarmRow 1027 active nonVolatile old hw.r10kevctr.cycles "
		 "sum rate 10 5 both\n"
		 "alarmRow 1028 active nonVolatile n%cl hw.r10kevctr.cycles "
		 "sum rate 10 5 both\n"
		 "alarmRow 1029 active nonVolatile own hw.r10kevctr.cycles "
		 "sum rate 10 5 both ops%%2\n",
		 'x');
	write_file(text);
	/* a NUL byte in line 4 */
	FILE *f = fopen(path, "r+");
	fseek(f, (long)(strstr(text, "n" "x" "l") - text) + 1, SEEK_SET);
	fputc('\0', f);
	fclose(f);
	assert_int_equal(write_store_init(&st, path, (uid_t)-1), 0);
	assert_int_equal(write_store_load(&st, cfg, 1, &rows, &n, &bad), 0);
	assert_int_equal(bad, 4);
	assert_int_equal(n, 1); /* 0.1.0's line without an owner */
	assert_int_equal(rows[0].index, 1027);
	assert_string_equal(rows[0].owner, "");
	snprintf(want, sizeof(want),
		 "%s: line 1: alarm: a statistic is already per poll "
		 "interval",
		 path);
	assert_logged(want);
	snprintf(want, sizeof(want),
		 "%s: line 2: name 'hot' is the config file's alarm 1, "
		 "which wins",
		 path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 4: a NUL byte in the line",
		 path);
	assert_logged(want);
	snprintf(want, sizeof(want), "%s: line 5: bad owner 'ops%%2'", path);
	assert_logged(want);
	free(rows);
	write_store_free(&st);
}

/* The words of the store and the log: every StorageType and RowStatus
 * by its SMI name (RFC 2579), NULL for a number that is none; an owner
 * as one word and back, the characters that cannot stand in a word as
 * %XX, a lone "-" (the empty owner's word) too. */
static void words(void **state)
{
	(void)state;
	static const char *const storage[] = {NULL, "other", "volatile",
					       "nonVolatile", "permanent",
					       "readOnly", NULL};
	for (int s = 0; s <= 6; s++) {
		const char *got = write_format_storage((enum alarm_storage)s);
		if (storage[s])
			assert_string_equal(got, storage[s]);
		else
			assert_null(got);
	}
	assert_null(write_format_row_status((enum alarm_row)0));
	assert_string_equal(write_format_row_status(ROW_ACTIVE), "active");
	assert_string_equal(write_format_row_status(ROW_NOT_IN_SERVICE), "notInService");
	assert_string_equal(write_format_row_status(ROW_NOT_READY), "notReady");
	assert_null(write_format_row_status((enum alarm_row)4));

	static const struct {
		const char *owner, *word;
	} owners[] = {
	    {"", "-"},		{"-", "%2D"},	      {"-x", "-x"},
	    {"x-", "x-"},	{"a b", "a%20b"},     {"50%", "50%25"},
	    {"~!", "~!"},	{"tab\there", "tab%09here"}, {"\x7f", "%7F"},
	};
	char word[3 * ALARM_OWNER_MAX + 4], back[ALARM_OWNER_MAX + 1];
	for (size_t i = 0; i < sizeof(owners) / sizeof(*owners); i++) {
		write_format_owner(owners[i].owner, word, sizeof(word));
		assert_string_equal(word, owners[i].word);
		int rc = write_parse_owner(word, back, sizeof(back));
		/* a control character is no DisplayString: not read back */
		if (strpbrk(owners[i].owner, "\t\x7f")) {
			assert_int_equal(rc, -1);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_string_equal(back, owners[i].owner);
	}
	assert_int_equal(write_parse_owner("50%", back, sizeof(back)), -1);
	assert_int_equal(write_parse_owner("%2", back, sizeof(back)), -1);
	assert_int_equal(write_parse_owner("%zz", back, sizeof(back)), -1);
	assert_int_equal(write_parse_owner("abc", back, 3), -1); /* no room */
	assert_int_equal(write_parse_owner("ab", back, 3), 0);
	assert_string_equal(back, "ab");
	/* a buffer too short: cut before an escape could be, never inside
	 * one (room for "%XX" and the NUL is kept) */
	char small[8];
	write_format_owner("abcdefgh", small, sizeof(small));
	assert_string_equal(small, "abcd");
	write_format_owner("ab%c", small, sizeof(small));
	assert_string_equal(small, "ab%25");
	write_format_owner("abc", small, 4);
	assert_string_equal(small, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(words),
	    cmocka_unit_test_setup_teardown(rows_and_bad_lines, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(line_of_the_most_bytes, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(one_rule_and_names, setup,
					    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
