/*
 * ax_address.h - the AgentX master's address, as -x and agentXSocket
 * give it: unix:PATH or an absolute PATH (a unix socket; unix:PATH may be
 * relative, to the agent's directory), tcp:HOST:PORT
 * or tcp6:[HOST]:PORT (HOST a name or a numeric address, IPv6 in
 * brackets; PORT 1..65535).  The one parser: the config checks a line
 * with it, the session connects with what it gives.
 */
#ifndef HWR10K_AX_ADDRESS_H
#define HWR10K_AX_ADDRESS_H

#include <stddef.h>

#define AX_ADDRESS_GRAMMAR "unix:PATH, PATH or tcp:HOST:PORT"

struct ax_address {
	enum { AX_ADDR_UNIX, AX_ADDR_TCP } kind;
	char path[108]; /* unix: sockaddr_un's sun_path, NUL included */
	char host[256]; /* tcp: without the brackets */
	char port[6];	/* tcp: digits */
};

/* 0, or -1 with why in err (naming the address). */
int config_address_parse(const char *text, struct ax_address *a, char *err,
			 size_t errlen);

#endif
