/* axsession_fixture.h - an AgentX session handle (lib/session) over a
 * socketpair with a clock of the test's own: the test plays the master
 * byte by byte (axpdu.h) and reads what the session sends
 * (test_ax_session.c, test_ax_session_ping.c).  The session adopts its
 * end with a Ping every fixture_ping_s (10 unless a test sets it before
 * setup). */
#ifndef HWR10K_AXSESSION_FIXTURE_H
#define HWR10K_AXSESSION_FIXTURE_H

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agentx/agentx_decode.h"
#include "session/ax_session.h"
#include "axpdu.h"
#include "logcapture.h"
#include "populated.h"

static unsigned fixture_ping_s = 10;
static uint64_t clock_ms = 1000000;
static uint64_t fake_now(void) { return clock_ms; }
static int ups, downs;
static void on_up(void *ctx) { ups++; }
static void on_down(void *ctx) { downs++; }

struct fixture {
	struct ax_session *s;
	int master; /* the test's end */
};

/* One PDU from the session (waiting at most 1 s): its header, payload. */
static int read_pdu(int fd, struct ax_header_in *h, unsigned char *payload,
		    size_t cap)
{
	unsigned char head[AX_HEADER_LEN];
	size_t got = 0;
	while (got < AX_HEADER_LEN) {
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 1000) <= 0)
			return -1;
		ssize_t n = read(fd, head + got, AX_HEADER_LEN - got);
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	ax_parse_header(head, h);
	assert_true(h->length <= cap);
	for (got = 0; got < h->length;) {
		ssize_t n = read(fd, payload + got, h->length - got);
		assert_true(n > 0);
		got += (size_t)n;
	}
	return 0;
}

/* The session reads what the master wrote. */
static void pump(struct fixture *f)
{
	session_io(f->s, true, true);
}

static void respond(struct fixture *f, const struct ax_header_in *to,
		    uint32_t session, uint16_t error)
{
	struct pdu p;
	header(&p, AX_PDU_RESPONSE, 0, true);
	p.len = 4;
	put32(&p, session);
	put32(&p, to->ids.transaction);
	put32(&p, to->ids.packet);
	put32(&p, 0);
	put32(&p, 4242); /* sysUpTime */
	put16(&p, error);
	put16(&p, 0);
	finish(&p);
	assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
	pump(f);
}

/* Read the session's next PDU, expecting type. */
static void expect(struct fixture *f, unsigned type, struct ax_header_in *h)
{
	unsigned char payload[65536];
	assert_int_equal(read_pdu(f->master, h, payload, sizeof(payload)), 0);
	if (h->type != type)
		fail_msg("expected a %s, got a %s", ax_pdu_name(type),
			 ax_pdu_name(h->type));
}

static int setup(void **state)
{
	static struct fixture f;
	int sv[2];
	const struct ax_session_env env = {.now_ms = fake_now,
					   .up = on_up,
					   .down = on_down,
					   .view = populated_view()};
	log_capture_start();
	ups = downs = 0;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	f.master = sv[1];
	f.s = session_new(&env);
	assert_non_null(f.s);
	session_adopt(f.s, sv[0], fixture_ping_s);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	session_free(f->s);
	close(f->master);
	return 0;
}

/* Open, Register, AddAgentCaps, each answered: up, session 77. */
static void handshake(struct fixture *f)
{
	struct ax_header_in h;
	expect(f, AX_PDU_OPEN, &h);
	assert_false(session_is_up(f->s));
	respond(f, &h, 77, 0);
	expect(f, AX_PDU_REGISTER, &h);
	assert_int_equal(h.ids.session, 77);
	respond(f, &h, 77, 0);
	expect(f, AX_PDU_ADDAGENTCAPS, &h);
	respond(f, &h, 77, 0);
	assert_true(session_is_up(f->s));
	assert_int_equal(ups, 1);
	assert_logged("AgentX subagent connected");
}

/* Nothing from the session waits to be read. */
static bool nothing_sent(struct fixture *f)
{
	struct pollfd p = {f->master, POLLIN, 0};
	return poll(&p, 1, 0) == 0;
}

#endif
