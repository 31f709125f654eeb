/*
 * backend_perf.c - Linux perf_event_open, one event per counter metric per
 * online CPU, system wide (pid -1, cpu N).
 *
 * Events of one CPU are read as groups (PERF_FORMAT_GROUP with
 * TOTAL_TIME_ENABLED/RUNNING): one read() per group per poll.  Events of
 * the CPU PMU (hardware, hw_cache, raw), software events and the events of
 * each other PMU go in separate groups, each of at most perfGroupSize
 * events (what the PMU counts at once).  When the kernel multiplexes, deltas
 * are scaled by d(enabled)/d(running) (counter_math.c) and accumulated into 64
 * bits.
 *
 * Which metrics are counted is decided once at open: each metric's terms
 * are test-opened on the first online CPU; a metric whose events cannot be
 * opened is not counted (no instances) and the log says why.  The online
 * CPU list is re-read at every poll: an offlined CPU, or one whose read
 * fails, stops (its values freeze, the cache records a discontinuity) and
 * is reopened, in a new epoch, when it is back.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend.h"
#include "backend_perf.h"
#include "counter_math.h"
#include "cpulist.h"
#include "log.h"
#include "perfspec.h"
#include "sorted.h"

#define GROUP_MAX 64 /* perfGroupSize's upper bound */

struct perf_group {
	int fd[GROUP_MAX];	/* fd[0] is the leader */
	int counter[GROUP_MAX]; /* which counter each event adds to */
	unsigned n;
	uint64_t raw[GROUP_MAX];
	uint64_t enabled, running; /* last readings */
};

struct perf_cpu {
	unsigned cpu;
	bool open, ever_open;
	uint32_t epoch;
	struct perf_group *groups;
	unsigned ngroups;
	uint64_t value[COUNTER_COUNT]; /* scaled counts since the epoch */
	uint64_t enabled, running;     /* summed over groups, since the epoch */
};

struct perf {
	struct perfspec spec[COUNTER_COUNT];
	char *source[COUNTER_COUNT]; /* the specs as configured, for keep */
	counter_mask counted;
	unsigned group_size;
	char sysfs[256];
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
	struct perf_cpu *cpus; /* every CPU seen online since open, sorted */
	size_t ncpus;
};

static int sys_perf_event_open(struct perf_event_attr *attr, int cpu,
			       int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, -1, cpu, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

static int open_term(const struct perf_term *t, int cpu, int group_fd)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = t->type;
	attr.config = t->config;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = group_fd < 0; /* the leader enables the group */
	return sys_perf_event_open(&attr, cpu, group_fd);
}

/* --------------------------------------------------------------- groups */

/* The group an event of term t goes in: CPU PMU, software, or its PMU. */
static long group_key(const struct perf_term *t)
{
	if (!t->hardware)
		return -1;
	if (t->type == PT_HARDWARE || t->type == PT_HW_CACHE ||
	    t->type == PT_RAW)
		return -2;
	return t->type;
}

static void close_cpu(struct perf_cpu *pc)
{
	for (unsigned g = 0; g < pc->ngroups; g++)
		for (unsigned i = 0; i < pc->groups[g].n; i++)
			close(pc->groups[g].fd[i]);
	free(pc->groups);
	pc->groups = NULL;
	pc->ngroups = 0;
	pc->open = false;
}

/* Find or start a group for key with room; NULL when out of memory. */
static struct perf_group *group_for(struct perf_cpu *pc, long key, long *keys,
				    unsigned limit)
{
	for (unsigned g = 0; g < pc->ngroups; g++)
		if (keys[g] == key && pc->groups[g].n < limit)
			return &pc->groups[g];
	struct perf_group *p =
	    realloc(pc->groups, (pc->ngroups + 1) * sizeof(*p));
	if (!p)
		return NULL;
	pc->groups = p;
	keys[pc->ngroups] = key;
	p = &pc->groups[pc->ngroups++];
	memset(p, 0, sizeof(*p));
	return p;
}

