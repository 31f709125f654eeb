/* ax_address.c - the AgentX master's address (ax_address.h). */
#include "config/ax_address.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, const char *text, const char *why)
{
	snprintf(err, len, "address '%s': %s (expected " AX_ADDRESS_GRAMMAR ")",
		 text, why);
	return -1;
}

static int parse_tcp(const char *text, const char *rest,
		     struct ax_address *a, char *err, size_t len)
{
	const char *colon = strrchr(rest, ':');
	if (!colon)
		return fail(err, len, text, "no :PORT");
	size_t hl = (size_t)(colon - rest);
	if (hl >= 2 && rest[0] == '[' && rest[hl - 1] == ']') {
		rest++;
		hl -= 2;
	} else if (memchr(rest, ':', hl)) {
		return fail(err, len, text,
			    "an IPv6 address goes in brackets: tcp6:[::1]:705");
	}
	if (hl == 0)
		return fail(err, len, text, "no host");
	if (hl >= sizeof(a->host))
		return fail(err, len, text, "the host name is too long");
	const char *p = colon + 1;
	size_t pl = strlen(p);
	if (pl == 0 || pl >= sizeof(a->port) || strspn(p, "0123456789") != pl ||
	    strtoul(p, NULL, 10) == 0 || strtoul(p, NULL, 10) > 65535)
		return fail(err, len, text, "the port is not 1..65535");
	a->kind = AX_ADDR_TCP;
	memcpy(a->host, rest, hl);
	a->host[hl] = '\0';
	memcpy(a->port, p, pl + 1);
	return 0;
}

int config_address_parse(const char *text, struct ax_address *a, char *err,
			 size_t errlen)
{
	*a = (struct ax_address){0};
	if (!strncmp(text, "tcp:", 4))
		return parse_tcp(text, text + 4, a, err, errlen);
	if (!strncmp(text, "tcp6:", 5))
		return parse_tcp(text, text + 5, a, err, errlen);
	/* unix:PATH may be relative (to the agent's directory: / once it
	 * runs in the background); a bare PATH must be absolute */
	const char *path = !strncmp(text, "unix:", 5) ? text + 5 : text;
	if (path == text ? path[0] != '/' : path[0] == '\0')
		return fail(err, errlen, text,
			    path == text ? "not an address" : "no path");
	if (strlen(path) >= sizeof(a->path))
		return fail(err, errlen, text,
			    "the path is longer than a unix socket takes");
	a->kind = AX_ADDR_UNIX;
	strcpy(a->path, path);
	return 0;
}
