/* alarm_eval.h - samples the cache for every alarm after each poll. */
#ifndef HWR10K_ALARM_EVAL_H
#define HWR10K_ALARM_EVAL_H

#include "alarm/alarm.h"
#include "cache/cache.h"

/* Called for each crossing; a->event_* describe it, index is the
 * alarm's hwR10kEvCtrAlarmIndex. */
typedef void (*alarm_emit_fn)(void *ctx, const struct alarm *a, size_t index,
			      enum alarm_event_kind kind);

/*
 * Evaluate every alarm of the set on the cache's last poll; returns the
 * number of notifications emitted.  Samples across a discontinuity are
 * dropped (and logged); they never raise an alarm.
 */
unsigned alarm_evaluate(const struct cache *c, struct alarm_set *alarms,
			alarm_emit_fn emit, void *ctx);

#endif
