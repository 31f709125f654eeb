/*
 * alarms.c - the alarm table's rows beyond the config file: the store of
 * nonVolatile rows in net-snmp's persistent directory (SNMP_PERSISTENT_DIR,
 * or persistentDir; the package gives the agent /var/lib/hw-r10kevctr,
 * doc/alarms.md) and the writer that sets go through (lib/alarm_write.c).
 * At start and at every reload the table is the config's alarm lines plus
 * the stored rows: volatile rows end there, as they end at a restart.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#define STORE_FILE AGENT_NAME "-alarms.conf"

/* The writer's save: the directory made if it is missing (by the user
 * the agent runs as, mode 0700, as net-snmp makes its own), then the
 * file rewritten whole. */
static int save(void *ctx, const struct alarm_set *set, char *why, size_t len)
{
	struct agent *a = ctx;
	char *dir = strdup(a->store.path);

	if (dir)
		mkdirhier(dirname(dir), 0700, 0);
	free(dir);
	return alarm_store_save(&a->store, set, why, len);
}

int alarms_open(struct agent *a)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", get_persistent_directory(),
		 STORE_FILE);
	return alarm_store_init(&a->store, path);
}

void alarms_close(struct agent *a)
{
	alarm_write_reset(&a->writer);
	alarm_store_free(&a->store);
}

int alarms_build(struct agent *a, const struct config *cfg,
		 struct alarm_set *out, const struct alarm_set *old)
{
	struct alarm_def *rows = NULL;
	size_t n = 0;
	unsigned bad = 0;

	if (alarm_store_load(&a->store, &rows, &n, &bad) == 0 && (n || bad))
		snmp_log(bad ? LOG_WARNING : LOG_INFO,
			 "%s: %zu alarm row(s) created over SNMP loaded, %u "
			 "line(s) not loaded\n",
			 a->store.path, n, bad);
	int r =
	    alarm_set_build_rows(out, cfg->alarms, cfg->nalarms, rows, n, old);
	free(rows);
	return r;
}

void alarms_writer_configure(struct agent *a)
{
	const struct alarm_writer_env env = {
	    .enabled = a->cfg.alarm_set,
	    .max_rows = a->cfg.alarm_set_max_rows,
	    .save = save,
	    .ctx = a,
	};
	alarm_writer_init(&a->writer, &a->alarms, &env);
}