static int open_cpu(struct perf *pf, struct perf_cpu *pc)
{
	long keys[COUNTER_COUNT * PERFSPEC_MAX_TERMS];

	memset(pc->value, 0, sizeof(pc->value));
	pc->enabled = pc->running = 0;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		if (!(pf->counted & COUNTER_BIT(c)))
			continue;
		for (unsigned k = 0; k < pf->spec[c].nterms; k++) {
			const struct perf_term *t = &pf->spec[c].term[k];
			long key = group_key(t);
			struct perf_group *g =
			    group_for(pc, key, keys, pf->group_size);
			if (!g)
				goto fail;
			int fd =
			    open_term(t, (int)pc->cpu, g->n ? g->fd[0] : -1);
			if (fd < 0) {
				hwr_log(
				    LOG_WARNING,
				    "perf: CPU %u: cannot open the event of "
				    "%s%s: %s; the CPU stops counting\n",
				    pc->cpu, METRIC_PREFIX, counters[c].name,
				    strerror(errno));
				if (g->n == 0)
					pc->ngroups--;
				goto fail;
			}
			g->fd[g->n] = fd;
			g->counter[g->n++] = c;
		}
	}
	unsigned events = 0;
	for (unsigned g = 0; g < pc->ngroups; g++) {
		ioctl(pc->groups[g].fd[0], PERF_EVENT_IOC_ENABLE,
		      PERF_IOC_FLAG_GROUP);
		events += pc->groups[g].n;
	}
	hwr_log(LOG_INFO, "perf: CPU %u: %u events in %u groups\n", pc->cpu,
		events, pc->ngroups);
	pc->open = true;
	pc->epoch = backend_new_epoch();
	return 0;
fail:
	close_cpu(pc);
	return -1;
}

/* Read one group; adds the scaled deltas to pc.  -1 when the read failed. */
static int read_group(struct perf_cpu *pc, struct perf_group *g)
{
	uint64_t buf[3 + GROUP_MAX];
	size_t want = (3 + g->n) * sizeof(uint64_t);
	ssize_t got = read(g->fd[0], buf, sizeof(buf));

	if (got < 0 || (size_t)got != want || buf[0] != g->n) {
		hwr_log(LOG_WARNING,
			"perf: CPU %u: group read failed (%s); the CPU stops "
			"counting until it can be reopened\n",
			pc->cpu,
			got < 0 ? strerror(errno) : "short or malformed read");
		return -1;
	}
	uint64_t de = buf[1] - g->enabled, dr = buf[2] - g->running;
	g->enabled = buf[1];
	g->running = buf[2];
	pc->enabled += de;
	pc->running += dr;
	for (unsigned i = 0; i < g->n; i++) {
		uint64_t d = buf[3 + i] - g->raw[i];
		g->raw[i] = buf[3 + i];
		pc->value[g->counter[i]] += scale_delta(d, de, dr);
	}
	return 0;
}

/* ------------------------------------------------------------ CPU set */

static long long perf_cpu_key(const void *e)
{
	return ((const struct perf_cpu *)e)->cpu;
}

static struct perf_cpu *find_or_add_cpu(struct perf *pf, unsigned cpu)
{
	size_t i = sorted_lower_bound(pf->cpus, pf->ncpus, sizeof(*pf->cpus),
				      perf_cpu_key, cpu);
	if (i < pf->ncpus && pf->cpus[i].cpu == cpu)
		return &pf->cpus[i];
	struct perf_cpu *p =
	    sorted_insert((void **)&pf->cpus, &pf->ncpus, sizeof(*pf->cpus), i);
	if (p)
		p->cpu = cpu;
	return p;
}

/* The online CPUs under pf's sysfs; -1 (logged) if unreadable. */
static int read_online(const struct perf *pf, struct cpulist *online)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pf->sysfs);
	if (cpulist_read(path, online) != 0) {
		hwr_log(LOG_ERR, "perf: cannot read %s\n", path);
		cpulist_free(online);
		return -1;
	}
	return 0;
}

/* Bring the open CPUs in line with the online list. */
static int sync_cpus_to(struct perf *pf, const struct cpulist *online)
{
	for (size_t i = 0; i < pf->ncpus; i++) {
		struct perf_cpu *pc = &pf->cpus[i];
		if (pc->open && !cpulist_has(online, pc->cpu)) {
			hwr_log(LOG_NOTICE,
				"perf: CPU %u went offline; its "
				"counters stop\n",
				pc->cpu);
			close_cpu(pc);
		}
	}
	for (size_t i = 0; i < online->n; i++) {
		struct perf_cpu *pc = find_or_add_cpu(pf, online->cpu[i]);
		if (!pc)
			return -1;
		bool reopen = pc->ever_open;
		if (!pc->open && open_cpu(pf, pc) == 0) {
			if (reopen)
				hwr_log(LOG_NOTICE,
					"perf: CPU %u counting again\n",
					pc->cpu);
			pc->ever_open = true;
		}
	}
	return 0;
}

