/*
 * fuzz_agentx.c - the bytes a master sends, through the agent's AgentX
 * path: framed into PDUs by the session's framer (ax_frame(): a header
 * that cannot be framed ends the stream), each request decoded
 * (lib/agentx/agentx_decode.c), answered from a populated cache
 * (lib/session/ax_session_dispatch.c) and encoded
 * (lib/agentx/agentx_encode.c).  All PDU types,
 * both byte orders, odd lengths, long OIDs and GetBulk counts come from
 * the input.  Properties: every request that parses gets one Response
 * (CleanupSet none) whose header echoes its IDs, whose length is its
 * payload's, and which parses back (every varbind, by the decoder's
 * ax_next_varbind()); a Get or GetNext answer has one
 * varbind per range (unless genErr); each GetNext answer is at or after
 * its start (at it only with include) and before its end, or
 * endOfMibView naming the start; a GetBulk answer is at most
 * non-repeaters + repeaters x max-repetitions varbinds.  The set
 * phases go through the one write path (lib/write/agentx_write.c) on a copy
 * of the populated alarm table, with 'alarmSet yes' and at most 8 rows
 * created: after every PDU the table is sorted by index, within its row
 * limit, and every active row could be evaluated (a metric, a rising
 * threshold above the falling one, a CPU for scope cpu, absolute for a
 * statistic).
 */
#include <string.h>

#include "agentx/agentx_decode.h"
#include "session/ax_session_dispatch.h"
#include "fuzz.h"
#include "populated.h"

static void check_answer(const struct ax_request *r, const struct ax_buf *b)
{
	struct ax_header_in h;
	struct ax_response_in resp;

	FUZZ_ASSERT(!b->oom && b->len >= AX_HEADER_LEN + 8);
	ax_parse_header(b->p, &h);
	FUZZ_ASSERT(h.version == AX_VERSION && h.type == AX_PDU_RESPONSE);
	FUZZ_ASSERT(h.length == b->len - AX_HEADER_LEN);
	FUZZ_ASSERT(h.ids.session == r->h.ids.session &&
		    h.ids.transaction == r->h.ids.transaction &&
		    h.ids.packet == r->h.ids.packet);
	FUZZ_ASSERT(ax_parse_response(&h, b->p + AX_HEADER_LEN, &resp) == 0);

	size_t at = 8, count = 0, nlen;
	uint16_t type;
	unsigned long sub[AX_OID_MAX + 5];
	struct ax_oid oid;
	char why[160];
	int got;
	size_t nr = r->h.type != AX_PDU_GETBULK	    ? r->nranges
		    : r->non_repeaters < r->nranges ? r->non_repeaters
						    : r->nranges;
	while ((got = ax_next_varbind(&h, b->p + AX_HEADER_LEN, &at, &type,
				      &oid, sub, why, sizeof(why))) == 1) {
		const unsigned long *name = oid.sub;
		nlen = oid.len;
		FUZZ_ASSERT(type != AX_NULL && type != AX_IPADDRESS &&
			    type != AX_OPAQUE); /* never served */
		/* the range this varbind answers */
		size_t i =
		    count < nr
			? count
			: nr + (count - nr) %
				   (r->nranges - nr ? r->nranges - nr : 1);
		const struct ax_range *g =
		    i < r->nranges ? &r->ranges[i] : NULL;
		if (g && r->h.type == AX_PDU_GETNEXT) {
			if (type == AX_END_OF_MIB_VIEW) {
				FUZZ_ASSERT(view_oid_cmp(name, nlen,
							 g->start.sub,
							 g->start.len) == 0);
			} else {
				int c = view_oid_cmp(name, nlen, g->start.sub,
						     g->start.len);
				FUZZ_ASSERT(c > 0 ||
					    (c == 0 && g->start.include));
				FUZZ_ASSERT(!g->end.len ||
					    view_oid_cmp(name, nlen, g->end.sub,
							 g->end.len) < 0);
			}
		}
		count++;
	}
	FUZZ_ASSERT(got == 0 && at == h.length); /* every varbind parses */
	if (resp.error == AX_ERR_GENERR || r->has_context)
		FUZZ_ASSERT(count == 0);
	else if (r->h.type == AX_PDU_GET || r->h.type == AX_PDU_GETNEXT)
		FUZZ_ASSERT(count == r->nranges);
	else if (r->h.type == AX_PDU_GETBULK)
		FUZZ_ASSERT(count <= nr + (r->nranges - nr) *
					      (size_t)r->max_repetitions);
}

