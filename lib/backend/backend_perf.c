/*
 * backend_perf.c - Linux perf_event_open, one event per counter metric per
 * online CPU, system wide (pid -1, cpu N).
 *
 * Each CPU's events are grouped and read by perf_cpu.c; multiplexed
 * counts are scaled by d(enabled)/d(running) (counter_math.c) and
 * accumulated into 64 bits.
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/backend_perf.h"
#include "backend/host_info.h"
#include "util/cpulist.h"
#include "util/log.h"
#include "backend/perf_cpu.h"
#include "backend/perf_hint.h"
#include "backend/perfspec.h"
#include "util/sorted.h"

#define SPEC_TEXT_MAX 96 /* of a spec, for messages */

struct perf {
	struct perfspec spec[COUNTER_COUNT];
	char text[COUNTER_COUNT][SPEC_TEXT_MAX]; /* each spec as configured */
	struct perf_hint hint; /* what counts here, probed at state -1 */
	bool hinted;
	counter_mask never_ran; /* opened but never scheduled: left out */
	counter_mask counted;
	unsigned group_size;
	char sysfs[256];
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
	struct perf_cpu *cpus; /* every CPU seen online since open, sorted */
	size_t ncpus;
	struct cpu_groups nodes; /* the NUMA nodes: the default groups */
};

/* ------------------------------------------------------------ CPU set */

static long long perf_cpu_key(const void *e)
{
	return ((const struct perf_cpu *)e)->cpu;
}

static struct perf_cpu *find_or_add_cpu(struct perf *pf, unsigned cpu)
{
	bool added;
	struct perf_cpu *p = util_sorted_find_or_add(
	    (void **)&pf->cpus, &pf->ncpus, sizeof(*pf->cpus), perf_cpu_key,
	    cpu, &added);
	if (p && added)
		p->cpu = cpu;
	return p;
}

/* The online CPUs under pf's sysfs; -1 (logged) if unreadable. */
static int read_online(const struct perf *pf, struct cpulist *online)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pf->sysfs);
	if (util_cpulist_read(path, online) != 0) {
		util_log(LOG_ERR, "perf: cannot read %s\n", path);
		util_cpulist_free(online);
		return -1;
	}
	return 0;
}

