/*
 * sdnotify.h - systemd's service notification protocol (sd_notify(3)),
 * written by hand rather than linking libsystemd for five datagrams:
 * readiness, status, reloading, stopping and the watchdog, sent to
 * $NOTIFY_SOCKET (a path, or an abstract name after '@').  Without
 * NOTIFY_SOCKET (no systemd, or Type=simple) every call does nothing.
 */
#ifndef HWR10K_SDNOTIFY_H
#define HWR10K_SDNOTIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

/* The notification socket and what systemd asked for (struct agent's;
 * SDNOTIFY_INIT before agent_sdnotify_init: no socket). */
struct sdnotify {
	int fd; /* -1: no socket, every call does nothing */
	struct sockaddr_un addr;
	socklen_t addr_len;
	uint64_t watchdog_usec; /* 0: no watchdog */
	bool failed_logged;	/* a failed send is logged once */
};
#define SDNOTIFY_INIT {.fd = -1}

/* Read NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (a watchdog meant
 * for another process is ignored) and take them out of the environment;
 * a NOTIFY_SOCKET that is not a socket path is ignored, as sd_notify(3)
 * ignores it; false (logged) when no socket can be made. */
bool agent_sdnotify_init(struct sdnotify *sd);
/* Whether a notification socket was given. */
bool agent_sdnotify_enabled(const struct sdnotify *sd);
/* Send "KEY=VALUE\n..." lines; a failure is logged once. */
void agent_sdnotify_send(struct sdnotify *sd, const char *msg);
/* The watchdog's interval in microseconds, 0 when none was asked for. */
uint64_t agent_sdnotify_watchdog_usec(const struct sdnotify *sd);
void agent_sdnotify_close(struct sdnotify *sd);

#endif
