/*
 * ax_session_int.h - inside the session handle (lib/session/ax_session*.c
 * only):
 * its state, and the calls between its files, in layers (each calls only
 * those below): ax_session_base.c (clock, trace, dropping a connection),
 * ax_session_dial.c (connecting: unix, tcp, the background resolver),
 * ax_session_io.c (the master's PDUs in, the output queue and our
 * requests out; the answers to ours through the function each carries),
 * ax_session.c (states, what each answer does, timers, the API).
 */
#ifndef HWR10K_AX_SESSION_INT_H
#define HWR10K_AX_SESSION_INT_H

#include <netdb.h>
#include <stdbool.h>
#include <stdint.h>

#include "agentx/agentx_decode.h"
#include "config/ax_address.h"
#include "session/ax_session.h"

#define PENDING_MAX 64 /* our requests in flight: admin, pings, notifies */

/* The session's states; every event checks the one it needs. */
enum axs_state {
	S_IDLE,	      /* not connected; try again at retry_ms */
	S_RESOLVING,  /* tcp: the master's host name being looked up */
	S_CONNECTING, /* connect() in progress (tcp) */
	S_OPENING,    /* Open sent, its answer awaited */
	S_REGISTERING, /* Register sent */
	S_CAPS,	      /* AddAgentCaps sent */
	S_UP,	      /* registered: Pings, Notifies */
};

struct ax_session;
/* What to do with the master's answer to one of our requests. */
typedef void (*axs_answer_fn)(struct ax_session *s,
			      const struct ax_header_in *h, uint16_t error);

struct axs_pending {
	uint32_t packet;
	uint8_t type;
	uint64_t deadline_ms;
	axs_answer_fn answered;
};

/* The background lookup (tcp:HOST): its buffers must live as long as
 * glibc's worker may write them, past a stop. */
struct axs_lookup {
	struct gaicb gai;
	struct addrinfo hints;
	char name[256], port[6];
	char for_address[256]; /* the address it was started for */
};

struct ax_session {
	struct ax_session_env env;
	char address[256];
	struct ax_address addr; /* address, parsed */
	bool adopted;		/* a stream handed in: no reconnecting */
	unsigned ping_s;
	enum axs_state state;
	int fd;
	uint32_t id, next_packet;
	uint64_t retry_ms, next_ping_ms;
	uint64_t connect_deadline_ms; /* S_CONNECTING: tcp connect's end */
	bool outage_logged; /* "cannot connect" said for this outage */
	/* sysUpTime: base at uptime_ms (the master's, or ours from start) */
	uint32_t uptime_base;
	uint64_t uptime_ms;
	unsigned char *in;
	size_t in_len, in_cap;
	unsigned char *out;
	size_t out_len, out_off, out_cap;
	struct axs_pending pend[PENDING_MAX];
	size_t npend;
	struct ax_request req; /* reused: no allocation per request */
	uint32_t notify_packet; /* the Notify being written */
	struct axs_lookup *lookup; /* tcp by name; NULL until the first */
	/* tcp: the lookup's answer while connecting, the address tried next */
	struct addrinfo *addrs;
	const struct addrinfo *next_addr;
};

/* ax_session_base.c */
uint64_t session_now(const struct ax_session *s);
void session_debug(const struct ax_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Close the connection, forgetting what was queued and awaited. */
void session_close_fd(struct ax_session *s);
/* The session ends (why is logged by the caller); connect again after
 * ping_s (an adopted stream: idle for good). */
void session_drop(struct ax_session *s);

/* ax_session_io.c */
/* Finish, queue and send a PDU (freeing b); -1 if it was dropped. */
int session_send(struct ax_session *s, struct ax_buf *b);
/* Room for n more bytes in the output queue; -1 when out of memory. */
int session_out_reserve(struct ax_session *s, size_t n);
/* Send what the socket takes of the queue. */
void session_flush(struct ax_session *s);
/* Wait for the answer to our request with this packet ID (the oldest is
 * given up when PENDING_MAX wait). */
void session_remember(struct ax_session *s, uint32_t packet, uint8_t type,
		      axs_answer_fn answered);
/* One of our requests: its IDs, remembered with what to do with its
 * answer until it comes or its deadline passes. */
struct ax_ids session_request_ids(struct ax_session *s, uint8_t type,
				  axs_answer_fn answered);
/* Frame and handle what the master sent. */
void session_readable(struct ax_session *s);

/* ax_session_dial.c */
/* Dial the address: true when connected at once (unix: the Open is the
 * caller's to send); else S_CONNECTING, S_RESOLVING, or S_IDLE with the
 * reason logged. */
bool session_dial(struct ax_session *s);
/* S_RESOLVING, from the timer: the lookup's answer, if it came. */
void session_resolved(struct ax_session *s);
/* S_CONNECTING, writable: true when connected; else the lookup's next
 * address dialled, or, none left, the reason logged. */
bool session_connect_done(struct ax_session *s);
/* No connection (errno err): said once per outage, retried after ping_s. */
void session_connect_failed(struct ax_session *s, int err);
/* At free: a lookup still running is cancelled, or left (its block is
 * parked, as glibc's worker may still write it). */
void session_lookup_end(struct ax_session *s);
/* The addresses still to try freed (connected, or the session ends). */
void session_addrs_end(struct ax_session *s);

#endif
