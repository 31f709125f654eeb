/* privilege.h - -u/-g: dropping root once what needs it is open. */
#ifndef HWR10K_PRIVILEGE_H
#define HWR10K_PRIVILEGE_H

#include <stdbool.h>
#include <sys/types.h>

struct privilege {
	const char *user, *group; /* -u, -g as given; NULL = not given */
	const char *logfile;	  /* -Lf: handed over, so SIGHUP reopens it */
	uid_t uid;
	gid_t gid;
	bool dropped;	   /* the switch happened */
	bool keep_perfmon; /* CAP_PERFMON kept across it (perf backend) */
};

/* Resolve names or numbers; -1 with a message on stderr. */
int privilege_resolve(struct privilege *p);
/*
 * Switch to p's group and user.  With keep_perfmon, CAP_PERFMON (and on
 * kernels before 5.8, which do not know it, CAP_SYS_ADMIN) stays
 * effective so the perf backend can open events again (hotplug, reload);
 * every other capability is gone.  -1 with a logged message.
 */
int privilege_drop(struct privilege *p);

#endif
