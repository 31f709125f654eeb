/* agentx_fast.h - AgentX reads answered on the session (agentx_fast.c). */
#ifndef HWR10K_AGENTX_FAST_H
#define HWR10K_AGENTX_FAST_H

#include "agent.h"

/* At most this many varbinds in one GetBulk answer (a bound on the
 * response the master must take; RFC 2741 lets a subagent stop early). */
#define AGENTX_FAST_MAX_VARBINDS 2048

/* From the next AgentX session on, answer Get, GetNext and GetBulk of
 * the default context from a's view; call before the session opens. */
void agentx_fast_init(const struct agent *a);

#endif
