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

/* Read NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (a watchdog meant
 * for another process is ignored) and take them out of the environment;
 * a NOTIFY_SOCKET that is not a socket path is ignored, as sd_notify(3)
 * ignores it; false (logged) when no socket can be made. */
bool sdnotify_init(void);
/* Whether a notification socket was given. */
bool sdnotify_enabled(void);
/* Send "KEY=VALUE\n..." lines; a failure is logged once. */
void sdnotify_send(const char *msg);
/* The watchdog's interval in microseconds, 0 when none was asked for. */
uint64_t sdnotify_watchdog_usec(void);
void sdnotify_close(void);

#endif
