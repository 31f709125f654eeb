/*
 * stamps.c - the agent's TimeStamps (hwR10kEvCtrLastPollTime,
 * hwR10kEvCtrDiscontinuityTime) on its master's sysUpTime, and the
 * hwR10kEvCtrCounterDiscontinuity that goes with a discontinuity.
 *
 * A TimeStamp is the value of sysUpTime at an event, 0 if the event was
 * before the last re-initialization of the management subsystem (RFC
 * 2579); for a subagent that subsystem is its master, as for IF-MIB's
 * ifCounterDiscontinuityTime.  The agent keeps when each event happened
 * on its own monotonic clock (struct stamps) and, at each connection to
 * a master, puts it on that master's sysUpTime, whose 0 the master's
 * uptime at the connection places on our clock:
 *  - an event after the master's re-initialization reads the master's
 *    sysUpTime at the event (at least 1);
 *  - an event before it reads 0;
 *  - a value already on that master's sysUpTime (a new session with the
 *    same master: a dropped session, a reload's new session), within a
 *    second of the recomputed one, is kept as it is: the recomputed one
 *    may differ by the master's rounding, and a manager keying on a
 *    change of hwR10kEvCtrDiscontinuityTime must see none.
 * The agent's own start, its first reading, is a discontinuity: its
 * counters start from 0 again.  Started under a running master (killed
 * and restarted, upgraded, started after snmpd at boot),
 * hwR10kEvCtrDiscontinuityTime is the master's sysUpTime at the agent's
 * first poll, and one hwR10kEvCtrCounterDiscontinuity ("the agent
 * started") is sent once the session is open.  Started before its master,
 * it reads 0 and nothing is sent: no counter of the agent's restarted
 * since that master's re-initialization.  A discontinuity while no
 * master is connected is notified when one connects, if it happened
 * after that master's re-initialization; each discontinuity at most
 * once.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdio.h>

#include "agent.h"
#include "session.h"
#include "stamps.h"

#define TICK_NS INT64_C(10000000) /* a TimeTicks hundredth */
/* How far a TimeStamp may be from its recomputed value and still be on
 * the same master's sysUpTime (the master's rounding, its Response's
 * way to us); on a restarted master's, it is ahead of it by the whole
 * life of the one before, or 0 when recomputed. */
#define SAME_MASTER_TICKS 100u

/* The event at ev_ns on the clock whose 0 is origin_ns. */
static uint32_t stamp_on(uint64_t ev_ns, int64_t origin_ns)
{
	if (!ev_ns || (int64_t)ev_ns <= origin_ns)
		return 0; /* never, or before the re-initialization */
	int64_t t = ((int64_t)ev_ns - origin_ns) / TICK_NS;
	return t < 1 ? 1 : (uint32_t)t;
}

/* The TimeStamp `old` of the event at ev_ns, on the master whose
 * sysUpTime is `up` and whose 0 is origin_ns. */
static uint32_t restamp(const struct stamps *st, uint32_t old, uint64_t ev_ns,
			int64_t origin_ns, uint32_t up)
{
	uint32_t fresh = stamp_on(ev_ns, origin_ns);
	uint32_t diff = old > fresh ? old - fresh : fresh - old;

	if (st->on_master && old && fresh && old <= up &&
	    diff <= SAME_MASTER_TICKS)
		return old; /* already on this master's sysUpTime */
	return fresh;
}

/* The last discontinuity, if a connected master has not been told yet
 * and it happened after that master's re-initialization. */
static void notify_pending(struct agent *a, bool at_connection)
{
	const struct cache *c = &a->cache;

	if (a->stamps.disc_notified || !agent_session_is_up(&a->session))
		return;
	a->stamps.disc_notified = true;
	if (!c->discontinuity_time)
		return; /* before the master's re-initialization */
	if (at_connection)
		snmp_log(LOG_NOTICE,
			 "counter discontinuity at sysUpTime %u: %s; notified "
			 "now that the master is connected\n",
			 (unsigned)c->discontinuity_time,
			 c->last_discontinuity);
	agent_notify_discontinuity(a);
}

void agent_stamps_polled(struct agent *a, bool first, bool disc)
{
	struct stamps *st = &a->stamps;
	struct cache *c = &a->cache;
	uint64_t now = backend_monotonic_ns();

	st->filled_ns = now;
	if (!first && !disc)
		return;
	if (first) { /* the counters start from 0 */
		c->discontinuity_time = c->last_poll_time;
		snprintf(c->last_discontinuity, sizeof(c->last_discontinuity),
			 "the agent started");
	}
	st->disc_ns = now;
	st->disc_notified = false;
	if (!first && !agent_session_is_up(&a->session))
		snmp_log(LOG_NOTICE,
			 "notify: no master connected; "
			 "hwR10kEvCtrCounterDiscontinuity will be sent when "
			 "one connects, if that master started before it\n");
	notify_pending(a, false);
}

void agent_stamps_master_connected(struct agent *a)
{
	struct stamps *st = &a->stamps;
	struct cache *c = &a->cache;
	uint32_t up = agent_session_uptime(&a->session);
	int64_t origin =
	    (int64_t)backend_monotonic_ns() - (int64_t)up * TICK_NS;

	c->last_poll_time =
	    restamp(st, c->last_poll_time, st->filled_ns, origin, up);
	uint32_t disc =
	    restamp(st, c->discontinuity_time, st->disc_ns, origin, up);
	cache_restamp(c, c->discontinuity_time, disc); /* CPUs', groups' */
	c->discontinuity_time = disc;
	st->on_master = true;
	DEBUGMSGTL(("hwr10k/poll",
		    "master at sysUpTime %u: last poll %u, discontinuity %u\n",
		    (unsigned)up, (unsigned)c->last_poll_time,
		    (unsigned)c->discontinuity_time));
	notify_pending(a, true);
}
