/* alarm_write.c - TestSet, CommitSet, UndoSet, CleanupSet on the alarm
 * table (alarm_write.h); the checks of a request are alarm_write_check.c's. */
#include "alarm_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alarm_write_int.h"
#include "log.h"

void alarm_writer_init(struct alarm_writer *w, struct alarm_set *set,
		       const struct alarm_writer_env *env)
{
	memset(w, 0, sizeof(*w));
	w->set = set;
	w->env = *env;
}

struct aw_txn *aw_find(struct alarm_writer *w, struct aw_key key)
{
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used && w->txn[i].key.session == key.session &&
		    w->txn[i].key.transaction == key.transaction)
			return &w->txn[i];
	return NULL;
}

static void txn_free(struct aw_txn *t)
{
	alarm_set_free(&t->before);
	free(t->ch);
	memset(t, 0, sizeof(*t));
}

enum ax_error alarm_write_test(struct alarm_writer *w, struct aw_key key,
			       const struct aw_varbind *vb, size_t n,
			       size_t *bad)
{
	*bad = 0;
	if (!w->env.enabled) {
		*bad = n ? 1 : 0;
		return AX_ERR_NOTWRITABLE; /* alarmSet no: as read-only */
	}
	struct aw_txn *t = aw_find(w, key);
	if (t) /* the same transaction tested again: it starts over */
		txn_free(t);
	for (size_t i = 0; !t && i < AW_TXN_MAX; i++)
		if (!w->txn[i].used)
			t = &w->txn[i];
	if (!t || !(t->ch = calloc(n ? n : 1, sizeof(*t->ch)))) {
		hwr_log(LOG_WARNING,
			"alarm table: a set (AgentX session %u, transaction "
			"%u) while %d others are in progress: "
			"resourceUnavailable\n",
			key.session, key.transaction, AW_TXN_MAX);
		if (t)
			txn_free(t);
		*bad = n ? 1 : 0;
		return AX_ERR_RESOURCEUNAVAILABLE;
	}
	t->key = key;
	enum ax_error e = aw_check(w, t, vb, n, bad);
	if (e != AX_ERR_NOERROR) {
		txn_free(t);
		return e;
	}
	t->used = true;
	return AX_ERR_NOERROR;
}

/* The table with t's changes: every row as a definition, the state of
 * what did not change kept (alarm_set_build_rows). */
static int build(const struct alarm_set *cur, const struct aw_txn *t,
		 struct alarm_set *out)
{
	struct alarm_def *d = calloc(cur->count + t->nch + 1, sizeof(*d));
	size_t n = 0;

	if (!d)
		return -1;
	for (size_t i = 0; i < cur->count; i++)
		if (!aw_change_of(t, cur->alarm[i].index))
			d[n++] = alarm_def_of(&cur->alarm[i]);
	for (size_t i = 0; i < t->nch; i++)
		if (!t->ch[i].destroy && !t->ch[i].noop)
			d[n++] = t->ch[i].def;
	int r = alarm_set_build_rows(out, NULL, 0, d, n, cur);
	free(d);
	return r;
}

/* Does t change a row the store keeps (nonVolatile before or after)? */
static bool touches_store(const struct alarm_set *cur, const struct aw_txn *t)
{
	for (size_t i = 0; i < t->nch; i++) {
		const struct aw_change *c = &t->ch[i];
		const struct alarm *a = alarm_set_find(cur, c->def.index);
		if ((a && a->storage == STORAGE_NONVOLATILE) ||
		    (!c->destroy && c->def.storage == STORAGE_NONVOLATILE))
			return true;
	}
	return false;
}

static int save(struct alarm_writer *w, const struct aw_txn *t,
		const struct alarm_set *cur, const struct alarm_set *next)
{
	char why[256] = "";
	if (!w->env.save || !touches_store(cur, t))
		return 0;
	if (w->env.save(w->env.ctx, next, why, sizeof(why)) == 0)
		return 0;
	hwr_log(LOG_ERR,
		"alarm table: the set of AgentX session %u, transaction %u "
		"is not applied: %s\n",
		t->key.session, t->key.transaction, why);
	return -1;
}

