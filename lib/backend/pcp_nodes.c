/*
 * pcp_nodes.c - the source's NUMA nodes as CPU groups: PCP's
 * hinv.map.cpu_node (linux PMDA: the node of each CPU instance cpuN),
 * read once at open from pmcd, or from an archive's first record that
 * holds it (the archive is then rewound: its records are served from the
 * first as before).  A source without the metric has no groups.
 */
#include "backend/pcp_data.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define CPU_NODE_METRIC "hinv.map.cpu_node"

struct node_cpu {
	unsigned node, cpu;
};

static int by_node(const void *a, const void *b)
{
	const struct node_cpu *x = a, *y = b;
	if (x->node != y->node)
		return (x->node > y->node) - (x->node < y->node);
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The (node, cpu) pairs sorted into groups nodeN; -1 with a message. */
static int make_groups(struct node_cpu *nc, size_t n, struct cpu_groups *out,
		       char *err, size_t len)
{
	char name[24];
	qsort(nc, n, sizeof(*nc), by_node);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && nc[j].node == nc[i].node)
			j++;
		struct cpulist l = {malloc((j - i) * sizeof(unsigned)), 0};
		if (!l.cpu)
			return -1;
		for (size_t k = i; k < j; k++)
			if (!l.n || l.cpu[l.n - 1] != nc[k].cpu)
				l.cpu[l.n++] = nc[k].cpu;
		snprintf(name, sizeof(name), "node%u", nc[i].node);
		if (util_cpu_groups_add_list(out, name, &l, err, len) != 0)
			return -1;
		i = j;
	}
	return 0;
}

/* One result's values of id (an archive's record holds others too):
 * each instance cpuN with its node. */
static int from_result(struct pcp_source *src, pmID id, const pmDesc *d,
		       const pmResult *res, struct cpu_groups *out, char *err,
		       size_t len)
{
	const pmValueSet *vs = NULL;
	for (int i = 0; i < res->numpmid; i++)
		if (res->vset[i]->pmid == id)
			vs = res->vset[i];
	if (!vs || vs->numval <= 0)
		return 0;
	struct node_cpu *nc = calloc((size_t)vs->numval, sizeof(*nc));
	size_t n = 0;
	for (int i = 0; nc && i < vs->numval; i++) {
		pmAtomValue v;
		char *iname = backend_pcp_source_inst_name(src, d->indom,
							   vs->vlist[i].inst);
		long cpu = backend_pcp_cpu_of_instance(iname);
		free(iname);
		if (cpu < 0 || pmExtractValue(vs->valfmt, &vs->vlist[i],
					      d->type, &v, PM_TYPE_U32) < 0)
			continue; /* not a CPU, or no node number */
		nc[n++] = (struct node_cpu){v.ul, (unsigned)cpu};
	}
	int rc = nc ? make_groups(nc, n, out, err, len) : -1;
	free(nc);
	return rc;
}

void backend_pcp_nodes_read(struct pcp *p)
{
	pmID id;
	pmDesc d;
	pmResult *res;
	char err[300] = "out of memory";

	memset(&p->nodes, 0, sizeof(p->nodes));
	if (backend_pcp_source_lookup(&p->src, CPU_NODE_METRIC, &id, &d, err,
				      sizeof(err)) != 0 ||
	    d.indom == PM_INDOM_NULL)
		return; /* no such metric here: no groups */
	enum pcp_fetch f = backend_pcp_source_fetch(&p->src, 1, &id, &res, 0);
	if (f == PCP_FETCH_OK || f == PCP_FETCH_RECONNECTED) {
		if (from_result(&p->src, id, &d, res, &p->nodes, err,
				sizeof(err)) != 0) {
			util_log(LOG_WARNING,
				 "pcp: %s: %s: %s; no CPU groups\n",
				 p->src.name, CPU_NODE_METRIC, err);
			util_cpu_groups_free(&p->nodes);
		}
		pmFreeResult(res);
	}
	if (p->src.archive)
		backend_pcp_source_rewind(&p->src);
	if (p->nodes.n)
		util_log(LOG_INFO, "pcp: %s: %zu CPU group(s) from %s\n",
			 p->src.name, p->nodes.n, CPU_NODE_METRIC);
}
