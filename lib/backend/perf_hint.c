/*
 * perf_hint.c - what counts on a host where no configured perf event does.
 *
 * Most virtual machines and containers have no hardware PMU: every
 * hardware, hw_cache and raw event fails with ENOENT and the agent serves
 * state -1.  The kernel's software events count there all the same, and
 * on x86 so does the msr PMU (the time-stamp counter, and aperf/mperf
 * where the hypervisor passes them through).  This file probes that short
 * fixed list on one CPU and says which count and how to use them: the
 * config lines below are the ones doc/perf-mapping.md ("Hosts without a
 * PMU") gives, chosen here from what really opened.
 */
#include "backend/perf_hint.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "util/log.h"
#include "backend/perf_cpu.h"
#include "backend/perfspec.h"

/* The software events that count everywhere perf_event_open works. */
static const struct {
	const char *name, *what;
} software[] = {
    {"cpu-clock", "time, ns per CPU"},
    {"task-clock", "time, ns per CPU"},
    {"page-faults", "page faults"},
    {"context-switches", "context switches"},
    {"cpu-migrations", "task migrations between CPUs"},
};

/* The stand-ins each config line takes, the first that counts. */
static const struct {
	const char *metric;
	const char *prefer[3];
} stand_ins[] = {
    {"hw.r10kevctr.cycles", {"msr/aperf", "msr/tsc", "software:cpu-clock"}},
    {"hw.r10kevctr.tlb", {"software:page-faults", NULL, NULL}},
};

/* Add key/spec if it opens on cpu. */
static void try_event(struct perf_hint *h, const char *sysfs, int cpu,
		      const char *key, const char *spec, const char *what)
{
	struct perfspec sp;
	char err[200];

	if (h->n == PERF_HINT_MAX ||
	    backend_perfspec_parse(spec, sysfs, &sp, err, sizeof(err)) != 0 ||
	    backend_perf_probe(&sp, cpu) != 0)
		return;
	snprintf(h->key[h->n], sizeof(h->key[h->n]), "%s", key);
	snprintf(h->spec[h->n], sizeof(h->spec[h->n]), "%s", spec);
	h->what[h->n++] = what;
}

/* The msr PMU's events: files NAME holding "event=0xNN" (NAME.unit and
 * the like are attributes of NAME). */
static void try_msr(struct perf_hint *h, const char *sysfs, int cpu)
{
	char dir[300], path[600], line[64], key[40], spec[40];
	unsigned config;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/msr/events",
		 sysfs);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '.') ||
		    strlen(e->d_name) > 16)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "r");
		int ok = f && fgets(line, sizeof(line), f) &&
			 sscanf(line, "event=%x", &config) == 1;
		if (f)
			fclose(f);
		if (!ok)
			continue;
		snprintf(key, sizeof(key), "msr/%s", e->d_name);
		snprintf(spec, sizeof(spec), "msr:0x%02x", config);
		try_event(h, sysfs, cpu, key, spec,
			  strcmp(e->d_name, "tsc") == 0
			      ? "time-stamp counter ticks"
			      : "x86 model-specific register");
	}
	closedir(d);
}

void backend_perf_hint_probe(const char *sysfs, int cpu, struct perf_hint *h)
{
	char key[40];

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < sizeof(software) / sizeof(*software); i++) {
		snprintf(key, sizeof(key), "software:%s", software[i].name);
		try_event(h, sysfs, cpu, key, key, software[i].what);
	}
	try_msr(h, sysfs, cpu);
}

/* The spec of the first stand-in of line i that counts; NULL if none. */
static const char *stand_in(const struct perf_hint *h, size_t i)
{
	for (int p = 0; p < 3 && stand_ins[i].prefer[p]; p++)
		for (unsigned k = 0; k < h->n; k++)
			if (strcmp(h->key[k], stand_ins[i].prefer[p]) == 0)
				return h->spec[k];
	return NULL;
}

#define NLINES (sizeof(stand_ins) / sizeof(*stand_ins))

/* "software:cpu-clock, ..., msr/tsc (msr:0x00)" into buf. */
static void list_events(const struct perf_hint *h, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < h->n && used < len; k++) {
		bool pmu = strchr(h->key[k], '/') != NULL; /* msr/tsc */
		used +=
		    (size_t)snprintf(buf + used, len - used, "%s%s%s%s%s",
				     k ? ", " : "", h->key[k], pmu ? " (" : "",
				     pmu ? h->spec[k] : "", pmu ? ")" : "");
	}
}

void backend_perf_hint_log(const struct perf_hint *h)
{
	char events[PERF_HINT_MAX * 64], lines[512] = "";
	size_t used = 0;

	list_events(h, events, sizeof(events));
	for (size_t i = 0; i < NLINES && used < sizeof(lines); i++)
		if (stand_in(h, i))
			used += (size_t)snprintf(
			    lines + used, sizeof(lines) - used,
			    "\"perfEvent %s %s\", ", stand_ins[i].metric,
			    stand_in(h, i));
	util_log(LOG_WARNING,
		 "perf: no usable performance counters on this machine (no "
		 "PMU for the configured events, as in most virtual machines "
		 "and containers); %s%s; %s%sor \"backend pcp\" "
		 "(doc/perf-mapping.md, \"Hosts without a PMU\")\n",
		 h->n ? "what counts here: " : "no event counts here", events,
		 used ? "to count, put in hw-r10kevctr.conf: " : "", lines);
}

void backend_perf_hint_print(const struct perf_hint *h, FILE *out)
{
	fprintf(out, "# No configured event counts on this host (no hardware "
		     "PMU, as in most virtual machines and containers).\n");
	if (h->n == 0)
		fprintf(out,
			"# No software or msr event counts here either.\n");
	else
		fprintf(out, "# These events count here (perfEvent syntax):\n");
	for (unsigned k = 0; k < h->n; k++)
		fprintf(out, "#   %-26s %s%s%s\n", h->spec[k], h->what[k],
			strchr(h->key[k], '/') ? ": " : "",
			strchr(h->key[k], '/') ? h->key[k] : "");
	bool any = false;
	for (size_t i = 0; i < NLINES; i++)
		if (stand_in(h, i)) {
			if (!any)
				fprintf(out, "# To count with them, put these "
					     "lines in hw-r10kevctr.conf "
					     "(doc/perf-mapping.md, \"Hosts "
					     "without a PMU\"):\n");
			any = true;
			fprintf(out, "perfEvent %s %s\n", stand_ins[i].metric,
				stand_in(h, i));
		}
	fprintf(out, "# Or read the host's counters through PCP: "
		     "backend pcp (doc/pcp.md).\n");
}
