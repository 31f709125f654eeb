/* privilege.h - -u/-g: dropping root once what needs it is open. */
#ifndef HWR10K_PRIVILEGE_H
#define HWR10K_PRIVILEGE_H

#include <stdbool.h>
#include <stddef.h>
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
int agent_privilege_resolve(struct privilege *p);
/*
 * Switch to p's group and user.  With keep_perfmon, CAP_PERFMON (and on
 * kernels before 5.8, which do not know it, CAP_SYS_ADMIN) stays
 * effective so the perf backend can open events again (hotplug, reload);
 * every other capability is gone.  -1 with a logged message.
 */
int agent_privilege_drop(struct privilege *p);

/*
 * Can p's user and group read these files (-t)?  Each one is opened for
 * reading, without blocking, by a child process that switched to them as
 * agent_privilege_drop does (when started as root with -u or -g; else by this
 * process as it is): the kernel's own answer, with the user's
 * supplementary groups, ACLs and any security module, where access(2)
 * would judge by the real ids and mode bits alone.  err: 0, an errno, or
 * READ_NOT_REGULAR when regular is asked for and the file is not one.
 * -1 when the child could not be run or switched (logged).
 */
#define READ_NOT_REGULAR -1
struct read_check {
	const char *path;
	bool regular;
	int err;
};
int agent_privilege_read_check(const struct privilege *p, struct read_check *c,
			       size_t n);

#endif
