/*
 * ax_session.h - the AgentX session to the master, RFC 2741's subagent
 * side, as a handle (doc/architecture.md says why the agent owns it).
 *
 * One non-blocking connection (unix or tcp): Open, Register of the
 * module's subtree, AddAgentCaps (sysORTable), a Ping every ping_s
 * seconds, Notify, Close.  Nothing waits for the master: each request of
 * ours has a deadline, and a master that does not answer in time is
 * dropped and connected to again, while the caller's loop goes on.
 * Every request from the master is answered by
 * lib/session/ax_session_dispatch.c, whatever the session's state.  The
 * caller hands in the clock, the view, the up/down events and a debug
 * sink (lib/util/log.h carries the log),
 * and drives it: session_fd() to wait for, session_io() with what
 * the descriptor said, session_tick() at least once a second.  No
 * global state: the unit tests run sessions over socketpairs with a
 * clock of their own (tests/unit/session/test_ax_session.c).
 */
#ifndef HWR10K_AX_SESSION_H
#define HWR10K_AX_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "agentx/agentx_encode.h"
#include "write/alarm_write.h"
#include "session/ax_session_limits.h"
#include "view/mibview.h"

struct ax_session_env {
	uint64_t (*now_ms)(void);	 /* a monotonic clock */
	void (*debug)(const char *msg); /* per-PDU traces; NULL: none */
	void (*up)(void *ctx);		 /* registered with a master */
	void (*down)(void *ctx);	 /* the session ended */
	void *ctx;
	const struct mib_view *view; /* what requests read */
	/* what sets write (NULL: the module is read-only); its
	 * transactions are forgotten when the session ends */
	struct alarm_writer *writer;
};

struct ax_session;

/* A session, idle; NULL when out of memory. */
struct ax_session *session_new(const struct ax_session_env *env);
/* Stop (no Close) and free. */
void session_free(struct ax_session *s);

/* Connect to address (unix:PATH, PATH, tcp:HOST:PORT); Pings every
 * ping_s seconds, and reconnects that often.  -1, logged, when the
 * address cannot be used at all. */
int session_start(struct ax_session *s, const char *address, unsigned ping_s);
/* Use fd, a stream already connected to a master (the unit tests'
 * socketpair): the Open goes at once; reconnecting is not possible. */
void session_adopt(struct ax_session *s, int fd, unsigned ping_s);
/* The Close (reason shutdown) behind what is queued, flushed for at most
 * AX_SESSION_CLOSE_FLUSH_MS; then idle. */
void session_stop(struct ax_session *s);

/* The descriptor to wait on (-1: none) and whether for writing too. */
int session_fd(const struct ax_session *s, bool *want_write);
void session_io(struct ax_session *s, bool readable, bool writable);
/* Deadlines, reconnects and Pings: at least once a second. */
void session_tick(struct ax_session *s);

bool session_is_up(const struct ax_session *s);
/* sysUpTime (TimeTicks): the master's, kept in step at each of its
 * Responses; before any, the session's own since it was made. */
uint32_t session_uptime(const struct ax_session *s);

/* A Notify: start writes its header (false when no master is
 * registered); the caller appends the varbinds; send finishes, queues
 * and remembers it (-1 if it could not be built). */
bool session_notify_start(struct ax_session *s, struct ax_buf *b);
int session_notify_send(struct ax_session *s, struct ax_buf *b);

#endif