static int sync_cpus(struct perf *pf)
{
	struct cpulist online;
	if (read_online(pf, &online) != 0)
		return -1;
	int rc = sync_cpus_to(pf, &online);
	cpulist_free(&online);
	return rc;
}

/* ------------------------------------------------------------ open */

static void free_perf(struct perf *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->ncpus; i++)
		close_cpu(&pf->cpus[i]);
	for (int c = 0; c < COUNTER_COUNT; c++)
		free(pf->source[c]);
	free(pf->cpus);
	free(pf);
}

/* Test-open a metric's terms on cpu; 0 or the first errno. */
static int probe_metric(const struct perfspec *sp, int cpu)
{
	for (unsigned k = 0; k < sp->nterms; k++) {
		int fd = open_term(&sp->term[k], cpu, -1);
		if (fd < 0)
			return errno;
		close(fd);
	}
	return 0;
}

static void read_cpurev(struct perf *pf)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int family = -1, model = -1, stepping = -1;

	snprintf(pf->cpurev, sizeof(pf->cpurev), "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && strncmp(line, "\n", 1) != 0) {
		sscanf(line, "cpu family : %d", &family);
		sscanf(line, "model : %d", &model);
		sscanf(line, "stepping : %d", &stepping);
	}
	fclose(f);
	if (family >= 0 && model >= 0 && stepping >= 0)
		snprintf(pf->cpurev, sizeof(pf->cpurev), "%d.%d.%d", family,
			 model, stepping);
}

/* Decide which metrics are counted and hw.help's state from the probes. */
static void probe_all(struct perf *pf, int cpu)
{
	int denied = 0, nopmu = 0, other = 0;

	for (int c = 0; c < COUNTER_COUNT; c++) {
		if (pf->spec[c].nterms == 0)
			continue;
		int e = probe_metric(&pf->spec[c], cpu);
		if (e == 0) {
			pf->counted |= COUNTER_BIT(c);
			continue;
		}
		if (e == EACCES || e == EPERM)
			denied++;
		else if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
			nopmu++;
		else
			other++;
		hwr_log(LOG_INFO, "perf: %s%s not counted: %s\n", METRIC_PREFIX,
			counters[c].name, strerror(e));
	}
	pf->state = __builtin_popcountll(pf->counted);
	if (pf->counted == 0 && denied) {
		pf->state = 0;
		hwr_log(
		    LOG_ERR,
		    "perf: counting is not permitted (EACCES/EPERM): run as "
		    "root, give the agent CAP_PERFMON, or lower "
		    "/proc/sys/kernel/perf_event_paranoid (-1 for system-"
		    "wide events)\n");
	} else if (pf->counted == 0 && (nopmu || other)) {
		pf->state = -1;
		hwr_log(LOG_WARNING, "perf: no usable performance counters on "
				     "this machine (no PMU, or none of the "
				     "configured events exists)\n");
	}
}

/* ------------------------------------------------------------ settings */

static const struct config_token perf_tokens[] = {
    {"perfEvent", "METRIC SPEC|off"},
    {"perfGroupSize", "N (1..64)"},
    {"perfSysfs", "PATH"},
    {NULL, NULL},
};

static const struct perf_settings perf_defaults = {
    .group_size = PERF_GROUP_SIZE_DEFAULT,
};

static const char *sysfs_of(const struct perf_settings *s)
{
	return s->sysfs ? s->sysfs : "/sys";
}

static const char *spec_of(const struct perf_settings *s, int c)
{
	return s->event[c] ? s->event[c] : counters[c].perf;
}

static int perf_apply(void *settings, const char *token, char **w, int n,
		      char *err, size_t len)
{
	struct perf_settings *s = settings;
	uint64_t v;

	if (strcasecmp(token, "perfEvent") == 0) {
		struct perfspec sp;
		char why[200];
		if (n != 2)
			return parse_fail(
			    err, len, "%s: expected METRIC SPEC|off", token);
		int k = backend_counter_arg(w[0], token, err, len);
		if (k < 0)
			return -1;
		if (perfspec_parse(w[1], sysfs_of(s), &sp, why, sizeof(why)))
			return parse_fail(err, len, "%s: %s", token, why);
		free(s->event[k]);
		s->event[k] = strdup(w[1]);
		return s->event[k] ? 0 : parse_fail(err, len, "out of memory");
	}
	if (strcasecmp(token, "perfSysfs") == 0) {
		if (n != 1)
			return parse_fail(err, len, "%s: expected one PATH",
					  token);
		free(s->sysfs);
		s->sysfs = strdup(w[0]);
		return s->sysfs ? 0 : parse_fail(err, len, "out of memory");
	}
	/* perfGroupSize */
	if (parse_number(token, w, n, 1, GROUP_MAX, &v, err, len))
		return -1;
	s->group_size = (unsigned)v;
	return 0;
}

