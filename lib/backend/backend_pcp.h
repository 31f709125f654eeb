/* backend_pcp.h - the pcp backend's settings (backend_pcp.c). */
#ifndef HWR10K_BACKEND_PCP_H
#define HWR10K_BACKEND_PCP_H

#include <stdbool.h>

#include "meta/metrics.h"

struct pcp_settings {
	char *host;		     /* pcpHost; NULL = "local:" */
	char *archive;		     /* pcpArchive; NULL = live pmcd */
	bool loop;		     /* pcpLoop: at the archive's end */
	char *metric[COUNTER_COUNT]; /* pcpMetric; NULL = the same name */
};

/* Its ops, listed in backend.c's registry; others find it by name. */
struct backend_ops;
extern const struct backend_ops backend_pcp;

#endif
