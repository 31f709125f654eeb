/*
 * alarm_txn.h - the writer of the alarm table and its sets in progress:
 * the types lib/write/alarm_write.c (the phases) and
 * lib/write/alarm_write_check.c (TestSet's checks) share, so that neither
 * needs the other's header.
 */
#ifndef HWR10K_ALARM_TXN_H
#define HWR10K_ALARM_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alarm/alarm.h"
#include "write/alarm_store.h"

/* hwR10kEvCtrAlarmEntry's writable columns (lib/tables/objects.def). */
enum alarm_column {
	AC_NAME = 2,
	AC_METRIC = 3,
	AC_SCOPE = 4,
	AC_CPU = 5,
	AC_SAMPLE_TYPE = 6,
	AC_STARTUP = 9,
	AC_RISING_LOW = 17,
	AC_RISING_HIGH = 18,
	AC_FALLING_LOW = 19,
	AC_FALLING_HIGH = 20,
	AC_STORAGE = 21,
	AC_ROW_STATUS = 22,
	AC_OWNER = 23,
	AC_MAX = 23
};

/* RowStatus values a manager writes (RFC 2579). */
enum {
	AW_RS_ACTIVE = 1,
	AW_RS_NOT_IN_SERVICE = 2,
	AW_RS_NOT_READY = 3,
	AW_RS_CREATE_AND_GO = 4,
	AW_RS_CREATE_AND_WAIT = 5,
	AW_RS_DESTROY = 6
};

/* One varbind of a set: the column and the row index (as in the OID),
 * and its value, already of the column's SMI type (agentx_write.c
 * answers wrongType otherwise): num for the numbers (an Integer32 sign
 * extended), str/len for a DisplayString. */
struct aw_varbind {
	unsigned column;
	uint64_t index;
	int64_t num;
	const char *str;
	size_t len;
};

/* A transaction: the master's session and transaction IDs. */
struct aw_key {
	uint32_t session, transaction;
};

struct alarm_writer_env {
	bool enabled;	   /* alarmSet yes */
	unsigned max_rows; /* rows created over SNMP, at most */
	/* a notReady row older than this (seconds) is removed, as RFC 2579
	 * advises; 0: never */
	unsigned not_ready_max_age;
	/* seconds on a monotonic clock; NULL: always 0 (the tests' own
	 * clock comes in here) */
	uint64_t (*clock)(void *ctx);
	void *ctx;
	/* Where a committed change that touches a kept row is written
	 * (write_store_save: the file rewritten whole; a save that fails
	 * fails the commit).  The agent's, opened and loaded by it (its
	 * state directory, the file's owner); NULL: nothing is kept. */
	struct alarm_store *store;
};

#define AW_TXN_MAX 4 /* transactions between TestSet and CleanupSet */

struct aw_change; /* alarm_write.c's */

/* A transaction from its TestSet to its CleanupSet or UndoSet (net-snmp's
 * master sends no CleanupSet after an UndoSet: the UndoSet ends it). */
struct aw_txn {
	bool used, committed;
	struct aw_key key;
	struct aw_change *ch; /* one per row the request touches */
	size_t nch;
	uint32_t *slot; /* the changes by row index: an open hash, pos + 1 */
	size_t nslot;	/* a power of two, at least twice the changes */
};

struct alarm_writer {
	struct alarm_set *set; /* the table served and evaluated */
	struct alarm_writer_env env;
	struct aw_txn txn[AW_TXN_MAX];
};

#endif
