/*
 * agentx_transport.h - the master session's transport, taken over where
 * net-snmp costs more than it must or says less than it should.
 *
 * Receiving: net-snmp's unix-domain receive calls getsockname() and
 * allocates an address for every read, which a stream to the master never
 * uses (a quarter of the agent's system calls in a walk).  On a unix
 * socket the session's transport receives with one recv() instead; other
 * transports (tcp) keep net-snmp's.
 *
 * Unanswered requests: net-snmp 5.9.3 drops a PDU whose header frames it
 * but whose contents do not parse (an OID longer than the PDU, a bad
 * value) with a debug message only: no answer, no log line, and the
 * master times the request out.  This file frames the byte streams of
 * the transport (RFC 2741 6.1: a 20-byte header with the payload length):
 * every complete request PDU that needs a Response (Get ... UndoSet) is
 * noted with the time it came in, every Response sent takes its packet ID
 * off the list, and one still there after AGENTX_UNANSWERED_SECONDS (or
 * when the connection is replaced) is logged with its type, packet ID and
 * size, and counted.  Both answer paths (this agent's fast path and
 * net-snmp's own, which answers requests that come in while it waits for
 * a Register response) send through the transport, so only a request
 * nobody answered is reported.
 */
#ifndef HWR10K_AGENTX_TRANSPORT_H
#define HWR10K_AGENTX_TRANSPORT_H

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#define AGENTX_UNANSWERED_SECONDS 2
/* The largest payload the agent reads: a master's request is a few KiB. */
#define AGENTX_PAYLOAD_MAX (1u << 20)

/* Take over this session's transport (a new connection starts afresh). */
void agentx_transport_take(netsnmp_session *session);
/* Log and count the requests unanswered for AGENTX_UNANSWERED_SECONDS; call
 * after each round of agent_check_and_process. */
void agentx_transport_check(void);

#endif
