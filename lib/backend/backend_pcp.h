/* backend_pcp.h - the pcp backend's settings (pcp_settings.c, built in
 * every binary) and ops (backend_pcp.c, built where libpcp is). */
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

/* Its config section (pcp_settings.c), listed by the registry in every
 * build, and its ops (backend_pcp.c), where built: others find both by
 * name. */
struct config_section;
extern const struct config_section backend_pcp_section;
struct backend_ops;
extern const struct backend_ops backend_pcp;

#endif
