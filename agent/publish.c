/*
 * publish.c - when a poll's reading becomes what requests see.
 *
 * A manager reads one poll's values in several requests: a walk is one
 * GETBULK after another, and net-snmp's master even sends each
 * repetition to the agent as an AgentX PDU of its own.  A poll folded in
 * between two of them would give the manager the counters of one poll
 * and hwR10kEvCtrCountingTime of the next, and a rate computed from the
 * two would be off by a whole poll.  So a reading that ends while
 * requests are coming is held until the master has been quiet for
 * PUBLISH_QUIET_MS, and for at most 90 % of a poll interval (and
 * PUBLISH_HOLD_MAX_MS): a burst of requests sees one poll, and a manager
 * that never stops asking still sees every poll, late by at most that
 * (a walk then may see two).
 * The reading's own time (the backend's clock) is what rates divide by,
 * so holding it changes no value.  This file decides; poll.c folds the
 * reading in (agent_poll_process) when it is not held or its time came.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "agent.h"

#define MS 1000000ull

static uint64_t hold_max_ns(const struct agent *a)
{
	uint64_t most = (uint64_t)a->cfg.poll_interval * 900 * MS;
	return most < PUBLISH_HOLD_MAX_MS * MS ? most : PUBLISH_HOLD_MAX_MS * MS;
}

void agent_publish_request_seen(struct agent *a)
{
	a->publish.last_request_ns = backend_monotonic_ns();
}

/* ns until the held reading is published, 0 when it is due now */
static uint64_t wait_ns(const struct agent *a, uint64_t now)
{
	const struct publish *p = &a->publish;
	uint64_t quiet_at = p->last_request_ns + PUBLISH_QUIET_MS * MS;
	uint64_t latest = p->since_ns + hold_max_ns(a);
	uint64_t at = quiet_at < latest ? quiet_at : latest;
	return at > now ? at - now : 0;
}

bool agent_publish_hold(struct agent *a, int rc)
{
	uint64_t now = backend_monotonic_ns();

	a->publish = (struct publish){.held = true,
				      .rc = rc,
				      .since_ns = now,
				      .last_request_ns =
					  a->publish.last_request_ns};
	if (wait_ns(a, now) == 0) {
		a->publish.held = false;
		return false;
	}
	DEBUGMSGTL(("hwr10k/poll", "reading held: requests are coming\n"));
	return true;
}

bool agent_publish_take(struct agent *a, bool now, int *rc)
{
	if (!a->publish.held ||
	    (!now && wait_ns(a, backend_monotonic_ns()) != 0))
		return false;
	a->publish.held = false;
	*rc = a->publish.rc;
	return true;
}

void agent_publish_timeout(const struct agent *a, struct timeval *tv)
{
	if (!a->publish.held)
		return;
	uint64_t ns = wait_ns(a, backend_monotonic_ns());
	uint64_t tv_ns = (uint64_t)tv->tv_sec * 1000 * MS +
			 (uint64_t)tv->tv_usec * 1000;
	if (ns < tv_ns) {
		tv->tv_sec = (time_t)(ns / (1000 * MS));
		tv->tv_usec = (suseconds_t)(ns % (1000 * MS) / 1000);
	}
}