/* The writer over a fresh copy of the populated table, per input. */
static struct alarm_writer *writer(const struct mib_view *v)
{
	static struct alarm_writer w;
	static struct alarm_set set;
	const struct alarm_writer_env env = {.enabled = true, .max_rows = 8};

	write_forget_sets(&w);
	alarm_set_free(&set);
	FUZZ_ASSERT(alarm_set_copy(&set, v->served->alarms) == 0);
	write_init(&w, &set, &env);
	return &w;
}

static void check_table(const struct alarm_writer *w)
{
	const struct alarm_set *s = w->set;
	FUZZ_ASSERT(alarm_rows_created(s) <= w->env.max_rows);
	for (size_t i = 0; i < s->count; i++) {
		const struct alarm *a = &s->alarm[i];
		FUZZ_ASSERT(i == 0 || s->alarm[i - 1].index < a->index);
		FUZZ_ASSERT(a->index >= 1 && a->index <= ALARM_INDEX_MAX);
		/* the one rule of a row, whatever its status (what the store
		 * keeps loads back), and unique names */
		struct alarm_def d = alarm_def_of(a);
		FUZZ_ASSERT(alarm_def_flaw(&d) == ALARM_FLAW_NONE);
		for (size_t k = 0; k < i; k++)
			FUZZ_ASSERT(strcmp(s->alarm[k].cfg.name, a->cfg.name));
		if (a->row != ROW_ACTIVE)
			continue;
		FUZZ_ASSERT((a->given & ALARM_GIVEN_ALL) == ALARM_GIVEN_ALL);
		FUZZ_ASSERT(a->cfg.falling < a->cfg.rising);
		FUZZ_ASSERT(a->cfg.counter >= 0 || a->cfg.stat >= 0);
		FUZZ_ASSERT(a->cfg.stat < 0 || a->cfg.type == TYPE_ABSOLUTE);
		FUZZ_ASSERT(a->cfg.scope != SCOPE_CPU ||
			    (a->given & ALARM_GIVEN_CPU));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct mib_view *v = populated_view();
	static struct ax_request req; /* reused, as the session does */
	struct alarm_writer *w = writer(v);
	size_t at = 0;

	struct ax_header_in h;
	/* framed as the session frames (it drops a stream that cannot be) */
	while (ax_frame(data + at, size - at, &h) == AX_FRAME_PDU) {
		const uint8_t *payload = data + at + AX_HEADER_LEN;
		at += AX_HEADER_LEN + h.length;
		if (h.type < AX_PDU_GET || h.type > AX_PDU_CLEANUPSET)
			continue;
		unsigned char st[2048];
		char why[160];
		struct ax_buf b;
		ax_init(&b, st, sizeof(st));
		if (ax_parse_request(&h, payload, &req, why, sizeof(why)) !=
		    0) {
			FUZZ_ASSERT(why[0] != '\0');
			ax_free(&b);
			continue;
		}
		bool answered = session_answer(v, w, &req, 4242, &b);
		FUZZ_ASSERT(answered == (h.type != AX_PDU_CLEANUPSET));
		if (answered) {
			FUZZ_ASSERT(ax_finish(&b) == 0);
			check_answer(&req, &b);
		}
		ax_free(&b);
		check_table(w);
	}
	return 0;
}
