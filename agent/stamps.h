/*
 * stamps.h - the TimeStamps (hwR10kEvCtrLastPollTime,
 * hwR10kEvCtrDiscontinuityTime) on the master's sysUpTime, and the
 * discontinuity notification that goes with them (stamps.c).
 */
#ifndef HWR10K_STAMPS_H
#define HWR10K_STAMPS_H

#include <stdbool.h>
#include <stdint.h>

/* When (CLOCK_MONOTONIC, ns; 0 = never) the cache was last filled and
 * last suffered a discontinuity, the agent's own start included; whether
 * a master was ever connected (before, the TimeStamps are on the agent's
 * own clock); whether the last discontinuity was notified (or needs no
 * notification). */
struct stamps {
	uint64_t filled_ns, disc_ns;
	bool on_master;
	bool disc_notified;
};

struct agent;

/* A poll filled the cache (cache_update); first: it was the agent's
 * first reading, disc: cache_update noted a discontinuity. */
void agent_stamps_polled(struct agent *a, bool first, bool disc);
/* The session registered with a master: the TimeStamps are put on its
 * sysUpTime, and a discontinuity not yet notified is notified. */
void agent_stamps_master_connected(struct agent *a);

#endif
