/*
 * pcp_source.h - where the pcp backend reads from (pcp_source.c): one
 * libpcp context on pmcd (live) or on a pmlogger archive, with pmcd's
 * reconnection back-off and the archive's end and <mark> records.
 */
#ifndef HWR10K_PCP_SOURCE_H
#define HWR10K_PCP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pcp/pmapi.h>

/* Reconnection to a lost pmcd: tried at the polls, first 1 s after the
 * loss, then with a back-off doubling to at most 8 s, so the agent
 * counts again at most 8 s plus one pollInterval after pmcd answers.
 * libpcp's own throttle (PMCD_RECONNECT_TIMEOUT, 5,10,20,40,80 s by
 * default) would stretch that to 80 s: unless the environment sets it,
 * the agent sets it to 1 s, so this back-off is the only one. */
#define PCP_RETRY_MIN_NS UINT64_C(1000000000) /* first reconnect: 1 s */
#define PCP_RETRY_MAX_NS UINT64_C(8000000000) /* back-off cap: 8 s */
#define PCP_LIBPCP_RECONNECT "1" 

struct pcp_source {
	int ctx; /* libpcp context, -1 when none */
	bool archive;
	char *name; /* "pmcd at HOST" or the archive path, for messages */
	/* live: false from a lost connection until a reconnect works */
	bool connected;
	uint64_t retry_at_ns, backoff_ns;
	char host[256];	      /* live: the host spec given to libpcp */
	struct timeval start; /* archive: the first record's time */
	int error;	      /* archive: libpcp's code of a FETCH_ERROR */
};

enum pcp_fetch {
	PCP_FETCH_OK,	       /* *res holds a result (pmFreeResult it) */
	PCP_FETCH_END,	       /* archive: no record after the last one */
	PCP_FETCH_MARK,	       /* archive: a <mark> record (a gap) */
	PCP_FETCH_LOST,	       /* live: pmcd lost (logged); retrying */
	PCP_FETCH_RECONNECTED, /* live: *res holds a result after a loss */
	PCP_FETCH_ERROR,       /* any other failure: logged, or for an
				  archive in src->error (a corrupt record) */
};

/* Open pmcd at host (NULL: "local:") or, when archive is set, that
 * archive; -1 with a message naming it. */
int backend_pcp_source_open(struct pcp_source *src, const char *host,
			    const char *archive, char *err, size_t len);
/* The PMID and descriptor of name; -1 with libpcp's reason in err. */
int backend_pcp_source_lookup(struct pcp_source *src, const char *name,
			      pmID *id, pmDesc *desc, char *err, size_t len);
/* One fetch of ids; the archive's next record.  now_ns paces the
 * reconnection attempts of a live source. */
enum pcp_fetch backend_pcp_source_fetch(struct pcp_source *src, int n,
					pmID *ids, pmResult **res,
					uint64_t now_ns);
/* Archive: back to the first record; -1 (logged) on failure. */
int backend_pcp_source_rewind(struct pcp_source *src);
/* Every instance of indom the source knows now (live: pmcd's current
 * ones; archive: all it recorded): their number, with *inst and *names
 * (one allocation each, free both); 0 when none or unknown. */
int backend_pcp_source_instances(struct pcp_source *src, pmInDom indom,
				 int **inst, char ***names);
/* The name of instance inst of indom, as libpcp reports it (caller
 * frees); NULL when unknown.  In an archive, the name in effect at the
 * record last fetched (ids can be reused with other names over time). */
char *backend_pcp_source_inst_name(struct pcp_source *src, pmInDom indom,
				   int inst);
/* Archive: a digest of indom's instances (ids and names) at the record
 * last fetched, to see it change between records; 0 when unknown. */
uint64_t backend_pcp_source_indom_digest(struct pcp_source *src, pmInDom indom);
void backend_pcp_source_close(struct pcp_source *src);

/* The CPU number of an instance name "cpuN" (N decimal, no sign, at most
 * 65535); -1 for any other name. */
long backend_pcp_cpu_of_instance(const char *name);

#endif
