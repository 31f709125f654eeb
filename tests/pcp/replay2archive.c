/*
 * replay2archive - writes a replay recording (doc/replay-format.md) as a
 * PCP archive with libpcp_import, the way PCP's IRIX PMDA would have
 * logged it: hw.help's metric names, counter semantics, count units,
 * 32-bit unsigned values (-w 64 for 64-bit), per-CPU values in an
 * instance domain whose instances are named cpuN, a counter recorded
 * with CPU '-' as a metric without instances, state a 32-bit integer and
 * cpurev a string.  Lines the replay backend would skip (unknown metric,
 * time going backwards, a value too wide, a malformed line) are skipped
 * here too, each named on stderr with FILE:LINE, so that the archive
 * holds exactly what the replay backend serves.
 *
 *   replay2archive [-w 32|64] [-m SET]... FILE.replay ARCHIVE
 *
 * -m SET writes a <mark> record after the SET-th sample set (1-based), as
 * pmlogger does where it stopped and started again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcp/pmapi.h>
#include <pcp/import.h>

#include "meta/metrics.h"

#define BASE_SEC  1000000000 /* the recording's TIME 0: 2001-09-09 */
#define DOMAIN	  1	     /* PCP's IRIX PMDA: 1.35.N */
#define CLUSTER	  35
#define MARKS_MAX 16

static bool added[COUNTER_COUNT + 2];
static unsigned width = 32;

static int die(const char *what, int sts)
{
	fprintf(stderr, "replay2archive: %s: %s\n", what, pmiErrStr(sts));
	exit(1);
}

/* The metric's index (counters, then COUNTER_COUNT state, +1 cpurev). */
static int metric_index(const char *name)
{
	if (strcmp(name, METRIC_PREFIX "state") == 0)
		return COUNTER_COUNT;
	if (strcmp(name, METRIC_PREFIX "cpurev") == 0)
		return COUNTER_COUNT + 1;
	return meta_counter_index_by_name(name);
}

/* The PMDA's item: the R10000 event number, fucomp 32 (it shares event
 * 14 with vcc); doc/pcp.md has the table. */
static int pmid_item(int k)
{
	return meta_counters[k].rev == REV_FROM_3_1 ? 32
						    : meta_counters[k].event0;
}

static void add_metric(const char *name, int k, bool per_cpu)
{
	pmUnits count = pmiUnits(0, 0, 1, 0, 0, PM_COUNT_ONE);
	pmUnits none = pmiUnits(0, 0, 0, 0, 0, 0);
	int sts;

	if (k == COUNTER_COUNT)
		sts =
		    pmiAddMetric(name, pmiID(DOMAIN, CLUSTER, 255), PM_TYPE_32,
				 PM_INDOM_NULL, PM_SEM_DISCRETE, none);
	else if (k == COUNTER_COUNT + 1)
		sts = pmiAddMetric(name, pmiID(DOMAIN, CLUSTER, 254),
				   PM_TYPE_STRING, PM_INDOM_NULL,
				   PM_SEM_DISCRETE, none);
	else
		sts = pmiAddMetric(name, pmiID(DOMAIN, CLUSTER, pmid_item(k)),
				   width == 32 ? PM_TYPE_U32 : PM_TYPE_U64,
				   per_cpu ? pmiInDom(DOMAIN, CLUSTER)
					   : PM_INDOM_NULL,
				   PM_SEM_COUNTER, count);
	if (sts < 0)
		die(name, sts);
	added[k] = true;
}

/* The value fits the metric's type; counters are unsigned decimal. */
static bool value_ok(int k, const char *v)
{
	char *end;
	if (k == COUNTER_COUNT + 1)
		return true;
	errno = 0;
	if (k == COUNTER_COUNT) {
		long x = strtol(v, &end, 10);
		return errno == 0 && *end == '\0' && x >= INT32_MIN &&
		       x <= INT32_MAX;
	}
	if (*v < '0' || *v > '9')
		return false;
	uintmax_t x = strtoumax(v, &end, 10);
	return errno == 0 && *end == '\0' && (width == 64 || x <= UINT32_MAX);
}

