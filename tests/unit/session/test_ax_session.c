/* test_ax_session.c - the AgentX session handle
 * (lib/session/ax_session.c) over a
 * socketpair, with a clock of the test's own (axsession_fixture.h): the
 * test plays the master byte by byte and reads what the session sends.  Open,
 * Register, AddAgentCaps and up; requests answered whatever the moment;
 * a Ping answered with an error; a request of ours left unanswered past
 * its deadline; a Close from the master; a Notify; the Close at stop; a
 * master that reads nothing (the output bound). */
#include "testenv.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "axsession_fixture.h"

static void opens_and_registers(void **state)
{
	struct fixture *f = *state;
	handshake(f);
	/* in step with the master's sysUpTime (4242) */
	assert_int_equal(session_uptime(f->s), 4242);
}

static void a_refused_register(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	expect(f, AX_PDU_OPEN, &h);
	respond(f, &h, 77, 0);
	expect(f, AX_PDU_REGISTER, &h);
	respond(f, &h, 77, 263); /* duplicateRegistration */
	assert_false(session_is_up(f->s));
	assert_logged("another subagent has it");
	bool w;
	assert_int_equal(session_fd(f->s, &w), -1); /* dropped */
}

/* The module's root as the builder takes OIDs. */
static unsigned root[32];

/* A request of the session the handshake opened (77), its header only;
 * the root OID filled in. */
static void request(struct pdu *p, unsigned type)
{
	for (unsigned i = 0; i < meta_root_len; i++)
		root[i] = meta_root[i];
	header(p, type, 0, true);
	p->len = 4;
	put32(p, 77);
	p->len = 20;
}

static void requests_answered(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	handshake(f);
	/* a GetNext: the Response echoes its IDs */
	struct pdu p;
	request(&p, AX_PDU_GETNEXT);
	oid(&p, root, meta_root_len, false);
	oid(&p, NULL, 0, false);
	finish(&p);
	assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
	pump(f);
	expect(f, AX_PDU_RESPONSE, &h);
	assert_int_equal(h.ids.packet, 33);
	assert_int_equal(h.ids.transaction, 22);
	assert_true(h.length > 8);
	/* another session's request: notOpen */
	header(&p, AX_PDU_GET, 0, true); /* session 11 */
	oid(&p, root, meta_root_len, false);
	oid(&p, NULL, 0, false);
	finish(&p);
	assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
	pump(f);
	unsigned char payload[256];
	assert_int_equal(read_pdu(f->master, &h, payload, sizeof(payload)), 0);
	assert_int_equal(h.type, AX_PDU_RESPONSE);
	assert_int_equal(payload[4] << 8 | payload[5], 257); /* notOpen */
	/* a type AgentX does not define: parseError */
	header(&p, 200, 0, true);
	finish(&p);
	assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
	pump(f);
	assert_int_equal(read_pdu(f->master, &h, payload, sizeof(payload)), 0);
	assert_int_equal(payload[4] << 8 | payload[5], 266);
	assert_true(session_is_up(f->s));
}

static void ping_answered_with_an_error(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	handshake(f);
	clock_ms += 9000;
	session_tick(f->s);
	bool w;
	assert_int_equal(session_fd(f->s, &w) >= 0, true);
	clock_ms += 1000; /* ping_s 10 */
	session_tick(f->s);
	expect(f, AX_PDU_PING, &h);
	respond(f, &h, 77, 257); /* notOpen: the master forgot us */
	assert_false(session_is_up(f->s));
	assert_int_equal(downs, 1);
	assert_logged("answered our Ping with error 257");
}

/* A request from the master shows it is alive: the Ping waits ping_s
 * from the answer, not from the last Ping. */
static void ping_postponed_by_a_request(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	struct pdu p;
	handshake(f);
	clock_ms += 9000;
	request(&p, AX_PDU_GET);
	oid(&p, root, meta_root_len, false);
	oid(&p, NULL, 0, false);
	finish(&p);
	assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
	pump(f);
	expect(f, AX_PDU_RESPONSE, &h);
	clock_ms += 2000; /* 11 s after the handshake, 2 s after the Get */
	session_tick(f->s);
	pump(f);
	assert_true(nothing_sent(f));
	clock_ms += 8000; /* ping_s after the Get */
	session_tick(f->s);
	expect(f, AX_PDU_PING, &h);
}

static void unanswered_open_times_out(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	expect(f, AX_PDU_OPEN, &h);
	clock_ms += (AX_SESSION_TIMEOUT_S - 1) * 1000;
	session_tick(f->s);
	bool w;
	assert_true(session_fd(f->s, &w) >= 0); /* still waiting */
	clock_ms += 1000;
	session_tick(f->s);
	assert_int_equal(session_fd(f->s, &w), -1);
	assert_logged("did not answer a Open within 5 s");
}

