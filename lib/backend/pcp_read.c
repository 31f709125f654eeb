/*
 * pcp_read.c - one poll of the pcp backend: one fetch from pmcd, or the
 * archive's next record, folded into 64-bit counts.
 *
 * Counter semantics come from the PCP descriptors: a value's delta is
 * taken modulo 2^32 for PM_TYPE_32/U32 (they wrap, as IRIX's 32-bit
 * event counters did) and 2^64 for 64-bit types; a 64-bit value lower
 * than the one before means the source restarted it from zero: the new
 * value is what it counted since, added to the count, and the sample
 * says the cell was reset (a discontinuity: the interval's count is
 * unknown).  The first value of a cell is its base: served values count
 * from the backend's open, as with replay.
 *
 * A CPU is served in a poll when one of its instances had a value in the
 * record; a counter without a value in the record (pmlogger logs metric
 * groups at different intervals) keeps its count and is unread in the
 * sample: no rate for that poll, and the next covers the time since;
 * a CPU that vanishes leaves the table (the cache logs it), one that
 * appears joins it.  A lost pmcd stops every CPU until it answers again;
 * the reconnection, an archive's <mark> record (a gap in the recording)
 * and an archive's loop start a new epoch: a discontinuity, logged once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/counter_math.h"
#include "util/log.h"
#include "backend/pcp_data.h"
#include "util/sorted.h"

void backend_pcp_restart(struct pcp *p)
{
	for (size_t i = 0; i < p->ncpus; i++)
		memset(p->cpus[i].cell, 0, sizeof(p->cpus[i].cell));
	memset(p->total, 0, sizeof(p->total));
	for (int i = 0; i < p->nmetrics; i++) {
		free(p->metric[i].inst); /* instances may be renumbered */
		p->metric[i].inst = NULL;
		p->metric[i].ninst = 0;
	}
	p->epoch = backend_new_epoch();
	p->epoch_ns = 0;
}

static long long cpu_key(const void *e)
{
	return ((const struct pcp_cpu *)e)->cpu;
}

static long long inst_key(const void *e)
{
	return ((const struct pcp_inst *)e)->inst;
}

static struct pcp_cpu *find_or_add_cpu(struct pcp *p, unsigned cpu)
{
	bool added;
	struct pcp_cpu *pc =
	    util_sorted_find_or_add((void **)&p->cpus, &p->ncpus,
				    sizeof(*p->cpus), cpu_key, cpu, &added);
	if (pc && added)
		pc->cpu = cpu;
	return pc;
}

/* The CPU of an instance of m: learnt once per instance and epoch, and
 * again when an archive's instance domain changes (follow_indoms). */
static long cpu_of(struct pcp *p, struct pcp_metric *m, int inst)
{
	bool added;
	struct pcp_inst *e =
	    util_sorted_find_or_add((void **)&m->inst, &m->ninst,
				    sizeof(*m->inst), inst_key, inst, &added);
	if (e && !added)
		return e->cpu;
	char *name = backend_pcp_source_inst_name(&p->src, m->desc.indom, inst);
	long cpu = backend_pcp_cpu_of_instance(name);
	if (cpu < 0) {
		/* open refused such metrics: this instance came later */
		if (!m->noncpu_logged)
			util_log(LOG_WARNING,
				 "pcp: %s: instance %d (%s) is not a CPU "
				 "(expected cpuN); its values are skipped and "
				 "counted in hwR10kEvCtrPollErrors (logged "
				 "once)\n",
				 m->name, inst, name ? name : "no name");
		m->noncpu_logged = true;
		p->errors++;
	}
	free(name);
	if (e) {
		e->inst = inst;
		e->cpu = cpu;
	}
	return cpu;
}

static void advance(struct count_cell *cell, uint64_t raw,
		    const struct pcp_metric *m, long cpu)
{
	uint64_t before = cell->raw;
	if (!util_count_cell_take(cell, raw, m->width))
		return;
	char where[32] = "";
	if (cpu >= 0)
		snprintf(where, sizeof(where), " of CPU %ld", cpu);
	util_log(LOG_NOTICE,
		 "pcp: %s%s went backwards (%llu to %llu): the source "
		 "restarted it from zero; its rate for this poll is unknown (a "
		 "discontinuity)\n",
		 m->name, where, (unsigned long long)before,
		 (unsigned long long)raw);
}

