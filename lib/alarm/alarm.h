/*
 * alarm.h - threshold alarms with RMON alarmTable semantics (RFC 2819),
 * evaluated on 64-bit samples of the cache.
 *
 * Each alarm watches one counter: its sum, one CPU, or every CPU (one
 * state per CPU), as a rate per second over the poll interval or as the
 * absolute counter value; or a derived statistic (stats.h, "stat.NAME"),
 * absolute only (it is already per interval).  Rules:
 *  - the first valid sample may raise one startup alarm: rising if it is
 *    >= the rising threshold and the startup mode is rising or both,
 *    falling if it is <= the falling threshold and the mode is falling or
 *    both;
 *  - afterwards a rising alarm is raised when a sample is >= the rising
 *    threshold and no rising alarm was raised since the last falling one
 *    (or since start), and symmetrically for falling: one notification per
 *    crossing, re-armed only by the opposite crossing (hysteresis);
 *  - a sample across a counter discontinuity (a delta the cache marks
 *    invalid: reset, hotplug, reload) is dropped and counted, never
 *    evaluated.
 */
#ifndef HWR10K_ALARM_H
#define HWR10K_ALARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ALARM_NAME_MAX 32
#define ALARM_CPU_SUM  (-1) /* "the CPU" of a sum alarm */

enum alarm_scope { SCOPE_SUM = 1, SCOPE_CPU = 2, SCOPE_EACH_CPU = 3 };
enum alarm_type { TYPE_ABSOLUTE = 1, TYPE_RATE = 2 };
enum alarm_startup {
	STARTUP_RISING = 1,
	STARTUP_FALLING = 2,
	STARTUP_BOTH = 3
};
/* MIB hwR10kEvCtrAlarmState */
enum alarm_status {
	ALARM_WAITING = 1,
	ALARM_ARMED = 2,
	ALARM_RISEN = 3,
	ALARM_FALLEN = 4
};

#define ALARM_METRIC_MAX 63
/* hwR10kEvCtrAlarmOwner: OwnerString of RMON-MIB (RFC 2819), 0..127
 * octets; the config file's rows are the agent's own, "monitor" (RFC
 * 2819's convention for rows the probe itself creates). */
#define ALARM_OWNER_MAX	   127
#define ALARM_OWNER_CONFIG "monitor"

/* hwR10kEvCtrAlarmStorageType: StorageType of SNMPv2-TC (RFC 2579). */
enum alarm_storage {
	STORAGE_OTHER = 1,
	STORAGE_VOLATILE = 2,
	STORAGE_NONVOLATILE = 3,
	STORAGE_PERMANENT = 4, /* the config file's rows */
	STORAGE_READONLY = 5
};
/* hwR10kEvCtrAlarmRowStatus: the states of RowStatus (RFC 2579) a row
 * can be in. */
enum alarm_row {
	ROW_ACTIVE = 1,
	ROW_NOT_IN_SERVICE = 2,
	ROW_NOT_READY = 3
};
/* The columns without a default that a row created over SNMP was given
 * (a row of the config file or of the store has them all). */
#define ALARM_GIVEN_METRIC 1u
#define ALARM_GIVEN_RISING 2u
#define ALARM_GIVEN_CPU	   4u /* hwR10kEvCtrAlarmCpu >= 0 */
#define ALARM_GIVEN_ALL	   (ALARM_GIVEN_METRIC | ALARM_GIVEN_RISING)
/* What a complete definition (a config line, a stored row) was given. */
#define ALARM_GIVEN_OF(cfg)                                                    \
	(ALARM_GIVEN_ALL | ((cfg)->scope == SCOPE_CPU ? ALARM_GIVEN_CPU : 0))
/* Indexes: the config file's alarm lines are 1..ALARM_CONFIG_INDEX_MAX
 * in order; rows created over SNMP take the indexes above, up to
 * ALARM_INDEX_MAX (doc/alarms.md). */
#define ALARM_CONFIG_INDEX_MAX 1024u
#define ALARM_INDEX_MAX	       65535u

