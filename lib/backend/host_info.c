/*
 * host_info.c - the host's CPU revision and NUMA nodes (host_info.h).
 */
#include "backend/host_info.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

void backend_host_cpurev(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int family = -1, model = -1, stepping = -1;

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && strncmp(line, "\n", 1) != 0) {
		sscanf(line, "cpu family : %d", &family);
		sscanf(line, "model : %d", &model);
		sscanf(line, "stepping : %d", &stepping);
	}
	fclose(f);
	if (family >= 0 && model >= 0 && stepping >= 0)
		snprintf(out, len, "%d.%d.%d", family, model, stepping);
}

/* N of a directory entry named nodeN (N decimal, no leading zero). */
static long node_number(const char *name)
{
	uint64_t n;
	if (strncmp(name, "node", 4) != 0 || (name[4] == '0' && name[5]) ||
	    util_parse_u64(name + 4, CPU_GROUPS_MAX - 1, &n) != 0)
		return -1;
	return (long)n;
}

/* Node n's CPUs into out as group nodeN (none: skipped). */
static int add_node(const char *dir, long n, struct cpu_groups *out,
		    char *err, size_t len)
{
	char path[600], name[16], why[200];
	struct cpulist l;
	snprintf(path, sizeof(path), "%s/node%ld/cpulist", dir, n);
	if (util_cpulist_read(path, &l) != 0)
		return util_parse_fail(err, len, "%s: cannot read a CPU list",
				       path);
	if (l.n == 0)
		return 0; /* memory only */
	snprintf(name, sizeof(name), "node%ld", n);
	if (util_cpu_groups_add_list(out, name, &l, why, sizeof(why)) != 0)
		return util_parse_fail(err, len, "%s: %s", path, why);
	return 0;
}

int backend_host_nodes(const char *sysfs, struct cpu_groups *out, char *err,
		       size_t len)
{
	char dir[400];
	bool seen[CPU_GROUPS_MAX] = {false};
	struct dirent *e;

	memset(out, 0, sizeof(*out));
	snprintf(dir, sizeof(dir), "%s/devices/system/node", sysfs);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (node_number(e->d_name) >= 0)
			seen[node_number(e->d_name)] = true;
	closedir(d);
	for (long n = 0; n < CPU_GROUPS_MAX; n++)
		if (seen[n] && add_node(dir, n, out, err, len) != 0) {
			util_cpu_groups_free(out);
			return -1;
		}
	return 0;
}