static void fold_metric(struct pcp *p, struct pcp_metric *m,
			const pmValueSet *vs)
{
	if (vs->numval < 0) {
		if (!m->failing)
			util_log(LOG_WARNING,
				 "pcp: %s: %s; not counted until it has values "
				 "again (each poll without is counted in "
				 "hwR10kEvCtrPollErrors)\n",
				 m->name, pmErrStr(vs->numval));
		m->failing = true;
		p->errors++;
		return;
	}
	if (m->failing)
		util_log(LOG_NOTICE, "pcp: %s: has values again\n", m->name);
	m->failing = false;
	for (int j = 0; j < vs->numval; j++) {
		pmAtomValue a;
		if (pmExtractValue(vs->valfmt, &vs->vlist[j], m->desc.type, &a,
				   m->desc.type) < 0) {
			p->errors++;
			continue;
		}
		uint64_t raw = m->width == 32 ? (uint64_t)a.ul : a.ull;
		if (m->desc.indom == PM_INDOM_NULL) {
			advance(&p->total[m->counter], raw, m, -1);
			continue;
		}
		long cpu = cpu_of(p, m, vs->vlist[j].inst);
		struct pcp_cpu *pc =
		    cpu < 0 ? NULL : find_or_add_cpu(p, (unsigned)cpu);
		if (!pc)
			continue;
		pc->present = true;
		advance(&pc->cell[m->counter], raw, m, cpu);
	}
}

/* hw.r10kevctr.state (an integer) and cpurev (a string, or a number). */
static void take_state(struct pcp *p, const pmValueSet *vs, bool cpurev)
{
	const pmDesc *d = cpurev ? &p->cpurev_desc : &p->state_desc;
	pmAtomValue a;

	if (vs->numval < 1)
		return;
	if (!cpurev) {
		if (pmExtractValue(vs->valfmt, &vs->vlist[0], d->type, &a,
				   PM_TYPE_32) >= 0)
			p->state = a.l;
	} else if (d->type == PM_TYPE_STRING) {
		if (pmExtractValue(vs->valfmt, &vs->vlist[0], d->type, &a,
				   PM_TYPE_STRING) >= 0) {
			snprintf(p->cpurev, sizeof(p->cpurev), "%s", a.cp);
			free(a.cp);
		}
	} else if (pmExtractValue(vs->valfmt, &vs->vlist[0], d->type, &a,
				  PM_TYPE_64) >= 0) {
		snprintf(p->cpurev, sizeof(p->cpurev), "%lld", (long long)a.ll);
	}
}

/*
 * An archive's instance domain can change between records (pmlogger saw
 * CPUs come and go, or archives joined by pmlogextract): the names in
 * effect at each record say which CPU a value is.  A metric's instances
 * are learnt again when its domain differs from the one they were
 * learnt from (said once per change).
 */
static void follow_indoms(struct pcp *p)
{
	for (int i = 0; i < p->nmetrics; i++) {
		struct pcp_metric *m = &p->metric[i];
		if (m->desc.indom == PM_INDOM_NULL)
			continue;
		uint64_t h = 0;
		int j = 0;
		while (j < i && p->metric[j].desc.indom != m->desc.indom)
			j++;
		if (j < i) /* the same domain, read for this record already */
			h = p->metric[j].indom_digest;
		else
			h = backend_pcp_source_indom_digest(&p->src,
							    m->desc.indom);
		if (m->indom_digest && h != m->indom_digest && m->ninst) {
			if (j == i)
				util_log(LOG_NOTICE,
					 "pcp: %s: the instance domain %s "
					 "changed at record %zu: instances are "
					 "named as the archive has them now\n",
					 p->src.name, pmInDomStr(m->desc.indom),
					 p->records + 1);
			free(m->inst);
			m->inst = NULL;
			m->ninst = 0;
		}
		m->indom_digest = h;
	}
}

static void fold_result(struct pcp *p, const pmResult *res)
{
	if (p->src.archive)
		follow_indoms(p);
	for (size_t i = 0; i < p->ncpus; i++)
		p->cpus[i].present = false;
	p->time_ns = (uint64_t)res->timestamp.tv_sec * 1000000000u +
		     (uint64_t)res->timestamp.tv_usec * 1000u;
	if (p->epoch_ns == 0)
		p->epoch_ns = p->time_ns;
	for (int i = 0; i < res->numpmid; i++) {
		const pmValueSet *vs = res->vset[i];
		int k = 0;
		while (k < p->nids && p->ids[k] != vs->pmid)
			k++;
		if (k == p->state_at || k == p->cpurev_at)
			take_state(p, vs, k == p->cpurev_at);
		else if (k < p->nmetrics)
			fold_metric(p, &p->metric[k], vs);
	}
	p->records++;
}

