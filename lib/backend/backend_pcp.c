/*
 * backend_pcp.c - counters served from Performance Co-Pilot: a live pmcd
 * (pcpHost) or a pmlogger archive (pcpArchive), through libpcp.
 *
 * Each hw.r10kevctr counter reads the PCP metric set by pcpMetric, else
 * the PCP metric of its own name (hw.r10kevctr.cycles, as PCP's IRIX PMDA
 * served it); a counter whose default name the source does not have is
 * not counted (no instances), as with perf.  A named metric that does
 * not exist, or any mapped metric without counter semantics or an
 * integer type, is refused: the backend does not open, with a message
 * naming the counter and the PCP metric.
 *
 * A metric with an instance domain gives one value per CPU, the CPU
 * number taken from the instance name "cpuN" (PCP's linux and perfevent
 * PMDAs name CPUs so); a metric without one (PM_INDOM_NULL, as every
 * hw.r10kevctr metric of the IRIX PMDA) feeds the sum only.  Reading is
 * in pcp_read.c; doc/pcp.md is the user's guide.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/backend.h"
#include "backend/backend_pcp.h"
#include "util/log.h"
#include "util/parse.h"
#include "backend/pcp_data.h"
#include "util/strbuf.h"

/* ------------------------------------------------------------ open */

static void free_pcp(struct pcp *p)
{
	if (!p)
		return;
	backend_pcp_source_close(&p->src);
	for (int i = 0; i < p->nmetrics; i++) {
		free(p->metric[i].name);
		free(p->metric[i].inst);
	}
	free(p->cpus);
	util_cpu_groups_free(&p->nodes);
	free(p);
}

static const char *sem_name(int sem)
{
	return sem == PM_SEM_INSTANT	? "instant"
	       : sem == PM_SEM_DISCRETE ? "discrete"
					: "unknown";
}

/*
 * Counters count events: a PCP metric with units of time or space
 * (kernel.percpu.cpu.idle is in milliseconds) is refused, its units
 * named.  Dimensionless metrics and counts of one are taken as they are;
 * a scaled count (x 10^N) is refused too, rather than converted.
 */
static int check_units(const struct pcp_metric *m, int c, char *err,
		       size_t len)
{
	const pmUnits *u = &m->desc.units;

	if (u->dimSpace == 0 && u->dimTime == 0 &&
	    (u->dimCount == 0 || (u->dimCount == 1 && u->scaleCount == 0)))
		return 0;
	return util_parse_fail(
	    err, len,
	    "pcp: %s: PCP metric %s is in units of '%s'%s; a "
	    "counter counts events (units 'count' or none)",
	    meta_counters[c].fullname, m->name ? m->name : "?", pmUnitsStr(u),
	    u->dimTime	  ? " (time)"
	    : u->dimSpace ? " (space)"
			  : " (a scaled count)");
}

/*
 * A metric with instances must be per CPU: every instance the source
 * knows now is named cpuN.  Anything else (disk.dev.read's sda,
 * network.interface.in.bytes's lo, kernel.percpu.interrupts' lines) is
 * refused, up to three of its instances named: the MIB has no place for
 * per-disk or per-line values, and serving them as CPUs or dropping
 * them from a sum would be wrong numbers.
 */
static int check_instances(struct pcp *p, const struct pcp_metric *m, int c,
			   char *err, size_t len)
{
	int *inst = NULL;
	char **names = NULL;
	int n =
	    backend_pcp_source_instances(&p->src, m->desc.indom, &inst, &names);
	int bad = 0;
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		if (backend_pcp_cpu_of_instance(names[i]) < 0 && bad++ < 3)
			util_strbuf_addf(&sb, "%s%s", bad > 1 ? ", " : "",
					 names[i]);
	free(inst);
	free(names);
	if (bad)
		util_parse_fail(
		    err, len,
		    "pcp: %s: PCP metric %s is not per CPU: %d of its "
		    "%d instances are not named cpuN (%s%s); map a "
		    "per-CPU metric or one without instances",
		    meta_counters[c].fullname, m->name, bad, n,
		    sb.buf ? sb.buf : "", bad > 3 ? ", ..." : "");
	util_strbuf_release(&sb);
	return bad ? -1 : 0;
}

/* Two counters fed by one PCP metric (a default name, or another name of
 * the same PMID) would split one reading: refused. */
static int check_unique(const struct pcp *p, const struct pcp_metric *m,
			int c, char *err, size_t len)
{
	for (int i = 0; i < p->nmetrics; i++)
		if (p->metric[i].id == m->id)
			return util_parse_fail(
			    err, len,
			    "pcp: %s and %s both read PCP metric %s; one PCP "
			    "metric feeds one counter (pcpMetric)",
			    meta_counters[p->metric[i].counter].fullname,
			    meta_counters[c].fullname, m->name);
	return 0;
}

/* The counter's PCP metric: 1 mapped, 0 not in the source (a default
 * name only), -1 refused with a message. */
