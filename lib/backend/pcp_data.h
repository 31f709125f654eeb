/*
 * pcp_data.h - the open pcp backend, shared by its setup (backend_pcp.c)
 * and its reads (pcp_read.c).
 */
#ifndef HWR10K_PCP_DATA_H
#define HWR10K_PCP_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "util/counter_math.h"
#include "backend/pcp_source.h"
#include "cache/sample.h"

/* What an instance of a metric's instance domain is: a CPU, or not. */
struct pcp_inst {
	int inst;
	long cpu; /* -1: its name is not cpuN (logged once, skipped) */
};

/* The PCP metric that feeds one counter. */
struct pcp_metric {
	int counter;
	char *name;
	pmID id;
	pmDesc desc;
	unsigned width;	       /* 32 or 64, from the PCP type */
	struct pcp_inst *inst; /* learnt from the fetches, sorted by inst */
	size_t ninst;
	/* Conditions logged once when they start (and end), not per poll:
	 * an instance that is not a CPU; a fetch error for this metric. */
	bool noncpu_logged, failing;
	/* Archive: the digest of the instance domain its instances were
	 * learnt from (backend_pcp_source_indom_digest); learnt again on a
	 * change. */
	uint64_t indom_digest;
};

struct pcp_cpu {
	unsigned cpu;
	bool present; /* had a value in the record being served */
	struct count_cell cell[COUNTER_COUNT];
};

struct pcp {
	struct pcp_source src;
	bool loop, ended;
	unsigned interval;
	struct pcp_metric metric[COUNTER_COUNT];
	int nmetrics;
	/* The fetch: the counters' PMIDs, then state and cpurev if any. */
	pmID ids[COUNTER_COUNT + 2];
	int nids, state_at, cpurev_at; /* index into ids, -1 if absent */
	pmDesc state_desc, cpurev_desc;
	counter_mask counted, system_wide;
	struct pcp_cpu *cpus; /* every CPU seen, sorted */
	size_t ncpus;
	struct count_cell total[COUNTER_COUNT]; /* system-wide counters */
	uint32_t epoch;
	uint64_t epoch_ns, time_ns; /* the source's clock */
	size_t records;		    /* archive: records served this pass */
	unsigned long loops;	    /* archive: times it started again */
	bool corrupt_logged;	    /* archive: an unreadable record said */
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
	unsigned errors; /* not yet reported in a sample */
	struct cpu_groups nodes; /* hinv.map.cpu_node: the default groups */
};

/* Start a new counting epoch: every cell takes its next reading as its
 * base (what was counted in between is unknown). */
void backend_pcp_restart(struct pcp *p);
/* The source's hinv.map.cpu_node into p->nodes (pcp_nodes.c): none when
 * it has no such metric; an archive is rewound after. */
void backend_pcp_nodes_read(struct pcp *p);
/* backend_pcp's read (pcp_read.c). */
int backend_pcp_read(struct backend *b, struct sample *s);

#endif
