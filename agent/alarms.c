/*
 * alarms.c - the alarm table's rows beyond the config file: the store of
 * nonVolatile rows in the agent's own state directory, and the writer
 * that sets go through (lib/write/alarm_write.c).
 *
 * The directory is SNMP_PERSISTENT_DIR when set (the package's unit and
 * init script set /var/lib/hw-r10kevctr), else HWR_STATE_DIR
 * ($(localstatedir)/lib/hw-r10kevctr): never net-snmp's persistentDir,
 * whose default /var/lib/snmp is snmpd's.  At start, before net-snmp's
 * library is initialized (it would make the directory as root) and
 * before -u takes effect, a missing directory is made for the agent's
 * user, mode 0700, so that it can write there once privileges are
 * dropped; net-snmp is given the same directory, and what its init makes
 * there as root (cert_indexes) is handed to the user before the switch.
 * --dump and -t make nothing: net-snmp's directory is /dev/null for them.
 *
 * At start the table is the config's alarm lines plus the stored rows.
 * At a reload it is the same, plus the rows the store does not keep
 * (volatile and notReady ones) from the running table: a config
 * management or logrotate SIGHUP does not end them; a restart does, as
 * RFC 2579 has it for volatile rows.  The config file wins a name: a
 * stored row with a config alarm's name is not loaded (kept in the file
 * as a comment, logged), a kept row with one is removed (logged).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

#define STORE_FILE AGENT_NAME "-alarms.conf"

static const char *store_dir(void)
{
	const char *env = getenv("SNMP_PERSISTENT_DIR");
	return env && *env ? env : HWR_STATE_DIR;
}

/* The directory: made for the agent's user when missing; refused when
 * it is a symlink or not a directory; a warning when another user owns
 * it (nothing could be kept). */
static void store_dir_prepare(const char *dir, uid_t uid, gid_t gid)
{
	struct stat sb;

	if (lstat(dir, &sb) != 0 && errno == ENOENT) {
		/* its parents as a system's directories (/usr/local/var/lib
		 * for a source install), the directory itself the user's */
		mkdirhier(dir, 0755, 1);
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			snmp_log(LOG_WARNING,
				 "alarm rows: cannot make the directory %s: "
				 "%s; rows created over SNMP with StorageType "
				 "nonVolatile cannot be kept\n",
				 dir, strerror(errno));
			return;
		}
		if (geteuid() == 0 && chown(dir, uid, gid) != 0)
			snmp_log(LOG_WARNING, "alarm rows: chown %s: %s\n",
				 dir, strerror(errno));
		snmp_log(LOG_INFO, "alarm rows: made %s (mode 0700, uid %u)\n",
			 dir, (unsigned)uid);
		return;
	}
	if (lstat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		snmp_log(LOG_WARNING,
			 "alarm rows: %s is not a directory (a symlink is not "
			 "followed); rows created over SNMP with StorageType "
			 "nonVolatile cannot be kept\n",
			 dir);
	else if (sb.st_uid != uid)
		snmp_log(LOG_WARNING,
			 "alarm rows: %s belongs to uid %u, not to the "
			 "agent's user (uid %u); rows created over SNMP with "
			 "StorageType nonVolatile cannot be kept there\n",
			 dir, (unsigned)sb.st_uid, (unsigned)uid);
}

/* The writer's clock: monotonic seconds. */
static uint64_t clock_s(void *ctx)
{
	struct timespec ts;
	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

static uid_t run_uid(const struct agent *a)
{
	return a->priv.user ? a->priv.uid : geteuid();
}

void agent_alarms_no_state_dir(void)
{
	/* /dev/null is a device under any uid: net-snmp's mkdirhier and
	 * its cert_indexes fail there quietly, nothing is created */
	set_persistent_directory("/dev/null");
}

/* A name net-snmp made in dir (a directory, or a file with one link:
 * never a link planted to another file) handed from root to uid:gid. */
static void hand_over(int dir, const char *name, uid_t uid, gid_t gid)
{
	struct stat sb;

	if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
	    sb.st_uid != 0 || (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) ||
	    (S_ISREG(sb.st_mode) && sb.st_nlink != 1))
		return;
	if (fchownat(dir, name, uid, gid, AT_SYMLINK_NOFOLLOW) != 0)
		snmp_log(LOG_WARNING, "state directory: chown %s: %s\n", name,
			 strerror(errno));
}

