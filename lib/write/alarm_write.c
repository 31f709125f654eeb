/* alarm_write.c - TestSet, CommitSet, UndoSet, CleanupSet on the alarm
 * table (alarm_write.h); the checks of a request are alarm_write_check.c's. */
#include "write/alarm_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "write/alarm_store.h"
#include "write/alarm_write_int.h"
#include "util/log.h"

void write_init(struct alarm_writer *w, struct alarm_set *set,
		const struct alarm_writer_env *env)
{
	memset(w, 0, sizeof(*w));
	w->set = set;
	w->env = *env;
}

static uint64_t now(const struct alarm_writer *w)
{
	return w->env.clock ? w->env.clock(w->env.ctx) : 0;
}

struct aw_txn *write_find(struct alarm_writer *w, struct aw_key key)
{
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used && w->txn[i].key.session == key.session &&
		    w->txn[i].key.transaction == key.transaction)
			return &w->txn[i];
	return NULL;
}

static void txn_free(struct aw_txn *t)
{
	for (size_t i = 0; i < t->nch; i++)
		if (t->ch[i].was) {
			free(t->ch[i].was->inst);
			free(t->ch[i].was);
		}
	free(t->ch);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Room for a request of n varbinds in a free transaction; NULL if none. */
static struct aw_txn *txn_new(struct alarm_writer *w, size_t n)
{
	struct aw_txn *t = NULL;
	for (size_t i = 0; !t && i < AW_TXN_MAX; i++)
		if (!w->txn[i].used)
			t = &w->txn[i];
	if (!t)
		return NULL;
	t->nslot = 4;
	while (t->nslot < 2 * n)
		t->nslot *= 2;
	t->ch = calloc(n ? n : 1, sizeof(*t->ch));
	t->slot = calloc(t->nslot, sizeof(*t->slot));
	if (!t->ch || !t->slot) {
		txn_free(t);
		return NULL;
	}
	return t;
}

enum ax_error write_test_set(struct alarm_writer *w, struct aw_key key,
			 const struct aw_varbind *vb, size_t n, size_t *bad)
{
	*bad = n ? 1 : 0;
	if (!w->env.enabled)
		return AX_ERR_NOTWRITABLE; /* alarmSet no: as read-only */
	struct aw_txn *t = write_find(w, key);
	if (t && t->committed) { /* its undo data stays */
		util_log(LOG_WARNING,
			 "alarm table: a TestSet for the committed set of "
			 "AgentX session %u, transaction %u: processingError\n",
			 key.session, key.transaction);
		return AX_ERR_PROCESSINGERROR;
	}
	if (t) /* the same transaction tested again: it starts over */
		txn_free(t);
	if (!(t = txn_new(w, n))) {
		util_log(LOG_WARNING,
			 "alarm table: a set (AgentX session %u, transaction "
			 "%u) while %d others are in progress: "
			 "resourceUnavailable\n",
			 key.session, key.transaction, AW_TXN_MAX);
		return AX_ERR_RESOURCEUNAVAILABLE;
	}
	t->key = key;
	t->used = true; /* write_check's name and limit checks count it */
	*bad = 0;
	enum ax_error e = write_check(w, t, vb, n, bad);
	if (e != AX_ERR_NOERROR)
		txn_free(t);
	return e;
}

/* Does t change a row the store keeps (before or after)? */
static bool touches_store(const struct aw_txn *t)
{
	for (size_t i = 0; i < t->nch; i++) {
		const struct aw_change *c = &t->ch[i];
		if ((c->was && write_store_keeps(c->was->storage, c->was->row)) ||
		    (!c->destroy && !c->noop &&
		     write_store_keeps(c->def.storage, c->def.row)))
			return true;
	}
	return false;
}

static int save(struct alarm_writer *w, const struct aw_txn *t,
		const struct alarm_set *next, const char *phase)
{
	char why[512] = "";
	if (!w->env.store || !touches_store(t))
		return 0;
	if (write_store_save(w->env.store, next, why, sizeof(why)) == 0)
		return 0;
	util_log(LOG_ERR,
		 "alarm table: the %s of AgentX session %u, transaction %u "
		 "failed, nothing changed: %s\n",
		 phase, t->key.session, t->key.transaction, why);
	return -1;
}

/* One log line per row the transaction changed. */
static void log_changes(const struct aw_txn *t, bool undone)
{
	char line[512];
	for (size_t i = 0; i < t->nch; i++) {
		const struct aw_change *c = &t->ch[i];
		if (c->noop)
			continue;
		line[0] = '\0';
		if (!c->destroy)
			write_format_def(&c->def, line, sizeof(line));
		util_log(LOG_NOTICE,
			 "alarm table: row %u %s%s over SNMP (AgentX session "
			 "%u, transaction %u)%s%s\n",
			 c->def.index,
			 c->destroy   ? "destroyed"
			 : c->existed ? "changed"
				      : "created",
			 undone ? " and undone" : "", t->key.session,
			 t->key.transaction, c->destroy ? "" : ": ",
			 c->destroy ? "" : line);
	}
}

static int by_edit_index(const void *x, const void *y)
{
	const struct alarm_edit *a = x, *b = y;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The table with t's changes (undo: without them) into next. */
static int apply(struct alarm_writer *w, const struct aw_txn *t, bool undo,
		 struct alarm_set *next)
{
	struct alarm_edit *e = calloc(t->nch ? t->nch : 1, sizeof(*e));
	size_t n = 0;
	uint64_t at = now(w);

	if (!e)
		return -1;
	for (size_t i = 0; i < t->nch; i++) {
		const struct aw_change *c = &t->ch[i];
		if (c->noop)
			continue;
		e[n] = (struct alarm_edit){.index = c->def.index, .now = at};
		if (!undo)
			e[n].def = c->destroy ? NULL : &c->def;
		else
			e[n].was = c->was; /* NULL: created by t, gone */
		n++;
	}
	qsort(e, n, sizeof(*e), by_edit_index);
	int r = alarm_set_edit(next, w->set, e, n);
	free(e);
	return r;
}

/* The rows t changes, as they are now, for an UndoSet. */
static int remember(struct alarm_writer *w, struct aw_txn *t)
{
	for (size_t i = 0; i < t->nch; i++) {
		struct aw_change *c = &t->ch[i];
		const struct alarm *a = alarm_set_find(w->set, c->def.index);
		if (c->was)
			free(c->was->inst);
		free(c->was);
		c->was = NULL;
		if (!c->existed || !a)
			continue;
		if (!(c->was = malloc(sizeof(*c->was))) ||
		    alarm_copy(c->was, a) != 0) {
			free(c->was);
			c->was = NULL;
			return -1;
		}
	}
	return 0;
}

enum ax_error write_commit_set(struct alarm_writer *w, struct aw_key key)
{
	struct aw_txn *t = write_find(w, key);
	struct alarm_set next;

	if (!t || t->committed) {
		util_log(LOG_WARNING,
			 "alarm table: a CommitSet for no tested set (AgentX "
			 "session %u, transaction %u): commitFailed\n",
			 key.session, key.transaction);
		return AX_ERR_COMMITFAILED;
	}
	if (remember(w, t) != 0 || apply(w, t, false, &next) != 0) {
		util_log(LOG_ERR,
			 "alarm table: out of memory; the set of "
			 "AgentX session %u, transaction %u is not "
			 "applied\n",
			 key.session, key.transaction);
		return AX_ERR_COMMITFAILED;
	}
	if (save(w, t, &next, "set") != 0) {
		alarm_set_free(&next);
		return AX_ERR_COMMITFAILED;
	}
	log_changes(t, false);
	alarm_set_free(w->set);
	*w->set = next;
	t->committed = true;
	return AX_ERR_NOERROR;
}

/* UndoSet ends the transaction: net-snmp's master sends no CleanupSet
 * after it (its subagent side frees the set at UndoSet too). */
enum ax_error write_undo_set(struct alarm_writer *w, struct aw_key key)
{
	struct aw_txn *t = write_find(w, key);
	struct alarm_set next;
	enum ax_error e = AX_ERR_NOERROR;

	if (!t) {
		util_log(LOG_WARNING,
			 "alarm table: an UndoSet for no set in progress "
			 "(AgentX session %u, transaction %u): undoFailed\n",
			 key.session, key.transaction);
		return AX_ERR_UNDOFAILED;
	}
	if (t->committed) { /* a commit that failed changed nothing */
		if (apply(w, t, true, &next) != 0) {
			util_log(LOG_ERR,
				 "alarm table: out of memory; the set "
				 "of AgentX session %u, transaction "
				 "%u is not undone\n",
				 key.session, key.transaction);
			e = AX_ERR_UNDOFAILED;
		} else if (save(w, t, &next, "undo") != 0) {
			alarm_set_free(&next);
			e = AX_ERR_UNDOFAILED;
		} else {
			log_changes(t, true);
			alarm_set_free(w->set);
			*w->set = next;
		}
	}
	txn_free(t);
	return e;
}

void write_cleanup_set(struct alarm_writer *w, struct aw_key key)
{
	struct aw_txn *t = write_find(w, key);
	if (t)
		txn_free(t);
}

void write_forget_sets(struct alarm_writer *w)
{
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used)
			txn_free(&w->txn[i]);
}

int write_expire_not_ready(struct alarm_writer *w)
{
	uint64_t at = now(w), max = w->env.not_ready_max_age;
	struct alarm_edit *e;
	struct alarm_set next;
	size_t n = 0;

	if (!max)
		return 0;
	for (size_t i = 0; i < w->set->count; i++) {
		const struct alarm *a = &w->set->alarm[i];
		n += a->row == ROW_NOT_READY &&
		     at - a->not_ready_since >= max &&
		     !write_held(w, NULL, a->index);
	}
	if (!n)
		return 0;
	if (!(e = calloc(n, sizeof(*e))))
		return -1;
	n = 0;
	for (size_t i = 0; i < w->set->count; i++) {
		const struct alarm *a = &w->set->alarm[i];
		if (a->row != ROW_NOT_READY || at - a->not_ready_since < max ||
		    write_held(w, NULL, a->index))
			continue;
		e[n++] = (struct alarm_edit){.index = a->index};
		util_log(
		    LOG_NOTICE,
		    "alarm table: row %u (%s) removed: notReady for %llu "
		    "s, more than alarmSetNotReadyTimeout %u s (RFC 2579)\n",
		    a->index, a->cfg.name,
		    (unsigned long long)(at - a->not_ready_since),
		    w->env.not_ready_max_age);
	}
	int r = alarm_set_edit(&next, w->set, e, n);
	free(e);
	if (r == 0) {
		alarm_set_free(w->set);
		*w->set = next;
	}
	return r == 0 ? (int)n : -1;
}