static int map_counter(struct pcp *p, int c, const char *named, char *err,
		       size_t len)
{
	const char *name = named ? named : meta_counters[c].fullname;
	struct pcp_metric *m = &p->metric[p->nmetrics];
	char why[200];

	if (backend_pcp_source_lookup(&p->src, name, &m->id, &m->desc, why,
				      sizeof(why)) != 0) {
		if (!named)
			return 0; /* listed by log_unmapped() */
		return util_parse_fail(err, len, "pcp: pcpMetric %s %s: %s: %s",
				       meta_counters[c].fullname, name,
				       p->src.name, why);
	}
	if (m->desc.sem != PM_SEM_COUNTER)
		return util_parse_fail(
		    err, len,
		    "pcp: %s: PCP metric %s has %s semantics; a "
		    "counter needs counter semantics",
		    meta_counters[c].fullname, name, sem_name(m->desc.sem));
	if (m->desc.type == PM_TYPE_32 || m->desc.type == PM_TYPE_U32)
		m->width = 32;
	else if (m->desc.type == PM_TYPE_64 || m->desc.type == PM_TYPE_U64)
		m->width = 64;
	else
		return util_parse_fail(
		    err, len,
		    "pcp: %s: PCP metric %s is of type %s, not "
		    "an integer counter",
		    meta_counters[c].fullname, name, pmTypeStr(m->desc.type));
	if (!(m->name = strdup(name)))
		return util_parse_fail(err, len, "out of memory");
	if (check_units(m, c, err, len) != 0 ||
	    check_unique(p, m, c, err, len) != 0 ||
	    (m->desc.indom != PM_INDOM_NULL &&
	     check_instances(p, m, c, err, len) != 0)) {
		free(m->name);
		m->name = NULL;
		return -1;
	}
	m->counter = c;
	p->counted |= COUNTER_BIT(c);
	if (m->desc.indom == PM_INDOM_NULL)
		p->system_wide |= COUNTER_BIT(c);
	p->ids[p->nids++] = m->id;
	p->nmetrics++;
	return 1;
}

/* hw.r10kevctr.state and .cpurev, when the source has them. */
static void map_state(struct pcp *p)
{
	char why[200];
	pmID id;

	p->state_at = p->cpurev_at = -1;
	if (backend_pcp_source_lookup(&p->src, METRIC_PREFIX "state", &id,
				      &p->state_desc, why, sizeof(why)) == 0) {
		p->state_at = p->nids;
		p->ids[p->nids++] = id;
	}
	if (backend_pcp_source_lookup(&p->src, METRIC_PREFIX "cpurev", &id,
				      &p->cpurev_desc, why, sizeof(why)) == 0) {
		p->cpurev_at = p->nids;
		p->ids[p->nids++] = id;
	}
}

/* One line for the counters the source does not have. */
static void log_unmapped(const struct pcp *p)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	for (int c = 0; c < COUNTER_COUNT; c++) {
		if (p->counted & COUNTER_BIT(c))
			continue;
		util_strbuf_addf(&sb, "%s%s", n++ ? " " : "",
				 meta_counters[c].name);
	}
	if (n)
		util_log(LOG_INFO,
			 "pcp: %s has no metric for %d counters, not counted "
			 "(pcpMetric maps them): %s\n",
			 p->src.name, n, sb.buf ? sb.buf : "");
	util_strbuf_release(&sb);
}

static int pcp_open(struct backend *b, const struct config *cfg, char *err,
		    size_t len)
{
	const struct pcp_settings *ps =
	    config_settings(cfg, &backend_pcp_section);
	struct pcp *p = calloc(1, sizeof(*p));

	if (!p) {
		free_pcp(p);
		return util_parse_fail(err, len, "pcp: out of memory");
	}
	p->loop = ps->loop;
	p->interval = cfg->poll_interval;
	if (backend_pcp_source_open(&p->src, ps->host, ps->archive, err, len) !=
	    0)
		goto fail;
	for (int c = 0; c < COUNTER_COUNT; c++)
		if (map_counter(p, c, ps->metric[c], err, len) < 0)
			goto fail;
	map_state(p);
	log_unmapped(p);
	backend_pcp_nodes_read(p);
	p->state = p->counted ? __builtin_popcountll(p->counted) : -1;
	snprintf(p->cpurev, sizeof(p->cpurev), "unknown");
	util_log(LOG_INFO,
		 "pcp: %s: %d counters mapped (%d system-wide only)%s%s\n",
		 p->src.name, p->nmetrics, __builtin_popcountll(p->system_wide),
		 p->state_at >= 0 ? ", state" : "",
		 p->cpurev_at >= 0 ? ", cpurev" : "");
	if (p->nmetrics == 0)
		util_log(LOG_WARNING,
			 "pcp: %s has none of the counters: map them with "
			 "pcpMetric METRIC PCPNAME\n",
			 p->src.name);
	backend_pcp_restart(p);
	b->priv = p;
	return 0;
fail:
	free_pcp(p);
	return -1;
}

/* The same settings (the token rows say so): the source stays open; an
 * archive that holds its end steps by the new interval. */
static bool pcp_keep(struct backend *b, const struct config *cfg)
{
	((struct pcp *)b->priv)->interval = cfg->poll_interval;
	return true;
}

static void pcp_close(struct backend *b)
{
	free_pcp(b->priv);
}

const struct backend_ops backend_pcp = {
    .section = &backend_pcp_section,
    .open = pcp_open,
    .read = backend_pcp_read,
    .close = pcp_close,
    .keep = pcp_keep,
};
