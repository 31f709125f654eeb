/* test_ax_session_outage.c - a master that accepts and never answers:
 * the session drops each unanswered Open after AX_SESSION_TIMEOUT_S,
 * dials again every ping_s, and says so once per outage, not once per
 * try; a master that answers ends the outage, and the next one is said
 * again, once. */
#include "testenv.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "agentx/agentx_decode.h"
#include "session/ax_session.h"
#include "axpdu.h"
#include "logcapture.h"
#include "populated.h"

static uint64_t clock_ms = 1000000;
static uint64_t fake_now(void) { return clock_ms; }

/* How many times text is in the log. */
static int logged_times(const char *text)
{
	int n = 0;
	for (const char *p = logbuf; (p = strstr(p, text)); p += strlen(text))
		n++;
	return n;
}

/* The next connection's first PDU, an Open: the master's end of it. */
static int accept_open(int lfd, struct ax_header_in *h)
{
	unsigned char head[AX_HEADER_LEN], payload[512];
	struct pollfd p = {lfd, POLLIN, 0};
	assert_int_equal(poll(&p, 1, 1000), 1);
	int m = accept(lfd, NULL, NULL);
	assert_true(m >= 0);
	assert_int_equal(read(m, head, sizeof(head)), (ssize_t)sizeof(head));
	ax_parse_header(head, h);
	assert_int_equal(h->type, AX_PDU_OPEN);
	assert_int_equal(read(m, payload, h->length), (ssize_t)h->length);
	return m;
}

/* Let the Open go unanswered until the session drops it. */
static void open_times_out(struct ax_session *s, int lfd)
{
	struct ax_header_in h;
	bool w;
	int m = accept_open(lfd, &h);
	clock_ms += (AX_SESSION_TIMEOUT_S - 1) * 1000;
	session_tick(s);
	assert_true(session_fd(s, &w) >= 0); /* still waiting */
	clock_ms += 1000;
	session_tick(s);
	assert_int_equal(session_fd(s, &w), -1);
	close(m);
}

static void said_once_per_outage(void **state)
{
	char dir[] = "/tmp/hwr-axo-XXXXXX", address[220];
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	const struct ax_session_env env = {.now_ms = fake_now,
					   .view = populated_view()};
	const char *said = "did not answer a Open within 5 s";

	log_capture_start();
	assert_non_null(mkdtemp(dir));
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/master", dir);
	snprintf(address, sizeof(address), "unix:%s", sun.sun_path);
	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_int_equal(listen(lfd, 4), 0);
	struct ax_session *s = session_new(&env);
	assert_int_equal(session_start(s, address, 10), 0);
	for (int tries = 1; tries <= 3; tries++) {
		open_times_out(s, lfd);
		assert_int_equal(logged_times(said), 1);
		clock_ms += 10000; /* ping_s: the next dial */
		session_tick(s);
	}
	session_stop(s);
	session_free(s);
	close(lfd);
	unlink(sun.sun_path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(said_once_per_outage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
