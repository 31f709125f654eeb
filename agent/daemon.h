/* daemon.h - detach, pid file and log file, safely (daemon.c). */
#ifndef HWR10K_DAEMON_H
#define HWR10K_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

struct netsnmp_log_handler_s;

/* daemon.c's state (struct agent's; DAEMON_STATE_INIT before use). */
struct daemon_state {
	/* agent_daemon_early_stderr's handler, removed when the daemon is ready
	 */
	struct netsnmp_log_handler_s *early_stderr;
	bool keep_stderr; /* -L logs to stderr: keep it after ready */
	int pid_fd;	  /* the locked pid file, -1: none */
};
#define DAEMON_STATE_INIT {.pid_fd = -1}

/*
 * Open /dev/null on each of fds 0, 1 and 2 that is closed (as sshd's
 * sanitise_stdfd): else the first file or socket the agent opens takes
 * it, and a write to stderr lands there.  First thing in main().
 */
void agent_daemon_std_fds(void);
/*
 * A start that will detach: until agent_daemon_ready(fd, true), what is logged
 * at LOG_WARNING or worse goes to stderr too, unless -L sends it there
 * already.  Call after -L is applied.
 */
void agent_daemon_early_stderr(struct daemon_state *d);
/*
 * Fork into the background (new session, cwd /).  Returns, in the
 * daemon, the fd to pass to agent_daemon_ready(); the original process exits 0
 * when the daemon reports ready, 1 when it reports failure or dies first.
 * -1 on error.  agent_daemon_ready(fd, true) puts stdio on /dev/null (stderr
 * kept when -L logs there) before it reports.
 */
int agent_daemon_detach(struct daemon_state *d);
void agent_daemon_ready(struct daemon_state *d, int fd, bool ok);

/*
 * Open and lock the pid file (mode 0644, never through a planted link:
 * a symlink there is replaced) before the agent starts; -1 (logged) when
 * another process holds it, naming that process.  A missing last
 * directory (/run/hw-r10kevctr) is made, mode 0755, owned by owner:group
 * (-u/-g; (uid_t)-1 for none), so that the agent can still remove its
 * pid file after giving up root.  The file stays open and locked, across
 * agent_daemon_detach's forks, until the process exits.
 */
int agent_daemon_pidfile_lock(struct daemon_state *d, const char *path, uid_t owner,
		       gid_t group);
/* Write this process's pid into the locked file (after detaching). */
int agent_daemon_pidfile_write(const struct daemon_state *d, const char *path);
/* Remove the file this process locked (if it is still the one at path);
 * where the directory forbids that (a root-owned one after -u), empty it
 * through the open file and say so.  Call while logging still works. */
void agent_daemon_pidfile_remove(struct daemon_state *d, const char *path);

/* Before net-snmp opens -Lf PATH: refuse a symlink or a file that is
 * neither regular nor a character device, create a missing one with mode
 * 0640; 0 for a regular file, LOGFILE_DEVICE for a character device
 * (/dev/null: written as it is), -1 when refused.  Messages go to
 * stderr. */
#define LOGFILE_DEVICE 1
int agent_daemon_logfile_check(const char *path);

#endif