/* Bring the open CPUs in line with the online list. */
static int sync_cpus_to(struct perf *pf, const struct cpulist *online)
{
	for (size_t i = 0; i < pf->ncpus; i++) {
		struct perf_cpu *pc = &pf->cpus[i];
		if (pc->open && !util_cpulist_has(online, pc->cpu)) {
			util_log(LOG_NOTICE,
				 "perf: CPU %u went offline; its "
				 "counters stop\n",
				 pc->cpu);
			backend_perf_cpu_close(pc);
		}
	}
	for (size_t i = 0; i < online->n; i++) {
		struct perf_cpu *pc = find_or_add_cpu(pf, online->cpu[i]);
		if (!pc)
			return -1;
		bool reopen = pc->ever_open;
		if (!pc->open &&
		    backend_perf_cpu_open(pc, pf->spec, pf->counted,
					  pf->group_size) == 0) {
			if (reopen)
				util_log(LOG_NOTICE,
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
	util_cpulist_free(&online);
	return rc;
}

/* ------------------------------------------------------------ open */

static void free_perf(struct perf *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->ncpus; i++)
		backend_perf_cpu_close(&pf->cpus[i]);
	free(pf->cpus);
	util_cpu_groups_free(&pf->nodes);
	free(pf);
}

/* Why an event that failed to open cannot count, for people. */
static const char *open_failure(int e)
{
	switch (e) {
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return "no such event or PMU on this host (ENOENT)";
	case EINVAL:
		return "the PMU refuses its config (EINVAL)";
	case EACCES:
	case EPERM:
		return "not permitted (EACCES/EPERM)";
	default:
		return strerror(e);
	}
}

/* Log the metric left out, once per open, with its event and why. */
static void log_uncounted(const struct perf *pf, int c, int e)
{
	util_log(LOG_NOTICE,
		 "perf: %s%s (%s) cannot count: %s; not counted, no "
		 "instances\n",
		 METRIC_PREFIX, meta_counters[c].name, pf->text[c],
		 open_failure(e));
}

/* Nothing counts for want of a PMU: say what does count here, once. */
static void no_pmu(struct perf *pf, int cpu)
{
	backend_perf_hint_probe(pf->sysfs, cpu, &pf->hint);
	pf->hinted = true;
	backend_perf_hint_log(&pf->hint);
}

/* Decide which metrics are counted and hw.help's state from the probes. */
static void probe_all(struct perf *pf, int cpu, bool quiet)
{
	int denied = 0, nopmu = 0, other = 0;

	for (int c = 0; c < COUNTER_COUNT; c++) {
		if (pf->spec[c].nterms == 0 ||
		    (pf->never_ran & COUNTER_BIT(c))) /* said when found */
			continue;
		int e = backend_perf_probe(&pf->spec[c], cpu);
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
		if (!quiet)
			log_uncounted(pf, c, e);
	}
	pf->state = __builtin_popcountll(pf->counted);
	if (pf->counted == 0 && denied) {
		pf->state = 0;
		if (!quiet)
			util_log(LOG_ERR,
				 "perf: counting is not permitted "
				 "(EACCES/EPERM): run as "
				 "root, give the agent CAP_PERFMON, or lower "
				 "/proc/sys/kernel/perf_event_paranoid (-1 for "
				 "system-"
				 "wide events)\n");
	} else if (pf->counted == 0 && (nopmu || other)) {
		pf->state = -1;
		if (!quiet)
			no_pmu(pf, cpu);
	}
}

static int perf_open(struct backend *b, const struct config *cfg, char *err,
		     size_t errlen)
{
	struct perf *pf = calloc(1, sizeof(*pf));
	if (!pf) {
		snprintf(err, errlen, "perf: out of memory");
		return -1;
	}
	const struct perf_settings *ps =
	    config_settings(cfg, &backend_perf_section);
	snprintf(pf->sysfs, sizeof(pf->sysfs), "%s",
		 backend_perf_settings_sysfs(ps));
	pf->group_size = ps->group_size;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		const char *s = backend_perf_settings_spec(ps, c);
		snprintf(pf->text[c], sizeof(pf->text[c]), "%s", s);
		if (backend_perfspec_parse(s, pf->sysfs, &pf->spec[c], err,
					   errlen)) {
			free_perf(pf);
			return -1;
		}
	}
	struct cpulist online; /* read once: probes and CPUs agree */
	bool none = read_online(pf, &online) != 0;
	if (!none && online.n == 0) {
		util_cpulist_free(&online);
		none = true;
	}
	if (none) {
		snprintf(err, errlen,
			 "perf: cannot read the online CPUs from %s",
			 pf->sysfs);
		free_perf(pf);
		return -1;
	}
	probe_all(pf, (int)online.cpu[0], false);
	backend_host_cpurev(pf->cpurev, sizeof(pf->cpurev));
	char why[300]; /* no nodes: no groups (cpuGroup lines may say) */
	if (backend_host_nodes(pf->sysfs, &pf->nodes, why, sizeof(why)) != 0)
		util_log(LOG_WARNING, "perf: no CPU groups: %s\n", why);
	util_log(LOG_INFO, "perf: counting %d of %d metrics\n",
		 __builtin_popcountll(pf->counted), COUNTER_COUNT);
	int rc = sync_cpus_to(pf, &online);
	util_cpulist_free(&online);
	if (rc != 0) {
		snprintf(err, errlen, "perf: out of memory");
		free_perf(pf);
		return -1;
	}
	b->priv = pf;
	return 0;
}

/* ------------------------------------------------------------ read */

/*
 * While nothing can be counted (state -1 or 0), probe again at each poll
 * (one test open per mapped metric), so that granting CAP_PERFMON,
 * lowering perf_event_paranoid or loading a PMU driver takes effect
 * without a restart, as ecadmin(1) did on IRIX.  What changes is logged;
 * every CPU reopens in a new epoch (a discontinuity).
 */
static void reprobe(struct perf *pf)
{
	int32_t was = pf->state;

	size_t i = 0;
	while (i < pf->ncpus && !pf->cpus[i].open)
		i++; /* an online CPU */
	if (pf->counted != 0 || i == pf->ncpus)
		return;
	probe_all(pf, (int)pf->cpus[i].cpu, true);
	if (pf->counted == 0 && pf->state == was)
		return;
	util_log(LOG_NOTICE,
		 "perf: state %d -> %d: %d metrics can be counted now; every "
		 "CPU reopens\n",
		 was, pf->state, __builtin_popcountll(pf->counted));
	for (i = 0; i < pf->ncpus; i++)
		backend_perf_cpu_close(&pf->cpus[i]);
}

/*
 * An event the kernel accepts but never schedules (time_running stays 0:
 * a PMU that takes the config but cannot count it, or counters held by
 * other events, e.g. a group larger than the PMU's counters) would serve
 * zeros that mean nothing.  A metric none of whose events has run on any
 * CPU after NEVER_RAN_NS enabled is left out until the next open (no
 * instances), with a message; the CPUs reopen without it.
 */
#define NEVER_RAN_NS 2000000000ull

static void drop_never_ran(struct perf *pf)
{
	counter_mask idle = pf->counted;
	size_t open = 0, first = 0;

	for (size_t i = 0; i < pf->ncpus; i++)
		if (pf->cpus[i].open) {
			idle &= backend_perf_cpu_never_ran(&pf->cpus[i],
							   NEVER_RAN_NS);
			first = open++ ? first : i;
		}
	if (open == 0 || idle == 0)
		return;
	for (int c = 0; c < COUNTER_COUNT; c++)
		if (idle & COUNTER_BIT(c))
			util_log(LOG_WARNING,
				 "perf: %s%s (%s) cannot count: the kernel "
				 "accepted it but has never run it on any CPU "
				 "(its PMU cannot count it, or other events "
				 "hold the counters); not counted, no "
				 "instances\n",
				 METRIC_PREFIX, meta_counters[c].name,
				 pf->text[c]);
	pf->never_ran |= idle;
	pf->counted &= ~idle;
	pf->state = __builtin_popcountll(pf->counted);
	if (pf->counted == 0) {
		pf->state = -1;
		no_pmu(pf, (int)pf->cpus[first].cpu);
	}
	for (size_t i = 0; i < pf->ncpus; i++)
		backend_perf_cpu_close(&pf->cpus[i]); /* reopen without them */
}

static int perf_read(struct backend *b, struct sample *s)
{
	struct perf *pf = b->priv;

	reprobe(pf);
	if (sync_cpus(pf) != 0)
		s->errors++; /* keep serving the CPUs we have */
	if (cache_sample_reserve(s, pf->ncpus) < 0)
		return -1;
	for (size_t i = 0; i < pf->ncpus; i++) {
		struct perf_cpu *pc = &pf->cpus[i];
		if (backend_perf_cpu_read(pc) != 0)
			s->errors++; /* closed; reopened at the next poll */
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
	drop_never_ran(pf);
	s->ncpus = pf->ncpus;
	s->groups = &pf->nodes;
	s->counted = pf->counted;
	s->state = pf->state;
	snprintf(s->cpurev, sizeof(s->cpurev), "%s", pf->cpurev);
	return 0;
}

static void perf_close(struct backend *b)
{
	free_perf(b->priv);
}

static void perf_advise(struct backend *b, FILE *out)
{
	const struct perf *pf = b->priv;
	if (pf->counted == 0 && pf->state == -1 && pf->hinted)
		backend_perf_hint_print(&pf->hint, out);
}

const struct backend_ops backend_perf = {
    .section = &backend_perf_section,
    .needs_perfmon = true,
    .open = perf_open,
    .read = perf_read,
    .close = perf_close,
    .advise = perf_advise,
};
