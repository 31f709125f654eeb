/* test_ax_session_ping.c - the session's Pings (axsession_fixture.h,
 * agentxPingInterval 1 s, shorter than AX_SESSION_TIMEOUT_S): one Ping
 * at a time, however many intervals pass while it is unanswered; the
 * answer lets the next go an interval later; one unanswered past the
 * timeout drops the session. */
#include "testenv.h"

#include "axsession_fixture.h"

static int setup_ping_1s(void **state)
{
	fixture_ping_s = 1;
	return setup(state);
}

/* The session's Ping, after the handshake at a 1 s interval. */
static void ping_due(struct fixture *f, struct ax_header_in *h)
{
	clock_ms += 1000;
	session_tick(f->s);
	expect(f, AX_PDU_PING, h);
}

static void one_ping_at_a_time(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	handshake(f);
	ping_due(f, &h);
	/* unanswered for four more intervals (within the timeout): no
	 * second Ping */
	for (int i = 1; i < AX_SESSION_TIMEOUT_S; i++) {
		clock_ms += 1000;
		session_tick(f->s);
		assert_true(nothing_sent(f));
		assert_true(session_is_up(f->s));
	}
	respond(f, &h, 77, 0);
	/* answered: the next one an interval after the last was due */
	ping_due(f, &h);
	respond(f, &h, 77, 0);
	assert_true(session_is_up(f->s));
	assert_int_equal(downs, 0);
}

static void unanswered_ping_drops(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	handshake(f);
	ping_due(f, &h);
	clock_ms += AX_SESSION_TIMEOUT_S * 1000;
	session_tick(f->s);
	assert_false(session_is_up(f->s));
	assert_int_equal(downs, 1);
	assert_logged("did not answer a Ping within 5 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(one_ping_at_a_time, setup_ping_1s,
					    teardown),
	    cmocka_unit_test_setup_teardown(unanswered_ping_drops,
					    setup_ping_1s, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
