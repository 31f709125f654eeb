/*
 * bench_mibview.c - what a walk costs the agent, and how it scales.
 *
 * For N CPUs (default 16, 256, 4096) it fills a cache from the sim
 * backend, then times (1) a poll (backend read + cache update), (2) a
 * full GETNEXT walk of the module, as snmpwalk/snmpbulkwalk drive it, and
 * (3) random GETs of per-CPU cells; and it reports the cache's memory.
 * Lookups are binary searches, so the cost per GETNEXT should grow with
 * log N, not N.
 *
 * With --idle it times only polls, each after a second's sleep, as the
 * agent runs them at pollInterval 1 with no client: what its idle CPU is
 * made of (the caches, TLB and branch predictors have gone cold by then).
 *
 * usage: bench_mibview [--idle] [N...]        (see bench/README.md)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "cache/cache.h"
#include "view/mibview.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Polls of the sim backend into the cache: microseconds per poll; with
 * idle, each poll after a second's sleep (not timed). */
static double bench_polls(struct backend *b, struct cache *c, struct sample *s,
			  int polls, bool idle)
{
	double busy = 0;
	for (int i = 0; i < polls; i++) {
		if (idle)
			nanosleep(&(struct timespec){1, 0}, NULL);
		double t0 = now();
		backend_read(b, s);
		cache_sample_sort(s);
		cache_update(c, s, (uint32_t)i);
		busy += now() - t0;
	}
	return busy / polls * 1e6;
}

/* Full GETNEXT walks of the module: the varbinds of one walk; the time of
 * one walk and of one GETNEXT in *walk_s and *getnext_ns. */
static size_t bench_walks(const struct mib_view *view, int walks,
			  double *walk_s, double *getnext_ns)
{
	unsigned long cur[MIBVIEW_OID_MAX], next[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	size_t steps = 0, len, nlen;
	double t0 = now();

	for (int w = 0; w < walks; w++) {
		len = meta_root_len;
		for (unsigned i = 0; i < meta_root_len; i++)
			cur[i] = meta_root[i];
		while (view_getnext(view, cur, len, next, &nlen, &o, &v) ==
		       MV_OK) {
			memcpy(cur, next, nlen * sizeof(*cur));
			len = nlen;
			steps++;
		}
	}
	*walk_s = (now() - t0) / walks;
	*getnext_ns = (now() - t0) / (double)steps * 1e9;
	return steps / (size_t)walks;
}

/* Random GETs of per-CPU cells: nanoseconds per GET. */
static double bench_gets(const struct mib_view *view, unsigned ncpus)
{
	const struct mib_object *col = view_object("hwR10kEvCtrCpuFailBrmp");
	unsigned long oid[MIBVIEW_OID_MAX];
	const struct mib_object *o;
	struct mib_value v;
	int gets = 1000000;
	unsigned seed = 1;
	double t0 = now();

	for (int i = 0; i < gets; i++) {
		seed = seed * 1103515245u + 12345u;
		size_t n = view_oid(col, seed % ncpus, oid);
		if (view_get(view, oid, n, &o, &v) != MV_OK)
			abort();
	}
	return (now() - t0) / gets * 1e9;
}

static void open_sim(struct config *cfg, struct backend *b, unsigned ncpus)
{
	char cpus[16], err[256];

	config_defaults(cfg, backend_sections());
	snprintf(cpus, sizeof(cpus), "%u", ncpus);
	if (config_apply(cfg, "simCpus", cpus, err, sizeof(err)) != 0 ||
	    backend_open(b, cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_mibview: %u CPUs: %s\n", ncpus, err);
		exit(1);
	}
}

/* A poll, a walk, GETs and the cache's memory, all in a tight loop. */
static void bench_busy(struct backend *b, struct cache *c, struct sample *s,
		       unsigned ncpus)
{
	struct served served;
	double walk_s, getnext_ns;

	view_served_init(&served);
	view_served_configure(&served, "sim", 5, NULL);
	const struct mib_view view = {c, &served};

	double poll_us = bench_polls(b, c, s, ncpus >= 4096 ? 20 : 200, false);
	size_t steps =
	    bench_walks(&view, ncpus >= 4096 ? 3 : 20, &walk_s, &getnext_ns);
	double get_ns = bench_gets(&view, ncpus);
	printf("%6u CPUs: poll %9.1f us | walk %7zu objects %8.2f ms, %6.0f "
	       "ns/getnext | "
	       "get %5.0f ns | cache %8.1f KiB\n",
	       ncpus, poll_us, steps, walk_s * 1e3, getnext_ns, get_ns,
	       (double)(c->nrows * (sizeof(*c->rows) + sizeof(*c->offset)) +
			sizeof(*c)) /
		   1024.0);
}

static void bench(unsigned ncpus, bool idle)
{
	struct config cfg;
	struct backend b = {0};
	struct cache c;
	struct sample s = {0};

	open_sim(&cfg, &b, ncpus);
	cache_init(&c);
	if (idle) {
		bench_polls(&b, &c, &s, 2, false); /* rows and rates exist */
		printf("%6u CPUs: poll after 1 s idle %9.1f us (10 polls)\n",
		       ncpus, bench_polls(&b, &c, &s, 10, true));
	} else {
		bench_busy(&b, &c, &s, ncpus);
	}
	backend_close(&b);
	cache_free(&c);
	cache_sample_free(&s);
	config_free(&cfg);
}

int main(int argc, char **argv)
{
	static const unsigned defaults[] = {16, 256, 4096};
	bool idle = argc > 1 && strcmp(argv[1], "--idle") == 0;
	int first = idle ? 2 : 1, nsizes = argc - first;
	unsigned sizes[argc > 3 ? argc : 3];

	for (int i = 0; i < nsizes; i++) {
		const char *arg = argv[first + i];
		char *end;
		unsigned long n = strtoul(arg, &end, 10);
		if (*arg < '0' || *arg > '9' || *end || n < 1 || n > 4096) {
			fprintf(stderr,
				"bench_mibview: '%s' is not a CPU count "
				"(1..4096)\nusage: bench_mibview [--idle] "
				"[N...]\n",
				arg);
			return 1;
		}
		sizes[i] = (unsigned)n;
	}
	if (nsizes == 0) {
		nsizes = 3;
		memcpy(sizes, defaults, sizeof(defaults));
	}
	for (int i = 0; i < nsizes; i++)
		bench(sizes[i], idle);
	return 0;
}
