/* perfspec.c - perf event specification parser (syntax in perfspec.h). */
#include "backend/perfspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/parse.h"

#ifdef HAVE_LIBPFM
#include <dlfcn.h>
#include <perfmon/pfmlib_perf_event.h>

/*
 * libpfm4 is loaded on the first pfm: name, not linked: its event tables
 * are relocated at load time, about 2 MiB of resident pages that an agent
 * on the sim, replay or pcp backend (or perf without pfm: names) would
 * carry for nothing.  The soname is libpfm4's ABI, the one the headers
 * we build with describe.
 */
#define PFM_SONAME "libpfm.so.4"

struct pfm_api {
	pfm_err_t (*initialize)(void);
	pfm_err_t (*encode)(const char *, int, pfm_os_t, void *);
	const char *(*strerror)(int);
};

/* The loaded and initialised library; NULL with the reason in err. */
static const struct pfm_api *pfm_api(char *err, size_t len)
{
	static struct pfm_api api;
	static bool ready;

	if (ready)
		return &api;
	void *h = dlopen(PFM_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, len, "libpfm4 (%s) could not be loaded: %s",
			 PFM_SONAME, dlerror());
		return NULL;
	}
	/* POSIX: a function pointer is converted through the object
	 * pointer dlsym returns */
	*(void **)&api.initialize = dlsym(h, "pfm_initialize");
	*(void **)&api.encode = dlsym(h, "pfm_get_os_event_encoding");
	*(void **)&api.strerror = dlsym(h, "pfm_strerror");
	if (!api.initialize || !api.encode || !api.strerror) {
		snprintf(err, len, "%s lacks the libpfm4 functions used here",
			 PFM_SONAME);
		dlclose(h);
		return NULL;
	}
	if (api.initialize() != PFM_SUCCESS) {
		snprintf(err, len, "libpfm4 failed to initialise");
		dlclose(h);
		return NULL;
	}
	ready = true; /* stays loaded: its names are used again on reload */
	return &api;
}
#endif

struct name {
	const char *name;
	uint64_t config;
};

/* PERF_COUNT_HW_* */
static const struct name hardware[] = {
    {"cpu-cycles", 0},
    {"instructions", 1},
    {"cache-references", 2},
    {"cache-misses", 3},
    {"branch-instructions", 4},
    {"branch-misses", 5},
    {"bus-cycles", 6},
    {"stalled-cycles-frontend", 7},
    {"stalled-cycles-backend", 8},
    {"ref-cycles", 9},
    {NULL, 0},
};
/* PERF_COUNT_SW_* */
static const struct name software[] = {
    {"cpu-clock", 0},	     {"task-clock", 1},
    {"page-faults", 2},	     {"context-switches", 3},
    {"cpu-migrations", 4},   {"minor-faults", 5},
    {"major-faults", 6},     {"alignment-faults", 7},
    {"emulation-faults", 8}, {NULL, 0},
};
/* PERF_COUNT_HW_CACHE_*, _OP_*, _RESULT_* */
static const struct name caches[] = {
    {"l1d", 0},	 {"l1i", 1}, {"ll", 2},	  {"dtlb", 3},
    {"itlb", 4}, {"bpu", 5}, {"node", 6}, {NULL, 0},
};
static const struct name ops[] = {
    {"read", 0}, {"write", 1}, {"prefetch", 2}, {NULL, 0}};
static const struct name results[] = {{"access", 0}, {"miss", 1}, {NULL, 0}};

static int lookup(const struct name *t, const char *s, size_t n, uint64_t *out)
{
	for (; t->name; t++)
		if (strlen(t->name) == n && strncasecmp(t->name, s, n) == 0) {
			*out = t->config;
			return 0;
		}
	return -1;
}

static int fail(char *err, size_t len, const char *what, const char *term)
{
	return util_parse_fail(err, len, "%s in perf event '%s'", what, term);
}

static int parse_hex(const char *s, uint64_t *out)
{
	char *end;
	if (strncasecmp(s, "0x", 2) != 0 || !s[2])
		return -1;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return errno || *end ? -1 : 0;
}

