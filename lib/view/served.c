/* served.c - the agent's own served state (served.h). */
#include "view/served.h"

#include <stdio.h>
#include <string.h>

void view_served_init(struct served *s)
{
	memset(s, 0, sizeof(*s));
}

void view_served_configure(struct served *s, const char *backend,
			   unsigned poll_interval,
			   const struct alarm_set *alarms)
{
	snprintf(s->backend, sizeof(s->backend), "%s", backend);
	s->poll_interval = poll_interval;
	s->alarms = alarms;
}

void view_served_errors(struct served *s, unsigned n)
{
	s->poll_errors += n;
}
