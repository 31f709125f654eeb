/* metrics.h - the metrics table (lib/tables/metrics.def) as C data. */
#ifndef HWR10K_METRICS_H
#define HWR10K_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#define METRIC_PREFIX		     "hw.r10kevctr."
#define METRIC_DESCRIPTOR_PREFIX     "hwR10kEvCtr"
#define METRIC_CPU_DESCRIPTOR_PREFIX "hwR10kEvCtrCpu"
/* Longest descriptor we generate; SMIv2 wants descriptors <= 64 chars. */
#define METRIC_DESCRIPTOR_MAX 64

enum metric_kind { METRIC_STATE, METRIC_CPUREV, METRIC_COUNTER };
enum metric_rev { REV_ALL, REV_BEFORE_3_1, REV_FROM_3_1 };
enum metric_match { MATCH_NONE, MATCH_EXACT, MATCH_APPROX };

struct metric {
	unsigned arc;	      /* OID arc, never reused */
	const char *name;     /* after "hw.r10kevctr." */
	const char *fullname; /* "hw.r10kevctr." name */
	enum metric_kind kind;
	int event0, event1; /* R10000 event numbers, -1 = none */
	enum metric_rev rev;
	const char *perf; /* default perf spec, "" = none */
	enum metric_match match;
	unsigned long long sim_rate;
};

/* Every metric, in arc order. */
extern const struct metric meta_metrics[];
extern const size_t meta_metrics_count;

/*
 * Counters are numbered 0..COUNTER_COUNT-1 in arc order: this is the index
 * used by the cache, the backends and the per-CPU table.  The count is
 * the table's rows of kind COUNTER (a new row counts itself).
 */
#define METRIC_IS_COUNTER_STATE	  0
#define METRIC_IS_COUNTER_CPUREV  0
#define METRIC_IS_COUNTER_COUNTER 1
enum {
	COUNTER_COUNT = 0
#define M(arc, name, kind, ev0, ev1, rev, perf, match, simrate)                \
	+METRIC_IS_COUNTER_##kind
#include "tables/metrics.def"
#undef M
};
extern const struct metric
    *const meta_counters; /* counters[0..COUNTER_COUNT) */

/* Lookups by full name ("hw.r10kevctr.cycles"); NULL / -1 when unknown. */
const struct metric *meta_metric_by_name(const char *fullname);
int meta_counter_index_by_name(const char *fullname);
int meta_counter_index_of(const struct metric *m);

/* "hw.r10kevctr.fail.brmp" into buf. */
void meta_metric_fullname(const struct metric *m, char *buf, size_t len);
/* "hwR10kEvCtr" + FailBrmp (prefix chosen by caller) into buf. */
void meta_metric_descriptor(const struct metric *m, const char *prefix,
			    char *buf, size_t len);

/* Strict "MAJOR.MINOR" (decimal, each 0..CPUREV_PART_MAX); -1 if not. */
#define CPUREV_PART_MAX 65535
int meta_cpurev_parse(const char *s, unsigned *major, unsigned *minor);
/* Does CPU revision "major.minor" have this event?  Unknown revision: yes. */
bool meta_metric_in_revision(const struct metric *m, const char *cpurev);

#endif