static bool instance(const char *cpu, char *inst, size_t len)
{
	static bool known[65536];
	char *end;
	unsigned long n = strtoul(cpu, &end, 10);

	if (*cpu < '0' || *cpu > '9' || *end || n > 65535)
		return false;
	snprintf(inst, len, "cpu%lu", n);
	if (!known[n] &&
	    pmiAddInstance(pmiInDom(DOMAIN, CLUSTER), inst, (int)n) < 0)
		return false;
	known[n] = true;
	return true;
}

/* One line: 1 put, 0 skipped (named on stderr). */
static int put_line(const char *file, unsigned line, char *t, char *cpu,
		    char *metric, char *value, double now)
{
	char inst[16] = "";
	int k = metric_index(metric);
	double tm = strtod(t, NULL);
	bool dash = strcmp(cpu, "-") == 0;
	const char *why = NULL;

	if (k < 0)
		why = "unknown metric";
	else if (tm < now)
		why = "time goes backwards";
	else if (!value_ok(k, value))
		why = "value does not fit the metric's type";
	else if (!dash &&
		 (k >= COUNTER_COUNT || !instance(cpu, inst, sizeof(inst))))
		why = "bad CPU";
	if (!why && !added[k])
		add_metric(metric, k, !dash);
	if (!why && pmiPutValue(metric, dash ? "" : inst, value) < 0)
		why = "libpcp_import refused it (a CPU '-' and a number for "
		      "one metric?)";
	if (why)
		fprintf(stderr, "%s:%u: %s; skipped\n", file, line, why);
	return why ? 0 : 1;
}

static void write_set(double tm, int set, const int *marks, int nmarks)
{
	double sec = BASE_SEC + tm;
	int sts = pmiWrite((int)sec, (int)((sec - (int)sec) * 1e6 + 0.5));
	if (sts < 0)
		die("pmiWrite", sts);
	for (int i = 0; i < nmarks; i++)
		if (marks[i] == set && (sts = pmiPutMark()) < 0)
			die("pmiPutMark", sts);
}

static int usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-w 32|64] [-m SET]... FILE ARCHIVE\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	int marks[MARKS_MAX], nmarks = 0, opt, sets = 0;

	while ((opt = getopt(argc, argv, "w:m:")) != -1) {
		if (opt == 'w')
			width = (unsigned)atoi(optarg);
		else if (opt == 'm' && nmarks < MARKS_MAX)
			marks[nmarks++] = atoi(optarg);
		else
			return usage(argv[0]);
	}
	if (argc - optind != 2 || (width != 32 && width != 64))
		return usage(argv[0]);
	FILE *in = fopen(argv[optind], "r");
	if (!in) {
		perror(argv[optind]);
		return 1;
	}
	int ctx = pmiStart(argv[optind + 1], 0);
	if (ctx < 0)
		die(argv[optind + 1], ctx);
	pmiSetHostname("r10k-recording");
	pmiSetTimezone("UTC");

	char buf[512], t[64], cpu[64], metric[128], value[128];
	unsigned line = 0;
	double now = -1;
	bool pending = false;
	while (fgets(buf, sizeof(buf), in)) {
		line++;
		if (buf[0] == '#' || buf[strspn(buf, " \t\r\n")] == '\0')
			continue;
		if (sscanf(buf, "%63s %63s %127s %127s", t, cpu, metric,
			   value) != 4) {
			fprintf(stderr, "%s:%u: malformed; skipped\n",
				argv[optind], line);
			continue;
		}
		double tm = strtod(t, NULL);
		if (pending && tm > now) {
			write_set(now, ++sets, marks, nmarks);
			pending = false;
		}
		if (put_line(argv[optind], line, t, cpu, metric, value, now)) {
			now = tm;
			pending = true;
		}
	}
	if (pending)
		write_set(now, ++sets, marks, nmarks);
	fclose(in);
	int sts = pmiEnd();
	if (sts < 0)
		die("pmiEnd", sts);
	printf("%s: %d sample sets\n", argv[optind + 1], sets);
	return 0;
}