static int parse_cache(const char *s, uint64_t *out)
{
	const char *d1 = strchr(s, '.'), *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
	uint64_t c, o, r;
	if (!d2 || lookup(caches, s, (size_t)(d1 - s), &c) ||
	    lookup(ops, d1 + 1, (size_t)(d2 - d1 - 1), &o) ||
	    lookup(results, d2 + 1, strlen(d2 + 1), &r))
		return -1;
	*out = c | o << 8 | r << 16;
	return 0;
}

/* A PMU's perf type from SYSFS/bus/event_source/devices/PMU/type. */
static int pmu_type(const char *sysfs, const char *pmu, size_t n, uint32_t *out)
{
	char path[512];
	unsigned t;
	if (n == 0 || memchr(pmu, '/', n))
		return -1;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%.*s/type",
		 sysfs, (int)n, pmu);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fscanf(f, "%u", &t) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*out = t;
	return 0;
}

bool backend_perfspec_pfm_built(void)
{
#ifdef HAVE_LIBPFM
	return true;
#else
	return false;
#endif
}

static int parse_pfm(const char *name, struct perf_term *t, char *err,
		     size_t len, const char *term)
{
#ifdef HAVE_LIBPFM
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char why[200];
	const struct pfm_api *pfm = pfm_api(why, sizeof(why));

	if (!pfm)
		return fail(err, len, why, term);
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	int rc = pfm->encode(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(err, len, "libpfm4: %s: '%s'", pfm->strerror(rc),
			 name);
		return -1;
	}
	t->type = attr.type;
	t->config = attr.config;
	t->hardware = attr.type != PT_SOFTWARE;
	return 0;
#else
	(void)name;
	(void)t;
	return fail(err, len,
		    "pfm: names need a build with libpfm4 "
		    "(libpfm4-dev)",
		    term);
#endif
}

static int parse_term(const char *term, const char *sysfs, struct perf_term *t,
		      char *err, size_t len)
{
	const char *colon = strchr(term, ':');
	if (!colon || !colon[1])
		return fail(err, len, "expected TYPE:EVENT", term);
	size_t tl = (size_t)(colon - term);
	const char *ev = colon + 1;

	t->hardware = true;
	if (tl == 8 && strncmp(term, "hardware", tl) == 0) {
		t->type = PT_HARDWARE;
		if (lookup(hardware, ev, strlen(ev), &t->config))
			return fail(err, len, "unknown hardware event", term);
	} else if (tl == 8 && strncmp(term, "software", tl) == 0) {
		t->type = PT_SOFTWARE;
		t->hardware = false;
		if (lookup(software, ev, strlen(ev), &t->config))
			return fail(err, len, "unknown software event", term);
	} else if (tl == 8 && strncmp(term, "hw_cache", tl) == 0) {
		t->type = PT_HW_CACHE;
		if (parse_cache(ev, &t->config))
			return fail(err, len, "expected CACHE.OP.RESULT", term);
	} else if (tl == 3 && strncmp(term, "raw", tl) == 0) {
		t->type = PT_RAW;
		if (parse_hex(ev, &t->config))
			return fail(err, len, "expected a hex config (0x...)",
				    term);
	} else if (tl == 3 && strncmp(term, "pfm", tl) == 0) {
		return parse_pfm(ev, t, err, len, term);
	} else {
		if (pmu_type(sysfs, term, tl, &t->type))
			return fail(err, len, "unknown event type or PMU",
				    term);
		if (parse_hex(ev, &t->config))
			return fail(err, len, "expected a hex config (0x...)",
				    term);
	}
	return 0;
}

int backend_perfspec_parse(const char *spec, const char *sysfs,
			   struct perfspec *out, char *err, size_t errlen)
{
	char buf[256];

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec || strcmp(spec, "off") == 0)
		return 0;
	if (strlen(spec) >= sizeof(buf))
		return fail(err, errlen, "too long", "...");
	if (spec[strlen(spec) - 1] == '+' || spec[0] == '+' ||
	    strstr(spec, "++"))
		return fail(err, errlen, "empty term", spec);
	snprintf(buf, sizeof(buf), "%s", spec);
	char *save = NULL;
	for (char *t = strtok_r(buf, "+", &save); t;
	     t = strtok_r(NULL, "+", &save)) {
		if (out->nterms == PERFSPEC_MAX_TERMS)
			return fail(err, errlen, "more than 4 terms", spec);
		if (parse_term(t, sysfs, &out->term[out->nterms++], err,
			       errlen))
			return -1;
	}
	return 0;
}
