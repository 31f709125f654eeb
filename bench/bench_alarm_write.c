/*
 * bench_alarm_write.c - what a large set costs the alarm table's writer
 * (lib/write/alarm_write*.c), which runs on the main loop: while it works, no
 * request is answered and no poll runs.
 *
 * Times one TestSet + CommitSet of N createAndWait varbinds (default
 * 20000) on a table of R rows created before (default 0, 20000 and the
 * default limit's 100), as notReady rows (which the store does not
 * keep: nothing is written).  Linear in
 * N + R is the goal (issue 37: quadratic before, 3.9 s for 20,000 on an
 * empty table, 19.6 s with 20,000 rows).
 *
 * usage: bench_alarm_write [N [R...]]        (see bench/README.md)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "write/alarm_write.h"
#include "util/log.h"

/* The writer logs each row: not part of what is timed here. */
static void quiet(int priority, const char *msg)
{
	(void)priority;
	(void)msg;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One set of n createAndWait volatile rows from index first: its time. */
static double one_set(struct alarm_writer *w, uint32_t txn, unsigned first,
		      size_t n)
{
	struct aw_varbind *vb = calloc(n, sizeof(*vb));
	struct aw_key key = {1, txn};
	size_t bad = 0;

	if (!vb) {
		fprintf(stderr, "bench_alarm_write: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		vb[i] = (struct aw_varbind){.column = AC_ROW_STATUS,
					    .index = first + i,
					    .num = AW_RS_CREATE_AND_WAIT};
	double t0 = now();
	enum ax_error e = write_test_set(w, key, vb, n, &bad);
	if (e == AX_ERR_NOERROR)
		e = write_commit_set(w, key);
	double t = now() - t0;
	write_cleanup_set(w, key);
	free(vb);
	if (e != AX_ERR_NOERROR) {
		fprintf(stderr, "bench_alarm_write: error %d at varbind %zu\n",
			e, bad);
		exit(1);
	}
	return t;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
	unsigned long rows[8] = {0, 100, 20000};
	int nrows = 3;

	util_log_set(quiet);
	if (argc > 2)
		for (nrows = 0; nrows + 2 < argc && nrows < 8; nrows++)
			rows[nrows] = strtoul(argv[nrows + 2], NULL, 10);
	printf("%-8s %-8s %10s %12s\n", "varbinds", "rows", "TestSet+Commit",
	       "per varbind");
	for (int k = 0; k < nrows; k++) {
		struct alarm_set set = {0};
		struct alarm_writer w;
		const struct alarm_writer_env env = {.enabled = true,
						     .max_rows = 64511};
		write_init(&w, &set, &env);
		if (rows[k] + n > 64511) {
			fprintf(stderr, "bench_alarm_write: %lu + %zu rows: "
					"more than 64511\n",
				rows[k], n);
			return 1;
		}
		if (rows[k])
			one_set(&w, 1, 1025, rows[k]);
		double t = one_set(&w, 2, 1025 + (unsigned)rows[k], n);
		printf("%-8zu %-8lu %12.3f s %10.2f us\n", n, rows[k], t,
		       t / (double)n * 1e6);
		write_forget_sets(&w);
		alarm_set_free(&set);
	}
	return 0;
}
