/* agentx_write.c - the set phases of a master's request (agentx_write.h). */
#include "write/agentx_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* The alarm table's column object of arc col; NULL if none.  Found
 * once per column (a TestSet may have thousands of varbinds). */
static const struct mib_object *alarm_column(unsigned long col)
{
	static const struct mib_object *column[AC_MAX + 1];
	static bool indexed;

	if (!indexed) {
		for (size_t i = 0; i < meta_objects_count; i++) {
			const struct mib_object *o = &meta_objects[i];
			unsigned arc = o->arcs[o->len - 1];
			if (o->table == TBL_ALARM && arc <= AC_MAX)
				column[arc] = o;
		}
		indexed = true;
	}
	return col <= AC_MAX ? column[col] : NULL;
}

/* Does name lie in the alarm table's entry (root, entry arcs)?  Then
 * *col and *idx (a row's one index arc, else idxlen != 1). */
static bool in_entry(const struct ax_oid *name, unsigned long *col,
		     unsigned long *idx, size_t *idxlen)
{
	const struct mib_object *any = alarm_column(2);
	size_t head = meta_root_len + any->len - 1; /* root + entry */
	if (name->len < head + 1)
		return false;
	for (size_t k = 0; k < head; k++) {
		unsigned long want = k < meta_root_len
					 ? meta_root[k]
					 : any->arcs[k - meta_root_len];
		if (name->sub[k] != want)
			return false;
	}
	*col = name->sub[head];
	*idxlen = name->len - head - 1;
	*idx = *idxlen ? name->sub[head + 1] : 0;
	return true;
}

/* One varbind of a TestSet into vb; an error for what is not a column
 * of the alarm table or not of the column's type. */
static enum ax_error varbind(const struct mib_view *view,
			     const struct ax_oid *name,
			     const struct ax_value_in *val, struct aw_varbind *vb)
{
	unsigned long col, idx;
	size_t idxlen;
	const struct mib_object *o;
	struct mib_value mv;

	if (!in_entry(name, &col, &idx, &idxlen)) {
		/* an object of ours that exists is read-only; anything
		 * else here could never be created */
		if (name->len <= MIBVIEW_OID_MAX &&
		    view_get(view, name->sub, name->len, &o, &mv) !=
			MV_NO_SUCH_OBJECT)
			return AX_ERR_NOTWRITABLE;
		return AX_ERR_NOCREATION;
	}
	o = alarm_column(col);
	if (!o || idxlen != 1)
		return AX_ERR_NOCREATION;
	memset(vb, 0, sizeof(*vb));
	vb->column = (unsigned)col;
	vb->index = idx;
	if (o->access != ACC_READ_CREATE)
		return AX_ERR_NOERROR; /* alarm_write says notWritable */
	if (val->type != meta_smi_type_wire[o->syntax])
		return AX_ERR_WRONGTYPE;
	if (o->syntax == SYN_OCTETS) {
		vb->str = (const char *)val->octets;
		vb->len = val->len;
	} else if (o->syntax == SYN_INTEGER32) {
		vb->num = (int32_t)val->u32;
	} else {
		vb->num = val->u32;
	}
	return AX_ERR_NOERROR;
}

static const char *error_name(enum ax_error e)
{
	switch (e) {
	case AX_ERR_WRONGTYPE:
		return "wrongType";
	case AX_ERR_WRONGLENGTH:
		return "wrongLength";
	case AX_ERR_WRONGVALUE:
		return "wrongValue";
	case AX_ERR_NOCREATION:
		return "noCreation";
	case AX_ERR_INCONSISTENTVALUE:
		return "inconsistentValue";
	case AX_ERR_RESOURCEUNAVAILABLE:
		return "resourceUnavailable";
	case AX_ERR_NOTWRITABLE:
		return "notWritable";
	case AX_ERR_INCONSISTENTNAME:
		return "inconsistentName";
	default:
		return "an error";
	}
}

