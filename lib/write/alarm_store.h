/*
 * alarm_store.h - the alarm rows created over SNMP with StorageType
 * nonVolatile, kept in one file (in net-snmp's persistent directory: the
 * agent picks it, doc/alarms.md) and read back at start and at a reload
 * (agent/alarms.c); the writer saves each committed change to it
 * (lib/write/alarm_write.c: the agent hands the store over once).
 *
 * One line per row, in the words of a config 'alarm' line after its
 * index, status and storage, and its owner last (write_format_owner):
 *     alarmRow INDEX STATUS nonVolatile NAME METRIC SCOPE TYPE RISING
 *              FALLING STARTUP OWNER
 * (a line without OWNER, as 0.1.0 wrote them, has an empty owner).  The
 * file is rewritten whole at every change: a new temporary file beside
 * it (created exclusively, never through a symlink), flushed to disk,
 * then renamed over it, so a crash leaves the old file or the new one,
 * never half of one.  A line that cannot be loaded
 * (hand-edited, damaged) is logged with FILE: line N and the reason,
 * counted, and kept in the file as a comment ("# not loaded ..."), so
 * that no row written is ever lost silently; the good rows load.
 */
#ifndef HWR10K_ALARM_STORE_H
#define HWR10K_ALARM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "alarm/alarm.h"

struct alarm_store {
	char *path;
	/* the user the file must belong to (the agent's, after -u); read
	 * as root before privileges drop, a file of anyone else is refused */
	uid_t owner;
	char **kept; /* lines not loaded, rewritten as they are */
	size_t nkept;
	bool unreadable; /* the last load could not read it: never written */
};

/* Does the store keep a row of this storage and status?  nonVolatile
 * rows that are active or notInService (a notReady row is never kept). */
static inline bool write_store_keeps(enum alarm_storage s, enum alarm_row r)
{
	return s == STORAGE_NONVOLATILE && r != ROW_NOT_READY;
}

/* -1 when out of memory.  The file must be owner's ((uid_t)-1: the
 * effective user's). */
int write_store_init(struct alarm_store *st, const char *path, uid_t owner);
void write_store_free(struct alarm_store *st);

/*
 * The rows of the file into *rows (malloc'ed, *n of them; a missing file
 * has none) and the lines it could not load counted in *bad: a line
 * against the one validity rule (alarm_def_flaw) for its status, and a
 * row whose name is one of the config file's alarms (cfgs: the config
 * file wins; the row stays in the file as a "# not loaded" comment).
 * The file is opened without following a symlink and must be a regular
 * file of st->owner.  -1 (logged) when it is there but cannot be read:
 * nothing is loaded, and nothing will be written over it.
 */
int write_store_load(struct alarm_store *st, const struct alarm_config *cfgs,
		     size_t ncfg, struct alarm_def **rows, size_t *n,
		     unsigned *bad);
/* The set's nonVolatile rows that are active or notInService, written
 * atomically; -1 with the reason in why. */
int write_store_save(struct alarm_store *st, const struct alarm_set *set,
		     char *why, size_t len);

#endif