/* The next record (archive: across <mark> records, looping if asked). */
static enum pcp_fetch next_record(struct pcp *p, uint64_t now, pmResult **res)
{
	for (int tries = 0; tries < 4; tries++) {
		enum pcp_fetch f = backend_pcp_source_fetch(&p->src, p->nids,
							    p->ids, res, now);
		if (f == PCP_FETCH_ERROR && p->src.archive) {
			/* a record libpcp cannot read (a corrupt or cut
			 * volume): the archive ends there, looped or held,
			 * never served as current; said once, counted */
			if (!p->corrupt_logged)
				util_log(
				    LOG_ERR,
				    "pcp: %s: cannot read the record after "
				    "record %zu (%s): the archive ends "
				    "there%s (logged once; counted in "
				    "hwR10kEvCtrPollErrors)\n",
				    p->src.name, p->records,
				    pmErrStr(p->src.error),
				    p->loop ? "; starting again" : "");
			p->corrupt_logged = true;
			p->errors++;
			f = PCP_FETCH_END;
		}
		if (f == PCP_FETCH_RECONNECTED)
			backend_pcp_restart(p);
		if (f == PCP_FETCH_MARK) {
			util_log(LOG_NOTICE,
				 "pcp: %s: a <mark> record after record %zu "
				 "(a gap in the recording): counting "
				 "restarts\n",
				 p->src.name, p->records);
			backend_pcp_restart(p);
			continue;
		}
		if (f == PCP_FETCH_END && p->loop && p->records > 0) {
			if (p->loops++ == 0)
				util_log(LOG_INFO,
					 "pcp: %s: end reached, starting again "
					 "(logged once; each loop is a counter "
					 "discontinuity)\n",
					 p->src.name);
			if (backend_pcp_source_rewind(&p->src) != 0)
				return PCP_FETCH_ERROR;
			backend_pcp_restart(p);
			p->records = 0;
			continue;
		}
		if (f == PCP_FETCH_END && !p->ended)
			util_log(LOG_NOTICE,
				 "pcp: %s: end reached after %zu records; "
				 "holding the last values\n",
				 p->src.name, p->records);
		p->ended = f == PCP_FETCH_END;
		return f;
	}
	return PCP_FETCH_END; /* a run of <mark> records: nothing to serve */
}

/* stopped: the source is lost (nothing is known, nothing counts);
 * ended: the archive's end, every value held. */
static int fill_sample(struct pcp *p, struct sample *s, bool stopped,
		       bool ended)
{
	if (cache_sample_reserve(s, p->ncpus) < 0)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < p->ncpus; i++) {
		struct pcp_cpu *pc = &p->cpus[i];
		if (!pc->present && !stopped)
			continue;
		struct cpu_sample *cs = &s->cpus[n++];
		memset(cs, 0, sizeof(*cs));
		cs->cpu = pc->cpu;
		cs->counting = !stopped;
		cs->epoch = p->epoch;
		/* no enabled/running times in PCP: the time since the epoch */
		cs->time_enabled = cs->time_running = p->time_ns - p->epoch_ns;
		/* a counter without a value in this record is unread */
		for (int c = 0; c < COUNTER_COUNT; c++) {
			cs->value[c] = pc->cell[c].acc;
			util_count_cell_report(&pc->cell[c], COUNTER_BIT(c),
					  stopped || ended, &cs->unread,
					  &cs->reset);
		}
		cs->unread &= p->counted & ~p->system_wide;
	}
	s->ncpus = n;
	s->groups = &p->nodes;
	s->time_ns = p->time_ns;
	s->counted = p->counted;
	s->system_wide = p->system_wide;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		s->total[c] = p->total[c].acc;
		util_count_cell_report(&p->total[c], COUNTER_BIT(c), stopped || ended,
				  &s->total_unread, &s->total_reset);
	}
	s->total_unread &= p->system_wide;
	s->total_epoch = p->epoch;
	s->system_wide_stopped = stopped;
	s->ended = ended;
	/* hw.r10kevctr.state counts the counters enabled; while the source
	 * does not answer none is counting (the MIB says so) */
	s->state = stopped && p->counted ? 0 : p->state;
	snprintf(s->cpurev, sizeof(s->cpurev), "%s", p->cpurev);
	s->errors = p->errors;
	p->errors = 0;
	return 0;
}

int backend_pcp_read(struct backend *b, struct sample *s)
{
	struct pcp *p = b->priv;
	pmResult *res = NULL;
	uint64_t now = b->clock_ns ? b->clock_ns() : backend_monotonic_ns();

	if (p->nids == 0) {
		/* nothing mapped (logged at open): nothing to fetch */
		p->time_ns = now;
		return fill_sample(p, s, false, false);
	}
	switch (next_record(p, now, &res)) {
	case PCP_FETCH_OK:
	case PCP_FETCH_RECONNECTED:
		fold_result(p, res);
		pmFreeResult(res);
		return fill_sample(p, s, false, false);
	case PCP_FETCH_LOST:
		p->errors++;
		p->time_ns += (uint64_t)p->interval * 1000000000u;
		return fill_sample(p, s, true, false);
	case PCP_FETCH_END:
	case PCP_FETCH_MARK:
		/* held: the rows say the data ended, no rate is served */
		p->time_ns += (uint64_t)p->interval * 1000000000u;
		return fill_sample(p, s, false, true);
	case PCP_FETCH_ERROR:
		break;
	}
	return -1;
}
