/*
 * fuzz_session.c - the bytes a master sends, against the real session
 * (lib/session/ax_session.c) over a socketpair: the harness opens the
 * session as
 * a master would (session ID 9), then writes the input after the first
 * byte in chunks whose size the first byte picks (split anywhere), the
 * session reading after each.  Properties: everything the session sends
 * frames; every PDU of the input that the stream frames (up to a header
 * that cannot be framed, or a Close) and that is not a Response, a Close
 * or a CleanupSet gets exactly one Response, echoing its packet and
 * transaction IDs; nothing else is answered.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agentx/agentx_decode.h"
#include "session/ax_session.h"
#include "fuzz.h"
#include "populated.h"

static uint64_t clock_ms = 1000;
static uint64_t now_ms(void) { return clock_ms; }

struct ids {
	uint32_t packet, transaction;
};

static int cmp_ids(const void *a, const void *b)
{
	const struct ids *x = a, *y = b;
	if (x->packet != y->packet)
		return x->packet < y->packet ? -1 : 1;
	return x->transaction < y->transaction ? -1 : x->transaction > y->transaction;
}

/* What the session sent, accumulated (the master side, non-blocking). */
static unsigned char *out;
static size_t out_len, out_cap;

static void drain(int fd)
{
	for (;;) {
		if (out_cap - out_len < 65536) {
			out_cap = out_cap ? out_cap * 2 : 1 << 20;
			out = realloc(out, out_cap);
			FUZZ_ASSERT(out);
		}
		ssize_t n = recv(fd, out + out_len, out_cap - out_len,
				 MSG_DONTWAIT);
		if (n <= 0)
			return;
		out_len += (size_t)n;
	}
}

/* The harness answers the session's own request at the front of out. */
static void answer_admin(int fd, struct ax_session *s)
{
	struct ax_header_in h;
	FUZZ_ASSERT(ax_frame(out, out_len, &h) == AX_FRAME_PDU);
	unsigned char r[28] = {1, AX_PDU_RESPONSE, AX_FLAG_NETWORK_BYTE_ORDER};
	uint32_t f[4] = {9, h.ids.transaction, h.ids.packet, 8};
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			r[4 + 4 * i + k] = (unsigned char)(f[i] >> (24 - 8 * k));
	FUZZ_ASSERT(send(fd, r, sizeof(r), MSG_NOSIGNAL) == (ssize_t)sizeof(r));
	out_len = 0;
	session_io(s, true, false);
	drain(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ids want[8192], got[8192];
	size_t nwant = 0, ngot = 0;
	int sv[2];

	if (size < 1 || size > 65536)
		return 0;
	const struct ax_session_env env = {.now_ms = now_ms,
					   .view = populated_view()};
	struct ax_session *s = session_new(&env);
	FUZZ_ASSERT(s);
	FUZZ_ASSERT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) == 0);
	session_adopt(s, sv[0], 5);
	out_len = 0;
	drain(sv[1]);
	for (int i = 0; i < 3; i++) /* Open, Register, AddAgentCaps */
		answer_admin(sv[1], s);
	FUZZ_ASSERT(session_is_up(s));

	/* what must be answered: the input as the session frames it */
	const uint8_t *in = data + 1;
	size_t len = size - 1, at = 0;
	struct ax_header_in h;
	while (ax_frame(in + at, len - at, &h) == AX_FRAME_PDU) {
		at += AX_HEADER_LEN + h.length;
		if (h.type == AX_PDU_CLOSE)
			break;
		if (h.type != AX_PDU_RESPONSE && h.type != AX_PDU_CLEANUPSET &&
		    nwant < 8192)
			want[nwant++] = (struct ids){h.ids.packet,
						     h.ids.transaction};
	}

	/* the input in chunks, the session reading after each */
	size_t chunk = 1 + data[0] % 61;
	for (size_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;
		if (send(sv[1], in + off, n, MSG_NOSIGNAL) != (ssize_t)n)
			break; /* the session dropped the stream */
		session_io(s, true, true);
		drain(sv[1]);
	}
	session_io(s, true, true);
	drain(sv[1]);

	/* everything sent frames; the Responses answer the input's PDUs */
	at = 0;
	while (at < out_len) {
		FUZZ_ASSERT(ax_frame(out + at, out_len - at, &h) == AX_FRAME_PDU);
		FUZZ_ASSERT(h.type == AX_PDU_RESPONSE);
		if (ngot < 8192)
			got[ngot++] = (struct ids){h.ids.packet,
						   h.ids.transaction};
		at += AX_HEADER_LEN + h.length;
	}
	qsort(want, nwant, sizeof(*want), cmp_ids);
	qsort(got, ngot, sizeof(*got), cmp_ids);
	FUZZ_ASSERT(nwant == ngot);
	FUZZ_ASSERT(memcmp(want, got, nwant * sizeof(*want)) == 0);
	session_free(s);
	close(sv[1]);
	return 0;
}
