/* test_ax_address.c - the AgentX master's address, as -x and agentXSocket
 * give it: what is accepted, what each part becomes, and why a bad one is
 * refused. */
#include "testenv.h"

#include <string.h>

#include "config/ax_address.h"

static struct ax_address a;
static char err[400];

static void ok(const char *text)
{
	if (config_address_parse(text, &a, err, sizeof(err)) != 0)
		fail_msg("%s refused: %s", text, err);
}

static void refused(const char *text, const char *why)
{
	assert_int_equal(config_address_parse(text, &a, err, sizeof(err)), -1);
	if (!strstr(err, why) || !strstr(err, text))
		fail_msg("%s: '%s' does not say '%s' and name it", text, err, why);
}

static void unix_sockets(void **state)
{
	ok("unix:/var/agentx/master");
	assert_int_equal(a.kind, AX_ADDR_UNIX);
	assert_string_equal(a.path, "/var/agentx/master");
	ok("/var/agentx/master");
	assert_string_equal(a.path, "/var/agentx/master");
	ok("unix:./agentx.sock"); /* relative with unix: (the man page's) */
	assert_string_equal(a.path, "./agentx.sock");
	refused("unix:", "no path");
	refused("agentx.sock", "not an address");
	char longp[200] = "/";
	memset(longp + 1, 'p', 150);
	refused(longp, "longer than a unix socket takes");
}

static void tcp(void **state)
{
	ok("tcp:localhost:705");
	assert_int_equal(a.kind, AX_ADDR_TCP);
	assert_string_equal(a.host, "localhost");
	assert_string_equal(a.port, "705");
	ok("tcp:127.0.0.1:1");
	assert_string_equal(a.host, "127.0.0.1");
	ok("tcp6:[::1]:705");
	assert_string_equal(a.host, "::1");
	assert_string_equal(a.port, "705");
	ok("tcp:[fe80::1%lo]:65535");
	assert_string_equal(a.host, "fe80::1%lo");
	refused("tcp:localhost", "no :PORT");
	refused("tcp::705", "no host");
	refused("tcp:[]:705", "no host");
	refused("tcp:host:0", "not 1..65535");
	refused("tcp:host:65536", "not 1..65535");
	refused("tcp:host:7x5", "not 1..65535");
	refused("tcp:host:", "not 1..65535");
	refused("tcp:::1:705", "in brackets");
	refused("udp:host:705", "not an address");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(unix_sockets),
	    cmocka_unit_test(tcp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
