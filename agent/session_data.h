/*
 * session_data.h - the AgentX session's state and internal calls, shared
 * by agent/session.c (connecting, timers, our requests and the API) and
 * agent/session_input.c (the master's PDUs).  Nothing outside them.
 */
#ifndef HWR10K_SESSION_DATA_H
#define HWR10K_SESSION_DATA_H

#include <netdb.h>
#include <stdbool.h>
#include <stdint.h>

#include "agentx_decode.h"
#include "ax_address.h"
#include "session.h"

#define PENDING_MAX 64 /* our requests in flight: admin, pings, notifies */

enum state {
	S_IDLE,	      /* not connected; try again at retry_ms */
	S_RESOLVING,  /* tcp: the master's host name being looked up */
	S_CONNECTING, /* connect() in progress (tcp) */
	S_OPENING,    /* Open sent */
	S_REGISTERING,
	S_CAPS, /* AddAgentCaps sent */
	S_UP,
};

struct pending {
	uint32_t packet;
	uint8_t type;
	uint64_t deadline_ms;
};

struct session_state {
	const struct mib_view *view;
	struct session_events ev;
	char address[256];
	struct ax_address addr; /* address, parsed */
	unsigned ping_s;
	enum state state;
	int fd;
	uint32_t id, next_packet;
	uint64_t retry_ms, next_ping_ms;
	uint64_t connect_deadline_ms; /* S_CONNECTING: tcp connect's end */
	bool outage_logged; /* "cannot connect" said for this outage */
	unsigned timer;	    /* snmp_alarm: deadlines and pings */
	/* sysUpTime: base at base_ms (the master's, or ours from start) */
	uint32_t uptime_base;
	uint64_t uptime_ms;
	unsigned char *in;
	size_t in_len, in_cap;
	unsigned char *out;
	size_t out_len, out_off, out_cap;
	struct pending pend[PENDING_MAX];
	size_t npend;
	struct ax_request req; /* reused: no allocation per request */
	/* tcp: the master's host name, looked up by getaddrinfo_a() off the
	 * main loop; the lookup's buffers live here as long as it runs */
	struct gaicb gai;
	struct addrinfo gai_hints;
	char gai_for[256]; /* the address it was started for */
};
extern struct session_state s;


uint64_t session_now_ms(void);
const char *session_type_name(unsigned type);
/* The session ends (why is logged by the caller); connect again after
 * agentxPingInterval. */
void session_drop(void);
/* Finish, queue and send a PDU (freeing b); -1 if it was dropped. */
int session_send(struct ax_buf *b);
/* Our request's Response came: Open, Register, AddAgentCaps... go on. */
void session_answered(uint8_t type, const struct ax_header_in *h,
		      uint16_t error);
/* session_output.c: send what the socket takes of the queue; our own
 * requests (Open, Register, AddAgentCaps: the state moves on). */
void session_flush(void);
/* Room for n more bytes in the output queue (session_output.c); -1 when
 * out of memory. */
int session_out_reserve(size_t n);
/* The output buffer's size when empty, and the most it keeps once the
 * master has read everything (a burst's memory is given back). */
#define SESSION_OUT_MIN	 16384
#define SESSION_OUT_KEEP (256u << 10)
void session_send_admin(enum ax_pdu_type type);
void session_send_ping(void);
/* Frame and handle what the master sent (session_input.c). */
void session_readable(void);

#endif
