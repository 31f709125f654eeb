/* sdnotify.c - sd_notify(3)'s datagrams, by hand (sdnotify.h). */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sdnotify.h"

/* Children never inherit systemd's variables meant for the agent. */
static void unset_env(void)
{
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
}

bool agent_sdnotify_init(struct sdnotify *sd)
{
	const char *path = getenv("NOTIFY_SOCKET");
	const char *usec = getenv("WATCHDOG_USEC");
	const char *pid = getenv("WATCHDOG_PID");

	if (usec && (!pid || strtol(pid, NULL, 10) == (long)getpid())) {
		char *end;
		unsigned long long v = strtoull(usec, &end, 10);
		if (*end == '\0' && v > 0)
			sd->watchdog_usec = v;
	}
	if (!path || !path[0]) {
		sd->watchdog_usec = 0; /* nobody to feed */
		return true;
	}
	size_t n = strlen(path);
	if ((path[0] != '/' && path[0] != '@') ||
	    n >= sizeof(sd->addr.sun_path)) {
		/* Only an absolute path or an abstract name ('@') is a
		 * notification socket here; anything else (a relative name,
		 * a vsock: address, an oversized path) sends nothing and the
		 * agent goes on, as a service using sd_notify(3) does (it
		 * fails such a value and its man page recommends ignoring
		 * its return): a stray value inherited from a shell never
		 * keeps the agent from starting.  -Dhwr10k/sdnotify says. */
		DEBUGMSGTL(("hwr10k/sdnotify",
			    "NOTIFY_SOCKET '%s' is not a socket path: "
			    "ignored\n",
			    path));
		sd->watchdog_usec = 0;
		unset_env();
		return true;
	}
	memset(&sd->addr, 0, sizeof(sd->addr));
	sd->addr.sun_family = AF_UNIX;
	memcpy(sd->addr.sun_path, path, n);
	if (path[0] == '@')
		sd->addr.sun_path[0] = '\0'; /* an abstract name */
	sd->addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
				   (path[0] == '@' ? 0 : 1));
	sd->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sd->fd < 0) {
		snmp_log(LOG_ERR, "NOTIFY_SOCKET: socket: %s\n",
			 strerror(errno));
		sd->watchdog_usec = 0;
		return false;
	}
	unset_env();
	return true;
}

bool agent_sdnotify_enabled(const struct sdnotify *sd)
{
	return sd->fd >= 0;
}

void agent_sdnotify_send(struct sdnotify *sd, const char *msg)
{
	if (sd->fd < 0)
		return;
	ssize_t n;
	do
		n = sendto(sd->fd, msg, strlen(msg), MSG_NOSIGNAL,
			   (const struct sockaddr *)&sd->addr, sd->addr_len);
	while (n < 0 && errno == EINTR);
	if (n < 0 && !sd->failed_logged) {
		snmp_log(LOG_WARNING,
			 "NOTIFY_SOCKET: cannot notify systemd: %s (logged "
			 "once)\n",
			 strerror(errno));
		sd->failed_logged = true;
	}
}

uint64_t agent_sdnotify_watchdog_usec(const struct sdnotify *sd)
{
	return sd->fd >= 0 ? sd->watchdog_usec : 0;
}

void agent_sdnotify_close(struct sdnotify *sd)
{
	if (sd->fd >= 0)
		close(sd->fd);
	sd->fd = -1;
}
