/*
 * host_info.h - what a backend reads of the host besides its counters
 * (host_info.c): the CPU's family.model.stepping and the NUMA nodes,
 * the default CPU groups.
 */
#ifndef HWR10K_HOST_INFO_H
#define HWR10K_HOST_INFO_H

#include <stddef.h>

#include "util/cpugroups.h"

/* "family.model.stepping" from /proc/cpuinfo's first CPU, else
 * "unknown". */
void backend_host_cpurev(char *out, size_t len);
/*
 * The NUMA nodes under sysfs (SYSFS/devices/system/node/nodeN/cpulist),
 * in the order of N, as groups named nodeN; a node without CPUs (memory
 * only) is left out.  No node directory (no NUMA, a container): no
 * groups, 0.  -1 with a message in err for a cpulist that cannot be read
 * or parsed, or nodes that overlap; out is then empty.
 */
int backend_host_nodes(const char *sysfs, struct cpu_groups *out, char *err,
		       size_t len);

#endif