static void close_from_the_master(void **state)
{
	struct fixture *f = *state;
	handshake(f);
	struct pdu p;
	header(&p, AX_PDU_CLOSE, 0, true);
	put8(&p, 5);
	put8(&p, 0);
	put8(&p, 0);
	put8(&p, 0);
	finish(&p);
	assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
	pump(f);
	assert_false(session_is_up(f->s));
	assert_int_equal(downs, 1);
	assert_logged("closed the session (reason 5)");
}

static void notify_and_close_at_stop(void **state)
{
	struct fixture *f = *state;
	struct ax_header_in h;
	unsigned char st[256];
	struct ax_buf b;
	static const unsigned long up0[] = {1, 3, 6, 1, 2, 1, 1, 3, 0};
	handshake(f);
	ax_init(&b, st, sizeof(st));
	assert_true(session_notify_start(f->s, &b));
	ax_varbind_timeticks(&b, up0, 9, 1);
	assert_int_equal(session_notify_send(f->s, &b), 0);
	expect(f, AX_PDU_NOTIFY, &h);
	respond(f, &h, 77, 0);
	/* answered: no deadline left behind */
	clock_ms += AX_SESSION_TIMEOUT_S * 1000;
	session_tick(f->s);
	assert_true(session_is_up(f->s));
	session_stop(f->s);
	expect(f, AX_PDU_CLOSE, &h);
	assert_false(session_is_up(f->s));
}

/* A master that sends and never reads: the session drops it once
 * AX_SESSION_OUTPUT_MAX of answers wait, never holding more. */
static void a_master_that_reads_nothing(void **state)
{
	struct fixture *f = *state;
	handshake(f);
	struct pdu p;
	request(&p, AX_PDU_GETBULK);
	put16(&p, 0);
	put16(&p, 2000);
	oid(&p, root, meta_root_len, false);
	oid(&p, NULL, 0, false);
	finish(&p);
	int sent = 0;
	bool w;
	while (session_fd(f->s, &w) >= 0 && sent < 2000) {
		assert_int_equal(write(f->master, p.b, p.len), (ssize_t)p.len);
		pump(f);
		sent++;
	}
	assert_int_equal(session_fd(f->s, &w), -1);
	assert_logged("has not read");
	assert_true(sent > 10); /* it took many answers, not one */
}

/* Dialing a unix socket: nobody listening (logged once, retried every
 * ping_s); a master that listens (Open); a master that goes away (a new
 * connection after ping_s). */
static void dials_and_reconnects(void **state)
{
	char dir[] = "/tmp/hwr-axs-XXXXXX", path[200], address[220];
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	const struct ax_session_env env = {.now_ms = fake_now,
					   .view = populated_view()};
	struct ax_header_in h;
	unsigned char payload[512];
	bool w;

	log_capture_start();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/master", dir);
	snprintf(address, sizeof(address), "unix:%s", path);
	struct ax_session *s = session_new(&env);
	assert_int_equal(session_start(s, address, 10), 0);
	assert_int_equal(session_fd(s, &w), -1);
	assert_logged("cannot connect to the master at unix:");
	assert_logged("No such file or directory");

	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(sun.sun_path, path);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_int_equal(listen(lfd, 4), 0);
	clock_ms += 9000;
	session_tick(s);
	assert_int_equal(session_fd(s, &w), -1); /* not before ping_s */
	clock_ms += 1000;
	session_tick(s);
	assert_true(session_fd(s, &w) >= 0);
	int m = accept(lfd, NULL, NULL);
	assert_true(m >= 0);
	assert_int_equal(read_pdu(m, &h, payload, sizeof(payload)), 0);
	assert_int_equal(h.type, AX_PDU_OPEN);
	close(m); /* the master goes away */
	session_io(s, true, false);
	assert_int_equal(session_fd(s, &w), -1);
	assert_logged("went away");
	clock_ms += 10000;
	session_tick(s);
	m = accept(lfd, NULL, NULL);
	assert_true(m >= 0);
	assert_int_equal(read_pdu(m, &h, payload, sizeof(payload)), 0);
	assert_int_equal(h.type, AX_PDU_OPEN);
	session_stop(s); /* not up: no Close */
	session_free(s);
	close(m);
	close(lfd);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(opens_and_registers, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_refused_register, setup, teardown),
	    cmocka_unit_test_setup_teardown(requests_answered, setup, teardown),
	    cmocka_unit_test_setup_teardown(ping_postponed_by_a_request, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(ping_answered_with_an_error, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(unanswered_open_times_out, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(close_from_the_master, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(notify_and_close_at_stop, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(a_master_that_reads_nothing, setup,
					    teardown),
	    cmocka_unit_test(dials_and_reconnects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
