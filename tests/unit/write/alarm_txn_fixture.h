/*
 * alarm_txn_fixture.h - what the tests around a commit of the alarm table
 * (test_alarm_txn_commit.c, test_alarm_txn_rows.c) add to alarm_fixture.h:
 * a set committed without its end, an active row, and the check that the
 * store holds exactly the table's nonVolatile rows.
 */
#ifndef HWR10K_ALARM_TXN_FIXTURE_H
#define HWR10K_ALARM_TXN_FIXTURE_H

#include "alarm_fixture.h"

#define ROW(i) "alarmRow " #i " "

/* TestSet and CommitSet of transaction txn, without its end. */
static inline void committed(uint32_t txn, const struct vb *v, size_t n)
{
	uint16_t idx;
	assert_int_equal(phase(AX_PDU_TESTSET, txn, v, n, &idx), 0);
	assert_int_equal(phase(AX_PDU_COMMITSET, txn, NULL, 0, &idx), 0);
}
#define COMMITTED(txn, ...)                                                    \
	committed(txn, (struct vb[]){__VA_ARGS__},                             \
		  sizeof((struct vb[]){__VA_ARGS__}) / sizeof(struct vb))

/* An active nonVolatile row at index, named name. */
static inline void active_row(uint32_t txn, unsigned index, const char *name)
{
	uint16_t idx;
	assert_int_equal(set_(txn,
			      (struct vb[]){
				  S(AC_NAME, index, name),
				  S(AC_METRIC, index, "hw.r10kevctr.cycles"),
				  U(AC_RISING_LOW, index, 10),
				  I(AC_ROW_STATUS, index, AW_RS_CREATE_AND_GO)},
			      4, &idx),
			 AX_ERR_NOERROR);
}

/* The store holds exactly the table's nonVolatile rows (not notReady). */
static inline void store_is_table(void)
{
	char *f = file(), line[768], want[800];
	size_t rows = 0;
	for (size_t i = 0; i < set.count; i++) {
		const struct alarm *a = &set.alarm[i];
		if (a->storage != STORAGE_NONVOLATILE || a->row == ROW_NOT_READY)
			continue;
		struct alarm_def d = alarm_def_of(a);
		write_format_def(&d, line, sizeof(line));
		snprintf(want, sizeof(want), "\nalarmRow %s\n", line);
		if (!strstr(f, want))
			fail_msg("row %u not stored as '%s':\n%s", a->index,
				 line, f);
		rows++;
	}
	size_t lines = 0;
	for (const char *p = f; (p = strstr(p, "\nalarmRow ")); p++)
		lines++;
	assert_int_equal(lines, rows);
}

#endif