struct alarm_config {
	char name[ALARM_NAME_MAX + 1];
	char metric[ALARM_METRIC_MAX + 1]; /* as configured */
	int counter;			   /* counter index, or -1 */
	int stat;			   /* statistic index, or -1 */
	enum alarm_scope scope;
	unsigned cpu; /* SCOPE_CPU */
	enum alarm_type type;
	uint64_t rising, falling;
	enum alarm_startup startup;
};

/* One row of the alarm table, without its state: a config line made
 * permanent and active, or a row written over SNMP (lib/write/alarm_write.c)
 * or read back from the store (lib/write/alarm_store.c). */
struct alarm_def {
	uint32_t index;
	enum alarm_storage storage;
	enum alarm_row row;
	unsigned given; /* ALARM_GIVEN_* */
	struct alarm_config cfg;
	char owner[ALARM_OWNER_MAX + 1]; /* no NUL inside (DisplayString) */
};

/*
 * The one validity rule of a row, whichever way it came (a config line,
 * an SNMP set, the store) and whatever its status:
 *  - ALARM_FLAW_INCOMPLETE: no metric or no rising threshold yet (a row
 *    created over SNMP may be so while notReady, never otherwise);
 *  - ALARM_FLAW_STAT_RATE: a statistic sampled as a rate (it is already
 *    per poll interval): never;
 *  - ALARM_FLAW_CPU: the cpu scope without a CPU, or a CPU without the
 *    cpu scope: never (hwR10kEvCtrAlarmCpu is -1 unless the scope is
 *    cpu(2));
 *  - ALARM_FLAW_THRESHOLDS: falling >= rising: not while active (a row
 *    being set up over SNMP gets its thresholds one at a time).
 */
enum alarm_flaw {
	ALARM_FLAW_NONE = 0,
	ALARM_FLAW_INCOMPLETE,
	ALARM_FLAW_STAT_RATE,
	ALARM_FLAW_CPU,
	ALARM_FLAW_THRESHOLDS
};
enum alarm_flaw alarm_def_flaw(const struct alarm_def *d);
/* What is wrong, for a log line or a config error. */
const char *alarm_flaw_text(enum alarm_flaw f);

/* The state of one watched value (the sum, or one CPU). */
struct alarm_instance {
	int cpu;      /* ALARM_CPU_SUM or the CPU number */
	bool sampled; /* a valid sample was evaluated */
	bool rise_armed, fall_armed;
	enum alarm_status status;
	uint64_t value; /* last valid sample */
};

struct alarm {
	struct alarm_config cfg;
	uint32_t index; /* hwR10kEvCtrAlarmIndex */
	enum alarm_storage storage;
	enum alarm_row row; /* only active rows are evaluated */
	unsigned given;	    /* ALARM_GIVEN_* */
	char owner[ALARM_OWNER_MAX + 1];
	/* notReady: since when (the writer's clock, seconds), for the age
	 * after which an unfinished row is removed (RFC 2579) */
	uint64_t not_ready_since;
	struct alarm_instance *inst; /* sorted by cpu */
	size_t ninst;
	uint32_t events;  /* notifications raised */
	uint32_t dropped; /* samples dropped across discontinuities */
	/* SCOPE_CPU: the log said once that the CPU is absent */
	bool cpu_absent_logged;
	/* the last crossing, for the notification's varbinds */
	int event_cpu;
	uint64_t event_value, event_threshold;
};

struct alarm_set {
	struct alarm *alarm; /* sorted by index */
	size_t count;
};

enum alarm_event_kind { ALARM_EVENT_RISING, ALARM_EVENT_FALLING };

/* The transition of one instance for one valid sample (pure, no I/O). */
int alarm_step(const struct alarm_config *cfg, struct alarm_instance *in,
	       uint64_t value, enum alarm_event_kind *kind);

