/*
 * alarm_write.h - the one write path of the alarm table: SNMP sets in
 * RFC 2741's phases (7.2.4), with RFC 2579's RowStatus and StorageType
 * and RFC 3416's error for each bad varbind.  No AgentX types: the
 * varbinds come in as columns and values (lib/agentx_write.c makes them
 * from a TestSet), so every rule is tested in-process.
 *
 * TestSet checks every varbind of the request together against the
 * table as it will be, and locks the rows it touches: a second request
 * on a locked row gets resourceUnavailable until the first one's
 * CleanupSet.  CommitSet builds the new table aside and swaps it in
 * whole (all or nothing), then saves it (the store; a save that fails
 * fails the commit, the table unchanged); UndoSet swaps the old table
 * back; CleanupSet frees it.  Every row created, changed or destroyed is
 * logged with the AgentX session and transaction that did it.  The
 * rules, in doc/alarms.md: rows 1..1024 are the config file's (permanent:
 * notWritable); a manager creates rows above; an active row's definition
 * changes only with notInService in the same request or after it.
 */
#ifndef HWR10K_ALARM_WRITE_H
#define HWR10K_ALARM_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agentx_pdu.h"
#include "alarm.h"

/* hwR10kEvCtrAlarmEntry's writable columns (mib/objects.def). */
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
	AC_MAX = 22
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
	/* After a change: keep the table (the store); -1 with why fails the
	 * commit.  NULL: nothing is kept. */
	int (*save)(void *ctx, const struct alarm_set *set, char *why,
		    size_t len);
	void *ctx;
};

#define AW_TXN_MAX 4 /* transactions between TestSet and CleanupSet */

struct aw_change; /* alarm_write.c's */

struct aw_txn {
	bool used, committed;
	struct aw_key key;
	struct aw_change *ch; /* one per row the request touches */
	size_t nch;
	struct alarm_set before; /* while committed: for UndoSet */
};

struct alarm_writer {
	struct alarm_set *set; /* the table served and evaluated */
	struct alarm_writer_env env;
	struct aw_txn txn[AW_TXN_MAX];
};

void alarm_writer_init(struct alarm_writer *w, struct alarm_set *set,
		       const struct alarm_writer_env *env);
/* TestSet: noError, or the error and the varbind (from 1) at fault. */
enum ax_error alarm_write_test(struct alarm_writer *w, struct aw_key key,
			       const struct aw_varbind *vb, size_t n,
			       size_t *bad);
/* CommitSet, UndoSet: noError, commitFailed, undoFailed. */
enum ax_error alarm_write_commit(struct alarm_writer *w, struct aw_key key);
enum ax_error alarm_write_undo(struct alarm_writer *w, struct aw_key key);
/* CleanupSet: the transaction ends (unknown keys are ignored). */
void alarm_write_cleanup(struct alarm_writer *w, struct aw_key key);
/* Forget every transaction (the master went away, the table was
 * rebuilt): committed changes stand. */
void alarm_write_reset(struct alarm_writer *w);
/* Rows created over SNMP in the table. */
size_t alarm_rows_created(const struct alarm_set *set);

/* A row as one line of words (the store's format, the log's):
 * "INDEX STATUS STORAGE NAME METRIC SCOPE TYPE RISING FALLING STARTUP";
 * an unset metric or rising threshold is "-". */
void alarm_def_format(const struct alarm_def *d, char *buf, size_t len);
/* "active", "volatile"... ; NULL if not a value of the type */
const char *alarm_row_name(enum alarm_row r);
const char *alarm_storage_name(enum alarm_storage s);

#endif
