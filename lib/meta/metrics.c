/* metrics.c - expands lib/tables/metrics.def into the metrics table. */
#include "meta/metrics.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct metric meta_metrics[] = {
#define M(arc, name, kind, ev0, ev1, rev, perf, match, simrate)                \
	{arc,	    name, METRIC_PREFIX name, METRIC_##kind, ev0, ev1,         \
	 REV_##rev, perf, MATCH_##match,      simrate},
#include "tables/metrics.def"
#undef M
};

const size_t meta_metrics_count =
    sizeof(meta_metrics) / sizeof(meta_metrics[0]);

/* Counters are the metrics of kind COUNTER, in table order; the others
 * come first (arcs 1 and 2). */
enum {
	first_counter =
	    sizeof(meta_metrics) / sizeof(meta_metrics[0]) - COUNTER_COUNT
};

const struct metric *const meta_counters = meta_metrics + first_counter;

const struct metric *meta_metric_by_name(const char *fullname)
{
	size_t plen = strlen(METRIC_PREFIX);

	if (!fullname || strncmp(fullname, METRIC_PREFIX, plen) != 0)
		return NULL;
	for (size_t i = 0; i < meta_metrics_count; i++)
		if (strcmp(fullname + plen, meta_metrics[i].name) == 0)
			return &meta_metrics[i];
	return NULL;
}

int meta_counter_index_of(const struct metric *m)
{
	if (!m || m->kind != METRIC_COUNTER)
		return -1;
	return (int)(m - meta_metrics) - first_counter;
}

int meta_counter_index_by_name(const char *fullname)
{
	return meta_counter_index_of(meta_metric_by_name(fullname));
}

void meta_metric_fullname(const struct metric *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", METRIC_PREFIX, m->name);
}

void meta_metric_descriptor(const struct metric *m, const char *prefix,
			    char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", prefix);
	bool upper = true;

	for (const char *p = m->name; *p && n + 1 < len; p++) {
		if (*p == '.') {
			upper = true;
			continue;
		}
		buf[n++] = upper ? (char)toupper((unsigned char)*p) : *p;
		upper = false;
	}
	if (n < len)
		buf[n] = '\0';
}

int meta_cpurev_parse(const char *s, unsigned *major, unsigned *minor)
{
	unsigned long v[2];
	for (int i = 0; i < 2; i++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		v[i] = 0;
		for (; isdigit((unsigned char)*s); s++) {
			v[i] = v[i] * 10 + (unsigned long)(*s - '0');
			if (v[i] > CPUREV_PART_MAX)
				return -1;
		}
		if (*s++ != (i == 0 ? '.' : '\0'))
			return -1;
	}
	*major = (unsigned)v[0];
	*minor = (unsigned)v[1];
	return 0;
}

bool meta_metric_in_revision(const struct metric *m, const char *cpurev)
{
	unsigned major, minor;

	if (m->rev == REV_ALL || !cpurev ||
	    meta_cpurev_parse(cpurev, &major, &minor) != 0)
		return true;
	/* PCP's own threshold: major * 100 + minor >= 301 */
	bool from_3_1 = major > 3 || (major == 3 && minor >= 1);
	return m->rev == REV_FROM_3_1 ? from_3_1 : !from_3_1;
}