/*
 * Build a set from configs (indexes 1..n, permanent, active, owner
 * "monitor") and rows (any order, no index twice, none of 1..n: the
 * stored rows and the rows kept at a reload), with the state of `old`
 * (may be NULL): the evaluation state of alarms active on the same
 * settings at the same index, and the counters (Events, Dropped) and
 * last event of every row of the same index, which never go backwards
 * while the row exists.
 */
int alarm_set_build_rows(struct alarm_set *set,
			 const struct alarm_config *cfgs, size_t n,
			 const struct alarm_def *rows, size_t nrows,
			 const struct alarm_set *old);
/* One row the table gets, loses or gets back (lib/write/alarm_write.c). */
struct alarm_edit {
	uint32_t index;
	/* the row as it will be, with the state of the table's row (as
	 * alarm_set_build_rows); NULL with was NULL: gone */
	const struct alarm_def *def;
	/* else this whole row, state included (an undo puts a row back as
	 * it was; its counters never below the table's) */
	const struct alarm *was;
	uint64_t now; /* the writer's clock, for a row becoming notReady */
};
/* cur with the edits (sorted by index, one per index) into out; linear
 * in rows + edits.  -1 when out of memory (out empty, cur unchanged). */
int alarm_set_edit(struct alarm_set *out, const struct alarm_set *cur,
		   const struct alarm_edit *e, size_t n);
/* The same with configs only. */
int alarm_set_build(struct alarm_set *set, const struct alarm_config *cfgs,
		    size_t n, const struct alarm_set *old);
/* One row, state included, into to (taken as empty); -1 out of memory. */
int alarm_copy(struct alarm *to, const struct alarm *from);
/* A deep copy (state included); -1 when out of memory. */
int alarm_set_copy(struct alarm_set *to, const struct alarm_set *from);
void alarm_set_free(struct alarm_set *set);
/* The alarm with this index; NULL if none. */
struct alarm *alarm_set_find(const struct alarm_set *set, uint32_t index);
/* The position of the first alarm with an index > index (count if none). */
size_t alarm_set_after(const struct alarm_set *set, uint64_t index);
/* hwR10kEvCtrAlarmNextIndex: the lowest index from ALARM_CONFIG_INDEX_MAX
 * + 1 that no row has and whose default name (alarm_default_name) no
 * row has either, so that a row created there without a name can be
 * created; 0 when there is none.  Linear in the rows. */
uint32_t alarm_set_next_index(const struct alarm_set *set);
/* The name a row created over SNMP at index gets when none is written:
 * "alarmINDEX" into buf (ALARM_NAME_MAX + 1). */
void alarm_default_name(uint32_t index, char *buf, size_t len);
/* The index whose default name name is (1..ALARM_INDEX_MAX), else 0. */
uint32_t alarm_default_name_index(const char *name);
/* Rows created over SNMP in the table (not the config file's). */
size_t alarm_rows_created(const struct alarm_set *set);
/* A row's definition. */
struct alarm_def alarm_def_of(const struct alarm *a);
/* Do two configs agree on everything an alarm is evaluated on? */
bool alarm_config_same(const struct alarm_config *a,
		       const struct alarm_config *b);

/* Table view: the row's summary status and value (max over CPUs). */
enum alarm_status alarm_status_of(const struct alarm *a);
bool alarm_value_of(const struct alarm *a, uint64_t *value);

/* Parse "NAME METRIC SCOPE TYPE RISING FALLING [STARTUP]": a config
 * line, an active row (alarm_def_flaw). */
int alarm_config_parse(const char *args, struct alarm_config *out, char *err,
		       size_t errlen);
/* The same words into d's definition (complete: d->given), checked by
 * the rule for a row of d->row (lib/write/alarm_store.c). */
int alarm_words_parse(const char *args, struct alarm_def *d, char *err,
		      size_t errlen);
/* NAME's rule: 1-32 of A-Z a-z 0-9 . _ - */
bool alarm_name_valid(const char *name, size_t len);
/* METRIC into cfg's metric, counter and stat; -1 if it names neither a
 * counter nor a statistic. */
int alarm_metric_set(struct alarm_config *cfg, const char *metric,
		     size_t len);

#endif