/* One log line per row the transaction changed. */
static void log_changes(const struct alarm_set *before, const struct aw_txn *t,
			const char *undone)
{
	char line[256];
	for (size_t i = 0; i < t->nch; i++) {
		const struct aw_change *c = &t->ch[i];
		const struct alarm *a = alarm_set_find(before, c->def.index);
		if (c->noop)
			continue;
		line[0] = '\0';
		if (!c->destroy)
			alarm_def_format(&c->def, line, sizeof(line));
		hwr_log(LOG_NOTICE,
			"alarm table: row %u %s%s over SNMP (AgentX session "
			"%u, transaction %u)%s%s\n",
			c->def.index,
			c->destroy ? "destroyed"
			: a	   ? "changed"
				   : "created",
			undone, t->key.session, t->key.transaction,
			c->destroy ? "" : ": ", c->destroy ? "" : line);
	}
}

enum ax_error alarm_write_commit(struct alarm_writer *w, struct aw_key key)
{
	struct aw_txn *t = aw_find(w, key);
	struct alarm_set next;

	if (!t || t->committed) {
		hwr_log(LOG_WARNING,
			"alarm table: a CommitSet for no tested set (AgentX "
			"session %u, transaction %u): commitFailed\n",
			key.session, key.transaction);
		return AX_ERR_COMMITFAILED;
	}
	if (build(w->set, t, &next) != 0) {
		hwr_log(LOG_ERR,
			"alarm table: out of memory; the set of "
			"AgentX session %u, transaction %u is not "
			"applied\n",
			key.session, key.transaction);
		return AX_ERR_COMMITFAILED;
	}
	if (save(w, t, w->set, &next) != 0) {
		alarm_set_free(&next);
		return AX_ERR_COMMITFAILED;
	}
	log_changes(w->set, t, "");
	t->before = *w->set;
	*w->set = next;
	t->committed = true;
	return AX_ERR_NOERROR;
}

enum ax_error alarm_write_undo(struct alarm_writer *w, struct aw_key key)
{
	struct aw_txn *t = aw_find(w, key);

	if (!t)
		return AX_ERR_UNDOFAILED;
	if (!t->committed) /* a commit that failed changed nothing */
		return AX_ERR_NOERROR;
	if (save(w, t, w->set, &t->before) != 0)
		return AX_ERR_UNDOFAILED;
	log_changes(&t->before, t, " and undone");
	alarm_set_free(w->set);
	*w->set = t->before;
	memset(&t->before, 0, sizeof(t->before));
	t->committed = false;
	return AX_ERR_NOERROR;
}

void alarm_write_cleanup(struct alarm_writer *w, struct aw_key key)
{
	struct aw_txn *t = aw_find(w, key);
	if (t)
		txn_free(t);
}

void alarm_write_reset(struct alarm_writer *w)
{
	for (size_t i = 0; i < AW_TXN_MAX; i++)
		if (w->txn[i].used)
			txn_free(&w->txn[i]);
}

const char *alarm_row_name(enum alarm_row r)
{
	return r == ROW_ACTIVE		 ? "active"
	       : r == ROW_NOT_IN_SERVICE ? "notInService"
	       : r == ROW_NOT_READY	 ? "notReady"
					 : NULL;
}

const char *alarm_storage_name(enum alarm_storage s)
{
	static const char *const names[] = {
	    NULL, "other", "volatile", "nonVolatile", "permanent", "readOnly"};
	return s >= STORAGE_OTHER && s <= STORAGE_READONLY ? names[s] : NULL;
}

void alarm_def_format(const struct alarm_def *d, char *buf, size_t len)
{
	const struct alarm_config *c = &d->cfg;
	char scope[16], rising[24];
	static const char *const startup[] = {"?", "rising", "falling", "both"};

	if (c->scope == SCOPE_CPU)
		snprintf(scope, sizeof(scope), "%u", c->cpu);
	else
		snprintf(scope, sizeof(scope), "%s",
			 c->scope == SCOPE_EACH_CPU ? "each" : "sum");
	snprintf(rising, sizeof(rising), "%llu", (unsigned long long)c->rising);
	const char *row = alarm_row_name(d->row);
	const char *st = alarm_storage_name(d->storage);
	snprintf(buf, len, "%u %s %s %s %s %s %s %s %llu %s", d->index,
		 row ? row : "?", st ? st : "?", c->name,
		 d->given & ALARM_GIVEN_METRIC ? c->metric : "-", scope,
		 c->type == TYPE_RATE ? "rate" : "absolute",
		 d->given & ALARM_GIVEN_RISING ? rising : "-",
		 (unsigned long long)c->falling,
		 startup[c->startup <= STARTUP_BOTH ? c->startup : 0]);
}
