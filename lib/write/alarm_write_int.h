/* alarm_write_int.h - what alarm_write.c and alarm_write_check.c share. */
#ifndef HWR10K_ALARM_WRITE_INT_H
#define HWR10K_ALARM_WRITE_INT_H

#include "agentx/agentx_pdu.h"
#include "write/alarm_txn.h"

/* What a request does to one row. */
struct aw_change {
	struct alarm_def def;  /* the row as it will be */
	struct alarm *was;     /* committed: the row as it was, for UndoSet */
	bool existed;	       /* the row is in the table now */
	bool destroy;	       /* destroy(6) */
	bool noop;	       /* destroy(6) of a row that is not there */
	bool redefined;	       /* a definition column is written */
	unsigned rs;	       /* the RowStatus written, 0: none */
	size_t first_vb;       /* the request's first varbind on the row */
	uint32_t vb[AC_MAX + 1]; /* by column: the varbind (from 1), 0: none */
};

/* The transaction of key, NULL if none. */
struct aw_txn *write_find(struct alarm_writer *w, struct aw_key key);
/* t's change of the row index, NULL if none (constant time). */
struct aw_change *write_change_of(const struct aw_txn *t, uint32_t index);
/* A new change of the row index in t (room for it was made). */
struct aw_change *write_change_add(struct aw_txn *t, uint32_t index);
/* Is the row in a transaction in progress other than self (NULL: any)? */
bool write_held(const struct alarm_writer *w, const struct aw_txn *self,
		uint32_t index);
/* One varbind (i: its position, from 1) into the change of its row in t:
 * noError, or this varbind's error (alarm_write_put.c). */
enum ax_error write_put_varbind(struct alarm_writer *w, struct aw_txn *t,
				const struct aw_varbind *vb, size_t i);
/* TestSet's checks of vb[0..n) into t's changes: noError, or the error
 * and the varbind (from 1) at fault. */
enum ax_error write_check(struct alarm_writer *w, struct aw_txn *t,
			  const struct aw_varbind *vb, size_t n, size_t *bad);

#endif