static void perf_settings_free(void *settings)
{
	struct perf_settings *s = settings;
	for (int c = 0; c < COUNTER_COUNT; c++)
		free(s->event[c]);
	free(s->sysfs);
}

static int perf_open(struct backend *b, const struct config *cfg, char *err,
		     size_t errlen)
{
	struct perf *pf = calloc(1, sizeof(*pf));
	if (!pf) {
		snprintf(err, errlen, "perf: out of memory");
		return -1;
	}
	const struct perf_settings *ps = config_settings(cfg, &backend_perf);
	snprintf(pf->sysfs, sizeof(pf->sysfs), "%s", sysfs_of(ps));
	pf->group_size = ps->group_size;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		const char *s = spec_of(ps, c);
		if (perfspec_parse(s, pf->sysfs, &pf->spec[c], err, errlen)) {
			free_perf(pf);
			return -1;
		}
		if (!(pf->source[c] = strdup(s))) {
			snprintf(err, errlen, "perf: out of memory");
			free_perf(pf);
			return -1;
		}
	}
	struct cpulist online; /* read once: probes and CPUs agree */
	bool none = read_online(pf, &online) != 0;
	if (!none && online.n == 0) {
		cpulist_free(&online);
		none = true;
	}
	if (none) {
		snprintf(err, errlen,
			 "perf: cannot read the online CPUs from %s",
			 pf->sysfs);
		free_perf(pf);
		return -1;
	}
	probe_all(pf, (int)online.cpu[0]);
	read_cpurev(pf);
	hwr_log(LOG_INFO, "perf: counting %d of %d metrics\n",
		__builtin_popcountll(pf->counted), COUNTER_COUNT);
	int rc = sync_cpus_to(pf, &online);
	cpulist_free(&online);
	if (rc != 0) {
		snprintf(err, errlen, "perf: out of memory");
		free_perf(pf);
		return -1;
	}
	b->priv = pf;
	return 0;
}

/* ------------------------------------------------------------ read */

static int perf_read(struct backend *b, struct sample *s)
{
	struct perf *pf = b->priv;

	if (sync_cpus(pf) != 0)
		s->errors++; /* keep serving the CPUs we have */
	if (sample_reserve(s, pf->ncpus) < 0)
		return -1;
	for (size_t i = 0; i < pf->ncpus; i++) {
		struct perf_cpu *pc = &pf->cpus[i];
		for (unsigned g = 0; pc->open && g < pc->ngroups; g++) {
			if (read_group(pc, &pc->groups[g]) != 0) {
				close_cpu(pc); /* reopened at the next poll */
				s->errors++;
			}
		}
		struct cpu_sample *cs = &s->cpus[i];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = pc->cpu;
		/* a CPU with no event open counts nothing (state -1 or 0) */
		cs->counting = pc->open && pc->ngroups > 0;
		cs->epoch = pc->epoch;
		memcpy(cs->value, pc->value, sizeof(cs->value));
		cs->time_enabled = pc->enabled;
		cs->time_running = pc->running;
	}
	s->ncpus = pf->ncpus;
	s->counted = pf->counted;
	s->state = pf->state;
	snprintf(s->cpurev, sizeof(s->cpurev), "%s", pf->cpurev);
	return 0;
}

static bool perf_keep(struct backend *b, const struct config *cfg)
{
	const struct perf *pf = b->priv;
	const struct perf_settings *ps = config_settings(cfg, &backend_perf);

	if (strcmp(pf->sysfs, sysfs_of(ps)) != 0 ||
	    pf->group_size != ps->group_size)
		return false;
	for (int c = 0; c < COUNTER_COUNT; c++)
		if (strcmp(spec_of(ps, c), pf->source[c]) != 0)
			return false;
	return true;
}

static void perf_close(struct backend *b)
{
	free_perf(b->priv);
}

const struct backend_ops backend_perf = {
    .name = "perf",
    .tokens = perf_tokens,
    .settings_size = sizeof(struct perf_settings),
    .defaults = &perf_defaults,
    .apply = perf_apply,
    .settings_free = perf_settings_free,
    .validate = NULL, /* perfEvent lines are checked as they are read */
    .open = perf_open,
    .read = perf_read,
    .close = perf_close,
    .keep = perf_keep,
};
