/*
 * session.h - the AgentX session to the master, owned here and nowhere
 * else (RFC 2741's subagent side; doc/architecture.md says why).
 *
 * One non-blocking connection (unix or tcp), driven by the main loop:
 * Open, Register of the module's subtree, AddAgentCaps (sysORTable),
 * Pings every agentxPingInterval, Notify, Close.  Nothing waits for the
 * master: every request of ours has a deadline, and a master that does
 * not answer in time (hung, stopped, gone) is dropped and connected to
 * again, while polls, alarms and reads go on.  Every request from the
 * master is answered by lib/agentx_read.c, whatever the moment it
 * arrives.  poll.c and notify.c learn that the master came or went
 * through the events given to session_start.
 */
#ifndef HWR10K_SESSION_H
#define HWR10K_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/select.h>

#include "agentx_encode.h"
#include "mibview.h"

/* How long the agent waits for the master's answer to one of its own
 * requests (Open, Register, AddAgentCaps, Ping, Notify). */
#define SESSION_TIMEOUT_S 5
/* Output the master has not taken yet, past which it is dropped. */
#define SESSION_OUTPUT_MAX (8u << 20)
/* At stop, how long the Close and what is queued before it may take. */
#define SESSION_CLOSE_FLUSH_MS 500

struct session_events {
	void (*up)(void *ctx);	 /* registered with a master */
	void (*down)(void *ctx); /* the session ended */
	void *ctx;
};

/* Start connecting to address (unix:PATH, PATH, tcp:HOST:PORT); Pings
 * every ping_s seconds, and reconnects that often.  -1 with a message
 * when the address cannot be used at all. */
int session_start(const char *address, unsigned ping_s,
		  const struct mib_view *view, const struct session_events *ev);
/* Close the session (Close, reason shutdown) and stop. */
void session_stop(void);

/* The main loop: the descriptors to wait for, then what they said. */
void session_fds(int *nfds, fd_set *readable, fd_set *writable);
void session_io(const fd_set *readable, const fd_set *writable);

bool session_is_up(void);
/* sysUpTime (TimeTicks): the master's, kept in step at each of its
 * Responses; before any, the agent's own since it started. */
uint32_t session_uptime(void);

/* A Notify: session_notify_start writes its header (false when no
 * master is registered: nothing to send); the caller appends the
 * varbinds; session_notify_send finishes and queues it (-1 if it could
 * not be built). */
bool session_notify_start(struct ax_buf *b);
int session_notify_send(struct ax_buf *b);

#endif
