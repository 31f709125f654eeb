/* ax_session_limits.h - the AgentX session's deadlines and bounds. */
#ifndef HWR10K_AX_SESSION_LIMITS_H
#define HWR10K_AX_SESSION_LIMITS_H

/* How long the session waits for the master's answer to one of its own
 * requests (Open, Register, AddAgentCaps, Ping, Notify). */
#define AX_SESSION_TIMEOUT_S 5
/* Output the master has not taken yet, past which it is dropped. */
#define AX_SESSION_OUTPUT_MAX (8u << 20)
/* At stop, how long the Close and what is queued before it may take. */
#define AX_SESSION_CLOSE_FLUSH_MS 500
/* The output buffer's size when empty, and the most it keeps once the
 * master has read everything (a burst's memory is given back). */
#define AX_SESSION_OUT_MIN  16384
#define AX_SESSION_OUT_KEEP (256u << 10)

#endif
