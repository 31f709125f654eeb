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
	struct alarm *alarm; /* index + 1 = hwR10kEvCtrAlarmIndex */
	size_t count;
};

enum alarm_event_kind { ALARM_EVENT_RISING, ALARM_EVENT_FALLING };

/* The transition of one instance for one valid sample (pure, no I/O). */
int alarm_step(const struct alarm_config *cfg, struct alarm_instance *in,
	       uint64_t value, enum alarm_event_kind *kind);

/*
 * Build a set from configs, keeping the state of alarms whose config is
 * unchanged (same name and settings) from `old` (may be NULL).
 */
int alarm_set_build(struct alarm_set *set, const struct alarm_config *cfgs,
		    size_t n, const struct alarm_set *old);
void alarm_set_free(struct alarm_set *set);

/* Table view: the row's summary status and value (max over CPUs). */
enum alarm_status alarm_status_of(const struct alarm *a);
bool alarm_value_of(const struct alarm *a, uint64_t *value);

/* Parse "NAME METRIC SCOPE TYPE RISING FALLING [STARTUP]". */
int alarm_config_parse(const char *args, struct alarm_config *out, char *err,
		       size_t errlen);

#endif
