/* ax_session_dispatch.c - the Response to a master's request
 * (ax_session_dispatch.h). */
#include "session/ax_session_dispatch.h"

#include "write/agentx_write.h"

#include <stdlib.h>
#include <string.h>

/* The answer to one SearchRange, into name/len and v: 0, or -1 for
 * endOfMibView. */
static int search(const struct mib_view *view, const struct ax_oid *start,
		  bool include, const struct ax_oid *end, unsigned long *name,
		  size_t *len, struct mib_value *v)
{
	const struct mib_object *o;

	if (include && start->len <= MIBVIEW_OID_MAX &&
	    view_get(view, start->sub, start->len, &o, v) == MV_OK) {
		memcpy(name, start->sub, start->len * sizeof(*name));
		*len = start->len;
	} else if (view_getnext(view, start->sub, start->len, name, len, &o,
				v) != MV_OK) {
		return -1;
	}
	if (end->len && view_oid_cmp(name, *len, end->sub, end->len) >= 0)
		return -1; /* beyond the range the master asked for */
	return 0;
}

static void answer_next(const struct mib_view *view, struct ax_buf *b,
			const struct ax_range *g)
{
	unsigned long name[MIBVIEW_OID_MAX];
	size_t len;
	struct mib_value v;

	if (search(view, &g->start, g->start.include, &g->end, name, &len,
		   &v) != 0)
		ax_exception(b, g->start.sub, g->start.len, AX_END_OF_MIB_VIEW);
	else
		view_varbind(b, name, len, &v);
}

static void answer_get(const struct mib_view *view, struct ax_buf *b,
		       const struct ax_range *g)
{
	const struct mib_object *o;
	struct mib_value v;

	switch (view_get(view, g->start.sub, g->start.len, &o, &v)) {
	case MV_OK:
		view_varbind(b, g->start.sub, g->start.len, &v);
		break;
	case MV_NO_SUCH_INSTANCE:
		ax_exception(b, g->start.sub, g->start.len,
			     AX_NO_SUCH_INSTANCE);
		break;
	default:
		ax_exception(b, g->start.sub, g->start.len, AX_NO_SUCH_OBJECT);
		break;
	}
}

/* Where a GetBulk repeater goes on from: its start OID (whole), then
 * its answers (at most MIBVIEW_OID_MAX long). */
struct cursor {
	struct ax_oid at, end;
	unsigned long name[MIBVIEW_OID_MAX];
	bool ended;
};

/* One row of the repeaters; false when every repeater is at
 * endOfMibView. */
static bool bulk_row(const struct mib_view *view, struct ax_buf *b,
		     struct cursor *c, size_t n)
{
	size_t ended = 0;

	for (size_t k = 0; k < n; k++) {
		unsigned long name[MIBVIEW_OID_MAX];
		size_t len = 0;
		struct mib_value v;
		if (c[k].ended || search(view, &c[k].at, c[k].at.include,
					 &c[k].end, name, &len, &v) != 0) {
			c[k].ended = true;
			ended++;
			ax_exception(b, c[k].at.sub, c[k].at.len,
				     AX_END_OF_MIB_VIEW);
		} else {
			view_varbind(b, name, len, &v);
			memcpy(c[k].name, name, len * sizeof(*name));
			c[k].at = (struct ax_oid){c[k].name, len, false};
		}
	}
	return ended < n;
}

/* GetBulk's repeaters g[0..n): up to max rows. */
static void answer_bulk(const struct mib_view *view, struct ax_buf *b,
			const struct ax_range *g, size_t n, long max)
{
	struct cursor *c = calloc(n, sizeof(*c));
	if (!c) {
		b->oom = true;
		return;
	}
	for (size_t k = 0; k < n; k++) {
		c[k].at = g[k].start;
		c[k].end = g[k].end;
	}
	if (max > AX_ANSWER_MAX_VARBINDS / (long)n)
		max = AX_ANSWER_MAX_VARBINDS / (long)n;
	for (long row = 0; row < max && bulk_row(view, b, c, n); row++)
		;
	free(c);
}

static void fill_read(const struct mib_view *view, struct ax_buf *b,
		      const struct ax_request *r)
{
	size_t nr = r->h.type != AX_PDU_GETBULK ? r->nranges
		    : r->non_repeaters < r->nranges ? r->non_repeaters
						    : r->nranges;
	for (size_t i = 0; i < nr; i++) {
		if (r->h.type == AX_PDU_GET)
			answer_get(view, b, &r->ranges[i]);
		else
			answer_next(view, b, &r->ranges[i]);
	}
	if (r->h.type == AX_PDU_GETBULK && nr < r->nranges &&
	    r->max_repetitions > 0)
		answer_bulk(view, b, r->ranges + nr, r->nranges - nr,
			    r->max_repetitions);
}

bool session_answer(const struct mib_view *v, struct alarm_writer *w,
		    const struct ax_request *r, uint32_t uptime,
		    struct ax_buf *b)
{
	uint16_t error = AX_ERR_NOERROR, index = 0;
	bool read = r->h.type == AX_PDU_GET || r->h.type == AX_PDU_GETNEXT ||
		    r->h.type == AX_PDU_GETBULK;

	if (r->has_context && r->h.type == AX_PDU_CLEANUPSET)
		return false;
	if (!read && !r->has_context &&
	    !write_answer_set(v, w, r, &error, &index))
		return false; /* CleanupSet */
	if (r->has_context) {
		error = AX_ERR_UNSUPPORTEDCONTEXT;
		read = false;
	}
	size_t start = b->len;
	ax_response(b, &r->h.ids, uptime, error, index);
	if (read)
		fill_read(v, b, r);
	if (b->oom) { /* the varbinds did not fit: genErr, none of them */
		b->len = start;
		b->oom = false;
		ax_response(b, &r->h.ids, uptime, AX_ERR_GENERR, 0);
	}
	return true;
}
