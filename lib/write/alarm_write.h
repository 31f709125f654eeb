/*
 * alarm_write.h - the one write path of the alarm table: SNMP sets in
 * RFC 2741's phases (7.2.4), with RFC 2579's RowStatus and StorageType
 * and RFC 3416's error for each bad varbind.  No AgentX types: the
 * varbinds come in as columns and values (lib/write/agentx_write.c makes them
 * from a TestSet), so every rule is tested in-process.
 *
 * TestSet checks every varbind of the request together against the
 * table as it will be, and locks the rows it touches: a second request
 * on a locked row gets resourceUnavailable until the first one's
 * CleanupSet.  CommitSet builds the new table aside and swaps it in
 * whole (all or nothing), then saves it itself (write_store_save on the
 * store env.store names; a save that fails fails the commit, the table
 * unchanged); UndoSet swaps the old table
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

#include "agentx/agentx_pdu.h"
#include "alarm/alarm.h"
#include "write/alarm_txn.h"

void write_init(struct alarm_writer *w, struct alarm_set *set,
		const struct alarm_writer_env *env);
/* TestSet: noError, or the error and the varbind (from 1) at fault. */
enum ax_error write_test_set(struct alarm_writer *w, struct aw_key key,
			 const struct aw_varbind *vb, size_t n, size_t *bad);
/* CommitSet, UndoSet: noError, commitFailed, undoFailed. */
enum ax_error write_commit_set(struct alarm_writer *w, struct aw_key key);
enum ax_error write_undo_set(struct alarm_writer *w, struct aw_key key);
/* CleanupSet: the transaction ends (unknown keys are ignored). */
void write_cleanup_set(struct alarm_writer *w, struct aw_key key);
/* Forget every transaction (the master went away, the table was
 * rebuilt): committed changes stand. */
void write_forget_sets(struct alarm_writer *w);

/* Remove the notReady rows older than env.not_ready_max_age that no set
 * in progress holds (RFC 2579: an unfinished row is deleted after some
 * minutes), each logged; the number removed, -1 out of memory. */
int write_expire_not_ready(struct alarm_writer *w);

/* A row as one line of words (the store's format, the log's):
 * "INDEX STATUS STORAGE NAME METRIC SCOPE TYPE RISING FALLING STARTUP
 * OWNER"; an unset metric or rising threshold is "-"; OWNER as
 * write_format_owner writes it. */
void write_format_def(const struct alarm_def *d, char *buf, size_t len);
/* An OwnerString as one word: "-" when empty, every byte outside
 * '!'..'~', '%' and a lone "-" as %XX (buf: 3 * ALARM_OWNER_MAX + 4). */
void write_format_owner(const char *owner, char *buf, size_t len);
/* The word back into owner (len >= ALARM_OWNER_MAX + 1); -1 if it is
 * not one write_format_owner writes (a bad %, a control byte, too long). */
int write_parse_owner(const char *word, char *owner, size_t len);
/* "active", "volatile"... ; NULL if not a value of the type */
const char *write_format_row_status(enum alarm_row r);
const char *write_format_storage(enum alarm_storage s);

#endif
