/*
 * test_daemon.c - the pid file and the log file of agent/daemon.c on a
 * real file system, in a private directory.  The two races the code
 * guards against (a symlink planted again after each removal, a pid file
 * replaced between the open and the lock) are played deterministically
 * by wrapping unlink() and flock() (-Wl,--wrap): the wrapper does the
 * real call, then what the attacker (or the exiting holder) would do.
 */
#include "testenv.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "../../agent/daemon.h"
#include "logcapture.h" /* logbuf, assert_logged: net-snmp's log here */

/* the daemon's state, as struct agent holds it */
static struct daemon_state ds = DAEMON_STATE_INIT;
static char dir[64], pidpath[128], target[128];

int __real_unlink(const char *path);
int __real_flock(int fd, int op);
int __wrap_unlink(const char *path);
int __wrap_flock(int fd, int op);

static int unlinks, flocks;
static bool replant; /* unlink(pidpath) puts the symlink back */
static int replace; /* this many flock()s replace the file after */

int __wrap_unlink(const char *path)
{
	int r = __real_unlink(path);
	if (strcmp(path, pidpath) == 0) {
		unlinks++;
		if (replant)
			assert_int_equal(symlink(target, pidpath), 0);
	}
	return r;
}

int __wrap_flock(int fd, int op)
{
	int r = __real_flock(fd, op);
	flocks++;
	if (replace > 0) { /* a new file renamed over the one locked */
		replace--;
		char tmp[160];
		snprintf(tmp, sizeof(tmp), "%s.new", pidpath);
		int n = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
		assert_true(n >= 0);
		close(n);
		assert_int_equal(rename(tmp, pidpath), 0);
	}
	return r;
}

static int capture(int major, int minor, void *server, void *client)
{
	const struct snmp_log_message *m = server;
	strncat(logbuf, m->msg, sizeof(logbuf) - strlen(logbuf) - 1);
	return 0;
}

static int group_setup(void **state)
{
	snmp_enable_calllog();
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
			       capture, NULL);
	return 0;
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/hwr-daemon-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(pidpath, sizeof(pidpath), "%s/agent.pid", dir);
	snprintf(target, sizeof(target), "%s/victim", dir);
	logbuf[0] = '\0';
	unlinks = flocks = 0;
	replant = false;
	replace = 0;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	agent_daemon_pidfile_remove(&ds, pidpath); /* a lock a failed test left */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void assert_no_file(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
}

static char *read_all(const char *path)
{
	static char buf[128];
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

/* A symlink at the pid file's path is removed, never followed: the file
 * made in its place is new, regular, 0644 whatever the umask. */
static void planted_link_replaced(void **state)
{
	struct stat st;
	assert_int_equal(symlink(target, pidpath), 0);
	mode_t old = umask(077);
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 0);
	umask(old);
	assert_int_equal(unlinks, 1);
	assert_no_file(target);
	assert_int_equal(lstat(pidpath, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(logbuf, "");
}

/* A link planted again after each removal: three opens, then a refusal
 * that says why; the target is never created. */
static void link_replanted_gives_up(void **state)
{
	assert_int_equal(symlink(target, pidpath), 0);
	replant = true;
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 -1);
	assert_int_equal(unlinks, 3);
	assert_no_file(target);
	char want[256];
	snprintf(want, sizeof(want),
		 "%s: cannot write the pid file: %s\n", pidpath,
		 strerror(ELOOP));
	assert_string_equal(logbuf, want);
}

/* The file replaced after each lock (a holder exiting, another agent
 * starting): only the file at the path counts; five tries, then no. */
static void replaced_file_gives_up(void **state)
{
	replace = 100;
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 -1);
	assert_int_equal(flocks, 5);
	char want[256];
	snprintf(want, sizeof(want),
		 "%s: cannot write the pid file: it keeps being replaced\n",
		 pidpath);
	assert_string_equal(logbuf, want);
}

/* Replaced once only: the second try locks the file at the path, and
 * the pid goes into that one. */
static void replaced_once_then_locked(void **state)
{
	char want[32];
	replace = 1;
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 0);
	assert_int_equal(flocks, 2);
	assert_int_equal(agent_daemon_pidfile_write(&ds, pidpath), 0);
	snprintf(want, sizeof(want), "%ld\n", (long)getpid());
	assert_string_equal(read_all(pidpath), want);
	assert_string_equal(logbuf, "");
}

/* Another agent holds the lock: refused, naming the holder's pid; its
 * file keeps its content. */