/* The name of varbind k (from 1) of r: the column's descriptor and the
 * row, or the OID. */
static void varbind_name(const struct ax_request *r, size_t k, char *buf,
			 size_t len)
{
	unsigned long sub[AX_OID_MAX + 5], col, idx;
	struct ax_oid name = {0};
	size_t at = r->varbinds_at, idxlen;
	char why[160];

	snprintf(buf, len, "?");
	for (size_t i = 0; i < k; i++)
		if (ax_next_varbind_value(&r->h, r->payload, &at, &name, sub,
					  NULL, why, sizeof(why)) != 1)
			return;
	const struct mib_object *o =
	    in_entry(&name, &col, &idx, &idxlen) ? alarm_column(col) : NULL;
	if (o && idxlen == 1) {
		snprintf(buf, len, "%s.%lu", o->name, idx);
		return;
	}
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < name.len && n + 12 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, ".%lu", name.sub[i]);
}

/* A refused set is logged: the manager sees the error, the operator
 * sees which object and which request. */
static void log_refused(const struct ax_request *r, enum ax_error e, size_t bad)
{
	char name[200];
	varbind_name(r, bad, name, sizeof(name));
	util_log(LOG_INFO,
		 "alarm table: a set refused (AgentX session %u, transaction "
		 "%u): %s at varbind %zu, %s\n",
		 r->h.ids.session, r->h.ids.transaction, error_name(e), bad,
		 name);
}

/* TestSet: every varbind read, then checked together. */
static enum ax_error test(const struct mib_view *view, struct alarm_writer *w,
			  const struct ax_request *r, uint16_t *index)
{
	struct aw_varbind *vb =
	    w && w->env.enabled ? calloc(r->nvarbinds + 1, sizeof(*vb)) : NULL;
	unsigned long sub[AX_OID_MAX + 5];
	struct ax_oid name;
	struct ax_value_in val;
	size_t at = r->varbinds_at, n = 0, bad = 0;
	enum ax_error e = AX_ERR_NOERROR;
	char why[160];

	if (!w || !w->env.enabled) { /* a read-only module (alarmSet no) */
		*index = r->nvarbinds ? 1 : 0;
		return r->nvarbinds ? AX_ERR_NOTWRITABLE : AX_ERR_NOERROR;
	}
	if (!vb) {
		*index = r->nvarbinds ? 1 : 0;
		return AX_ERR_RESOURCEUNAVAILABLE;
	}
	while (e == AX_ERR_NOERROR &&
	       ax_next_varbind_value(&r->h, r->payload, &at, &name, sub, &val,
				     why, sizeof(why)) == 1 &&
	       n < r->nvarbinds) {
		e = varbind(view, &name, &val, &vb[n]);
		bad = ++n;
	}
	if (e == AX_ERR_NOERROR)
		e = write_test_set(
		    w, (struct aw_key){r->h.ids.session, r->h.ids.transaction},
		    vb, n, &bad);
	free(vb);
	if (e != AX_ERR_NOERROR)
		log_refused(r, e, bad);
	*index = e == AX_ERR_NOERROR ? 0 : (uint16_t)bad;
	return e;
}

bool write_answer_set(const struct mib_view *view, struct alarm_writer *w,
		      const struct ax_request *r, uint16_t *error,
		      uint16_t *index)
{
	struct aw_key key = {r->h.ids.session, r->h.ids.transaction};

	*error = AX_ERR_NOERROR;
	*index = 0;
	switch (r->h.type) {
	case AX_PDU_TESTSET:
		*error = test(view, w, r, index);
		return true;
	case AX_PDU_COMMITSET:
		*error = w ? write_commit_set(w, key) : AX_ERR_COMMITFAILED;
		return true;
	case AX_PDU_UNDOSET:
		*error = w ? write_undo_set(w, key) : AX_ERR_UNDOFAILED;
		return true;
	case AX_PDU_CLEANUPSET:
		if (w)
			write_cleanup_set(w, key);
		return false;
	default:
		return true;
	}
}
