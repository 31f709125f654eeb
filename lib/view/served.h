/*
 * served.h - what the agent serves about itself, apart from the counter
 * cache: the backend's name, the poll interval, the errors counted, the
 * alarm set.  Changed only through these functions (agent/poll.c).
 */
#ifndef HWR10K_SERVED_H
#define HWR10K_SERVED_H

#include <stdint.h>

struct alarm_set;

struct served {
	char backend[33];
	unsigned poll_interval;		/* seconds */
	uint32_t poll_errors;		/* failed reads, skipped records */
	const struct alarm_set *alarms; /* the alarm table; may be NULL */
};

void view_served_init(struct served *s);
/* The running configuration's backend, interval and alarm set. */
void view_served_configure(struct served *s, const char *backend,
			   unsigned poll_interval,
			   const struct alarm_set *alarms);
/* n more poll errors (a failed read, bad records of a reading). */
void view_served_errors(struct served *s, unsigned n);

#endif