void agent_alarms_state_hand_over(const struct agent *a)
{
	uid_t uid = run_uid(a);
	gid_t gid = a->priv.user || a->priv.group ? a->priv.gid : getegid();
	struct stat sb;
	int fd = open(store_dir(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				       O_CLOEXEC);

	/* only in the agent's own directory, as root for another user */
	if (fd < 0 || geteuid() != 0 || uid == 0 || fstat(fd, &sb) != 0 ||
	    sb.st_uid != uid) {
		if (fd >= 0)
			close(fd);
		return;
	}
	hand_over(fd, "cert_indexes", uid, gid);
	int sub = openat(fd, "cert_indexes",
			 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = sub >= 0 ? fdopendir(sub) : NULL;
	for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			hand_over(sub, e->d_name, uid, gid);
	if (d)
		closedir(d);
	else if (sub >= 0)
		close(sub);
	close(fd);
}

void agent_alarms_state_dir(struct agent *a)
{
	const char *dir = store_dir();
	/* net-snmp's own files (its library makes cert_indexes at start)
	 * go there too, never into snmpd's /var/lib/snmp */
	setenv("SNMP_PERSISTENT_DIR", dir, 0);
	store_dir_prepare(dir, run_uid(a),
			  a->priv.user || a->priv.group ? a->priv.gid
							: getegid());
}

int agent_alarms_open(struct agent *a)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", store_dir(), STORE_FILE);
	return write_store_init(&a->store, path, run_uid(a));
}

void agent_alarms_close(struct agent *a)
{
	write_forget_sets(&a->writer);
	write_store_free(&a->store);
}

/* Is the name a config alarm's? */
static bool config_name(const struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nalarms; i++)
		if (strcmp(cfg->alarms[i].name, name) == 0)
			return true;
	return false;
}

/* Is the row's index or name among rows[0..n)? */
static bool stored_row(const struct alarm_def *rows, size_t n,
		       const struct alarm *r)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].index == r->index ||
		    strcmp(rows[i].cfg.name, r->cfg.name) == 0)
			return true;
	return false;
}

/* The running table's rows the store does not keep (volatile, notReady)
 * after rows[0..*n) (room for them made), unless the config or a stored
 * row has their index or name. */
static void keep_unstored(const struct config *cfg, const struct alarm_set *old,
			  struct alarm_def *rows, size_t *n)
{
	size_t stored = *n;
	for (size_t i = 0; old && i < old->count; i++) {
		const struct alarm *r = &old->alarm[i];
		if (r->storage == STORAGE_PERMANENT ||
		    write_store_keeps(r->storage, r->row))
			continue;
		if (config_name(cfg, r->cfg.name) ||
		    stored_row(rows, stored, r)) {
			snmp_log(LOG_WARNING,
				 "reload: alarm row %u (%s, %s) removed: the "
				 "config file or the store has its name or "
				 "index\n",
				 r->index, r->cfg.name,
				 write_format_storage(r->storage));
			continue;
		}
		rows[(*n)++] = alarm_def_of(r);
	}
}

int agent_alarms_build(struct agent *a, const struct config *cfg,
		       struct alarm_set *out, const struct alarm_set *old)
{
	struct alarm_def *rows = NULL, *more;
	size_t n = 0;
	unsigned bad = 0;

	if (write_store_load(&a->store, cfg->alarms, cfg->nalarms, &rows, &n,
			     &bad) == 0 &&
	    (n || bad))
		snmp_log(bad ? LOG_WARNING : LOG_INFO,
			 "%s: %zu alarm row(s) created over SNMP loaded, %u "
			 "line(s) not loaded\n",
			 a->store.path, n, bad);
	more = realloc(rows, (n + (old ? old->count : 0) + 1) * sizeof(*more));
	if (!more) {
		free(rows);
		return -1;
	}
	rows = more;
	keep_unstored(cfg, old, rows, &n);
	int r =
	    alarm_set_build_rows(out, cfg->alarms, cfg->nalarms, rows, n, old);
	free(rows);
	return r;
}

void agent_alarms_writer_configure(struct agent *a)
{
	const struct alarm_writer_env env = {
	    .enabled = a->cfg.alarm_set,
	    .max_rows = a->cfg.alarm_set_max_rows,
	    .not_ready_max_age = a->cfg.alarm_set_not_ready,
	    .clock = clock_s,
	    .store = &a->store, /* the writer saves each change there */
	};
	write_init(&a->writer, &a->alarms, &env);
}
