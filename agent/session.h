/*
 * session.h - the agent's AgentX session: lib/session/ax_session.c's handle
 * (RFC 2741's subagent side; doc/architecture.md says why the agent owns
 * it), driven from the main loop with net-snmp's clock-free parts: its
 * alarms tick the session, its debug tokens (hwr10k/session) trace it.
 * poll.c and notify.c learn that the master came or went through the
 * events given to agent_session_start.
 */
#ifndef HWR10K_SESSION_H
#define HWR10K_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/select.h>

#include "agentx/agentx_encode.h"
#include "write/alarm_write.h"
#include "view/mibview.h"

struct ax_session;

/* The agent's one session (struct agent's): the handle, NULL when
 * stopped, and the net-snmp alarm that ticks it. */
struct session {
	struct ax_session *sess;
	unsigned timer; /* snmp_alarm id, 0 = none */
};

struct session_events {
	void (*up)(void *ctx);	 /* registered with a master */
	void (*down)(void *ctx); /* the session ended */
	void *ctx;
	struct alarm_writer *writer; /* what sets go through */
};

/* Start connecting to address (unix:PATH, PATH, tcp:HOST:PORT); Pings
 * every ping_s seconds, and reconnects that often.  -1 with a message
 * when the address cannot be used at all. */
int agent_session_start(struct session *s, const char *address, unsigned ping_s,
			const struct mib_view *view,
			const struct session_events *ev);
/* Close the session (Close, reason shutdown) and stop. */
void agent_session_stop(struct session *s);

/* The main loop: the descriptors to wait for, then what they said. */
void agent_session_fds(const struct session *s, int *nfds, fd_set *readable,
		       fd_set *writable);
/* true when the master sent something (requests: publish.c waits for
 * them to pause) */
bool agent_session_io(struct session *s, const fd_set *readable,
		      const fd_set *writable);

bool agent_session_is_up(const struct session *s);
/* sysUpTime (TimeTicks): the master's, kept in step at each of its
 * Responses; before any, the agent's own since the session started. */
uint32_t agent_session_uptime(const struct session *s);

/* A Notify: agent_session_notify_start writes its header (false when no
 * master is registered: nothing to send); the caller appends the
 * varbinds; agent_session_notify_send finishes and queues it (-1 if it could
 * not be built). */
bool agent_session_notify_start(struct session *s, struct ax_buf *b);
int agent_session_notify_send(struct session *s, struct ax_buf *b);

#endif
