/*
 * daemon.c - detaching from the terminal, the pid file and the log file,
 * written so that nothing planted beside them is followed or overwritten.
 *
 * The parent waits until the daemon says it is serving (or failed), so the
 * exit status of a daemonizing start is the truth, pid file included.
 * The pid file is locked (flock) before anything else starts, as snmpd and
 * lldpd do: a second instance with the same pid file says who holds it
 * and exits 1, leaving the first its file and its master session.
 *
 * Until the daemon is ready, whatever it logs at LOG_WARNING or worse
 * also goes to the terminal it was started from (as sshd does before it
 * detaches), whatever -L says: a start that fails, with -LSid for
 * instance, says why where it was typed, not only in syslog.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "daemon.h"

void agent_daemon_std_fds(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDWR) != fd) /* the lowest free fd */
			break; /* no /dev/null: nothing better to do */
}

static void to_dev_null(bool keep_stderr)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	if (!keep_stderr)
		dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

void agent_daemon_early_stderr(struct daemon_state *d)
{
	if (snmp_stderrlog_status())
		return; /* -Le: it is there already */
	d->early_stderr = netsnmp_register_loghandler(NETSNMP_LOGHANDLER_STDERR,
						   LOG_WARNING);
}

int agent_daemon_detach(struct daemon_state *d)
{
	int p[2];

	d->keep_stderr = !d->early_stderr && snmp_stderrlog_status();
	if (pipe(p) != 0) {
		snmp_log(LOG_ERR, "daemon: pipe: %s\n", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snmp_log(LOG_ERR, "daemon: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid > 0) { /* the parent: exit with the daemon's verdict */
		char ok = 1;
		close(p[1]);
		while (read(p[0], &ok, 1) < 0 && errno == EINTR)
			;
		_exit(ok == 0 ? 0 : 1);
	}
	close(p[0]);
	setsid();
	pid = fork(); /* not a session leader: never gets a terminal */
	if (pid < 0)
		_exit(1);
	if (pid > 0)
		_exit(0); /* the parent still waits on the pipe */
	if (chdir("/") != 0)
		snmp_log(LOG_WARNING, "daemon: chdir /: %s\n", strerror(errno));
	return p[1];
}

void agent_daemon_ready(struct daemon_state *d, int fd, bool ok)
{
	char c = ok ? 0 : 1;
	if (fd < 0)
		return;
	if (ok) { /* serving: the terminal is no longer ours */
		if (d->early_stderr)
			netsnmp_remove_loghandler(d->early_stderr);
		d->early_stderr = NULL;
		to_dev_null(d->keep_stderr);
	}
	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
	close(fd);
}

/* The pid file's directory, made when it is missing (its parent must
 * exist): owned by the user the agent becomes, so it can remove the file
 * at exit.  An existing directory is left as it is. */
static int pid_dir(const char *path, uid_t owner, gid_t group)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0755) != 0)
		return errno == EEXIST ? 0 : -1;
	/* 0755 whatever the umask (a unit's UMask=0077): readers of the
	 * pid file (logrotate, an init script) must reach it */
	if (chmod(dir, 0755) != 0)
		return -1;
	if ((owner != (uid_t)-1 || group != (gid_t)-1) &&
	    chown(dir, owner, group) != 0) {
		snmp_log(LOG_ERR, "%s: cannot hand the directory over: %s\n",
			 dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* PATH opened for the pid, never through a planted link: a symlink there
 * is removed and a file made in its place (O_NONBLOCK: a FIFO planted
 * there cannot stall the open; it is refused as not a regular file). */
static int open_pidfile(const char *path)
{
	for (int tries = 0; tries < 3; tries++) {
		int fd = open(path,
			      O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
				  O_NONBLOCK,
			      0644);
		if (fd >= 0 || errno != ELOOP)
			return fd;
		if (unlink(path) != 0 && errno != ENOENT)
			return -1;
	}
	errno = ELOOP;
	return -1;
}

/* Who holds the pid file (its content), for the refusal's message. */
static long pidfile_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* The pid file opened and locked at path; fd, or -1 logged (held by
 * another agent, not a regular file, cannot be opened).  *st: its
 * identity, to see that it is still the file at path. */
static int open_locked(const char *path, struct stat *st)
{
	int fd = open_pidfile(path);
	if (fd < 0) {
		snmp_log(LOG_ERR, "%s: cannot write the pid file: %s\n", path,
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		snmp_log(LOG_ERR,
			 "%s: cannot write the pid file: not a regular file\n",
			 path);
		close(fd);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		long holder = pidfile_holder(fd);
		close(fd);
		if (e == EWOULDBLOCK)
			snmp_log(LOG_ERR,
				 "%s: held by process %ld, another "
				 "hw-r10kevctr-agent with this pid file; not "
				 "starting\n",
				 path, holder);
		else
			snmp_log(LOG_ERR, "%s: cannot lock the pid file: %s\n",
				 path, strerror(e));
		return -1;
	}
	return fd;
}

int agent_daemon_pidfile_lock(struct daemon_state *d, const char *path, uid_t owner,
		       gid_t group)
{
	if (pid_dir(path, owner, group) != 0) {
		snmp_log(LOG_ERR,
			 "%s: cannot write the pid file: cannot make its "
			 "directory: %s\n",
			 path, strerror(errno));
		return -1;
	}
	for (int tries = 0; tries < 5; tries++) {
		struct stat st, now;
		int fd = open_locked(path, &st);
		if (fd < 0)
			return -1;
		/* the holder before us may have removed it at exit between
		 * our open and our lock: only the file at path counts */
		if (stat(path, &now) == 0 && now.st_dev == st.st_dev &&
		    now.st_ino == st.st_ino) {
			if (fchmod(fd, 0644) != 0)
				snmp_log(LOG_WARNING, "%s: chmod 0644: %s\n",
					 path, strerror(errno));
			d->pid_fd = fd;
			return 0;
		}
		close(fd);
	}
	snmp_log(LOG_ERR, "%s: cannot write the pid file: it keeps being "
			  "replaced\n",
		 path);
	return -1;
}

int agent_daemon_pidfile_write(const struct daemon_state *d, const char *path)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (d->pid_fd < 0 || ftruncate(d->pid_fd, 0) != 0 ||
	    pwrite(d->pid_fd, buf, (size_t)len, 0) != len) {
		snmp_log(LOG_ERR, "%s: cannot write the pid file: %s\n", path,
			 d->pid_fd < 0 ? "not locked" : strerror(errno));
		return -1;
	}
	return 0;
}

void agent_daemon_pidfile_remove(struct daemon_state *d, const char *path)
{
	struct stat ours, now;

	if (d->pid_fd < 0)
		return; /* never another instance's file: we hold no lock */
	/* only the file we locked: not one put in its place since */
	if (fstat(d->pid_fd, &ours) == 0 && stat(path, &now) == 0 &&
	    ours.st_dev == now.st_dev && ours.st_ino == now.st_ino &&
	    unlink(path) != 0) {
		/* after -u a root-owned directory forbids the unlink: empty
		 * the file (no stale pid) and say so */
		int e = errno;
		bool emptied = ftruncate(d->pid_fd, 0) == 0;
		snmp_log(LOG_WARNING,
			 "%s: cannot remove the pid file (%s)%s; give the "
			 "agent a pid file directory of its own, such as "
			 "/run/hw-r10kevctr\n",
			 path, strerror(e), emptied ? "; emptied it" : "");
	}
	close(d->pid_fd);
	d->pid_fd = -1;
}

int agent_daemon_logfile_check(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0) {
		/* a character device (/dev/null, a console) is written as it
		 * is, as snmpd's -Lf does: never created, handed over (-u)
		 * or reopened, so /dev/null stays root's */
		if (S_ISCHR(st.st_mode))
			return LOGFILE_DEVICE;
		if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
			fprintf(stderr,
				"%s: the log file is %s; refusing to write "
				"there\n",
				path,
				S_ISLNK(st.st_mode) ? "a symbolic link"
						    : "not a regular file");
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	/* Create it ourselves: new (O_EXCL), not through a link, mode 0640
	 * whatever the umask; net-snmp then opens the file that is there. */
	int fd = open(
	    path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
	if (fd < 0 || fchmod(fd, 0640) != 0) {
		fprintf(stderr, "%s: cannot create the log file: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