static void held_names_holder(void **state)
{
	int fd = open(pidpath, O_RDWR | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "4242\n", 5), 5);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 -1);
	assert_logged("held by process 4242, another hw-r10kevctr-agent");
	assert_string_equal(read_all(pidpath), "4242\n");
	close(fd);
}

/* A longer stale pid leaves no byte behind. */
static void write_truncates_stale(void **state)
{
	char want[32];
	int fd = open(pidpath, O_WRONLY | O_CREAT, 0644);
	assert_int_equal(write(fd, "3883\n67890\n", 11), 11);
	close(fd);
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 0);
	assert_int_equal(agent_daemon_pidfile_write(&ds, pidpath), 0);
	snprintf(want, sizeof(want), "%ld\n", (long)getpid());
	assert_string_equal(read_all(pidpath), want);
	agent_daemon_pidfile_remove(&ds, pidpath);
	assert_no_file(pidpath);
}

/* Without the lock nothing is written. */
static void write_unlocked_refused(void **state)
{
	assert_int_equal(agent_daemon_pidfile_write(&ds, pidpath), -1);
	assert_logged("cannot write the pid file: not locked");
	assert_no_file(pidpath);
}

/* A file put at the path since the lock is another's: left alone. */
static void remove_only_ours(void **state)
{
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 0);
	assert_int_equal(__real_unlink(pidpath), 0);
	int fd = open(pidpath, O_WRONLY | O_CREAT, 0644);
	assert_int_equal(write(fd, "77\n", 3), 3);
	close(fd);
	agent_daemon_pidfile_remove(&ds, pidpath);
	assert_string_equal(read_all(pidpath), "77\n");
}

/* A FIFO at the path neither stalls the open nor is written. */
static void fifo_refused(void **state)
{
	assert_int_equal(mkfifo(pidpath, 0644), 0);
	assert_int_equal(agent_daemon_pidfile_lock(&ds, pidpath, (uid_t)-1, (gid_t)-1),
			 -1);
	assert_logged("cannot write the pid file: not a regular file");
}

/* The missing last directory is made 0755 whatever the umask; a missing
 * parent of it is an error that says so. */
static void directory_made(void **state)
{
	struct stat st;
	char sub[160], deep[200];
	snprintf(sub, sizeof(sub), "%s/run/agent.pid", dir);
	mode_t old = umask(077);
	assert_int_equal(agent_daemon_pidfile_lock(&ds, sub, (uid_t)-1, (gid_t)-1), 0);
	umask(old);
	agent_daemon_pidfile_remove(&ds, sub);
	snprintf(sub, sizeof(sub), "%s/run", dir);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	snprintf(deep, sizeof(deep), "%s/a/b/agent.pid", dir);
	assert_int_equal(agent_daemon_pidfile_lock(&ds, deep, (uid_t)-1, (gid_t)-1),
			 -1);
	assert_logged("cannot make its directory");
}

static void logfile_kinds(void **state)
{
	struct stat st;
	char log[160], fifo[160];
	snprintf(log, sizeof(log), "%s/agent.log", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	mode_t old = umask(077); /* 0640 whatever the umask */
	assert_int_equal(agent_daemon_logfile_check(log), 0); /* made */
	umask(old);
	assert_int_equal(stat(log, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(agent_daemon_logfile_check(log), 0); /* there: kept */
	assert_int_equal(agent_daemon_logfile_check("/dev/null"), LOGFILE_DEVICE);
	assert_int_equal(symlink(log, pidpath), 0);
	assert_int_equal(agent_daemon_logfile_check(pidpath), -1);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(agent_daemon_logfile_check(fifo), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(planted_link_replaced, setup,
						teardown),
		cmocka_unit_test_setup_teardown(link_replanted_gives_up, setup,
						teardown),
		cmocka_unit_test_setup_teardown(replaced_file_gives_up, setup,
						teardown),
		cmocka_unit_test_setup_teardown(replaced_once_then_locked,
						setup, teardown),
		cmocka_unit_test_setup_teardown(held_names_holder, setup,
						teardown),
		cmocka_unit_test_setup_teardown(write_truncates_stale, setup,
						teardown),
		cmocka_unit_test_setup_teardown(write_unlocked_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(remove_only_ours, setup,
						teardown),
		cmocka_unit_test_setup_teardown(fifo_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(directory_made, setup,
						teardown),
		cmocka_unit_test_setup_teardown(logfile_kinds, setup, teardown),
	};
	return cmocka_run_group_tests(tests, group_setup, NULL);
}
