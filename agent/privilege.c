/*
 * privilege.c - -u USER / -g GROUP, as snmpd does: the agent starts as
 * root, opens what needs privilege (the AgentX session, the perf events,
 * the pid and log files), then switches to USER/GROUP.
 *
 * Capabilities are set with the raw capset(2) call (no libcap): the
 * bounding set is cut to what is kept, no_new_privs is set, and the perf
 * backend keeps CAP_PERFMON, so events can be reopened after the switch
 * (a CPU coming back online, a reload that changes perfEvent lines); the
 * other backends keep nothing.  A reload that switches to perf after a
 * switch without CAP_PERFMON is refused by the agent (poll.c).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "privilege.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

static int parse_id(const char *s, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v >= (unsigned long)(uid_t)-1)
		return -1;
	*out = v;
	return 0;
}

int agent_privilege_resolve(struct privilege *p)
{
	unsigned long id;

	if (p->user) {
		struct passwd *pw = getpwnam(p->user);
		if (!pw && parse_id(p->user, &id) == 0)
			pw = getpwuid((uid_t)id);
		if (!pw) {
			fprintf(stderr, "-u %s: no such user\n", p->user);
			return -1;
		}
		p->uid = pw->pw_uid;
		p->gid = pw->pw_gid;
	} else {
		p->uid = getuid();
	}
	if (p->group) {
		struct group *gr = getgrnam(p->group);
		if (gr)
			p->gid = gr->gr_gid;
		else if (parse_id(p->group, &id) == 0)
			p->gid = (gid_t)id;
		else {
			fprintf(stderr, "-g %s: no such group\n", p->group);
			return -1;
		}
	} else if (!p->user) {
		p->gid = getgid();
	}
	return 0;
}

static int set_caps(unsigned cap)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (cap != 0) {
		d[cap / 32].effective = d[cap / 32].permitted = 1u
								<< (cap % 32);
	}
	return (int)syscall(SYS_capset, &h, d);
}

/* Is capability `cap` known to this kernel? */
static bool cap_known(unsigned cap)
{
	return prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0;
}

/* The bounding set down to `keep` (0: nothing), while still root: no
 * program this process could exec, setuid or not, regains more. */
static int bound_caps(unsigned keep)
{
	for (unsigned c = 0; cap_known(c); c++)
		if ((keep == 0 || c != keep) &&
		    prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0) {
			snmp_log(LOG_ERR,
				 "privileges: PR_CAPBSET_DROP %u: %s\n", c,
				 strerror(errno));
			return -1;
		}
	return 0;
}

/* The log file handed to the user and group, so that a SIGHUP can
 * reopen it after logrotate. */
static void hand_log_file(const struct privilege *p)
{
	if (p->logfile &&
	    chown(p->logfile, p->user ? p->uid : (uid_t)-1, p->gid) != 0)
		snmp_log(LOG_WARNING,
			 "%s: cannot hand the log file to %s: %s; a SIGHUP "
			 "may not reopen it\n",
			 p->logfile, p->user ? p->user : p->group,
			 strerror(errno));
}

/* The groups, the group and the user; -1 logged. */
static int switch_ids(const struct privilege *p)
{
	int rc = p->user ? initgroups(p->user, p->gid) : setgroups(1, &p->gid);
	if (rc != 0 && p->user) /* -u by number without a passwd name */
		rc = setgroups(1, &p->gid);
	if (rc != 0 || setgid(p->gid) != 0 ||
	    (p->user && setuid(p->uid) != 0)) {
		snmp_log(LOG_ERR, "privileges: cannot switch to %s%s%s: %s\n",
			 p->user ? p->user : "", p->group ? ":" : "",
			 p->group ? p->group : "", strerror(errno));
		return -1;
	}
	if (p->user && p->uid != 0 && setuid(0) == 0) {
		snmp_log(LOG_ERR, "privileges: could regain root; stopping\n");
		return -1;
	}
	return 0;
}

/* After the switch: a non-root user keeps only keep (root, -g alone,
 * keeps its own), and no exec can raise privileges; -1 logged. */
static int settle_caps(const struct privilege *p, unsigned keep)
{
	bool unprivileged = p->user && p->uid != 0;
	if (unprivileged && set_caps(keep) != 0) {
		snmp_log(LOG_ERR, "privileges: capset: %s\n", strerror(errno));
		return -1;
	}
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	/* setuid bits, file capabilities */
	if (unprivileged && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		snmp_log(LOG_ERR, "privileges: PR_SET_NO_NEW_PRIVS: %s\n",
			 strerror(errno));
		return -1;
	}
	return 0;
}

int agent_privilege_drop(struct privilege *p)
{
	if (!p->user && !p->group)
		return 0;
	unsigned keep = 0;
	if (p->keep_perfmon)
		keep = cap_known(CAP_PERFMON) ? CAP_PERFMON : CAP_SYS_ADMIN;
	bool unprivileged = p->user && p->uid != 0;
	if (unprivileged && bound_caps(keep) != 0)
		return -1;
	if (keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) {
		snmp_log(LOG_ERR, "privileges: PR_SET_KEEPCAPS: %s\n",
			 strerror(errno));
		return -1;
	}
	hand_log_file(p);
	if (switch_ids(p) != 0 || settle_caps(p, keep) != 0)
		return -1;
	if (!unprivileged)
		keep = 0;
	p->dropped = true;
	snmp_log(LOG_INFO, "running as uid %ld gid %ld%s\n", (long)p->uid,
		 (long)p->gid,
		 keep == CAP_PERFMON ? " with CAP_PERFMON"
		 : keep == CAP_SYS_ADMIN
		     ? " with CAP_SYS_ADMIN (no CAP_PERFMON "
		       "in this kernel)"
		     : "");
	return 0;
}

/* Each file of c opened for reading, as this process is. */
static void read_each(struct read_check *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		int fd = open(c[i].path,
			      O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		c[i].err = fd < 0 || fstat(fd, &st) != 0 ? errno
			   : c[i].regular && !S_ISREG(st.st_mode)
			       ? READ_NOT_REGULAR
			       : 0;
		if (fd >= 0)
			close(fd);
	}
}

/* The child: switch, read, send each err; never returns. */
static void read_as_child(const struct privilege *p, struct read_check *c,
			  size_t n, int out)
{
	if (switch_ids(p) != 0)
		_exit(2);
	read_each(c, n);
	for (size_t i = 0; i < n; i++)
		if (write(out, &c[i].err, sizeof(c[i].err)) !=
		    (ssize_t)sizeof(c[i].err))
			_exit(3);
	_exit(0);
}

int agent_privilege_read_check(const struct privilege *p, struct read_check *c,
			       size_t n)
{
	int fds[2], status = 0;

	if ((!p->user && !p->group) || geteuid() != 0) {
		read_each(c, n);
		return 0;
	}
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		read_as_child(p, c, n, fds[1]);
	}
	close(fds[1]);
	size_t got = 0;
	for (; pid > 0 && got < n; got++)
		if (read(fds[0], &c[got].err, sizeof(c[got].err)) !=
		    (ssize_t)sizeof(c[got].err))
			break;
	close(fds[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || got < n) {
		snmp_log(LOG_ERR, "config check: cannot read files as %s%s%s\n",
			 p->user ? p->user : "", p->group ? ":" : "",
			 p->group ? p->group : "");
		return -1;
	}
	return 0;
}
