/*
 * cpugroups.h - named groups of CPUs (a NUMA node, a socket, a set the
 * operator names with cpuGroup): each a name and a CPU list, a CPU in at
 * most one group.  The cache sums each group's CPUs in the same pass as
 * the totals; the backends give their defaults (NUMA nodes), the config
 * overrides them.
 */
#ifndef HWR10K_CPUGROUPS_H
#define HWR10K_CPUGROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cpulist.h"

#define CPU_GROUP_NAME_MAX 32 /* 1-32 of A-Z a-z 0-9 . _ - */
#define CPU_GROUPS_MAX	   1024
#define CPU_GROUP_TEXT_MAX 255 /* the list as text, as the MIB serves it */

struct cpu_group {
	char name[CPU_GROUP_NAME_MAX + 1];
	char text[CPU_GROUP_TEXT_MAX + 1]; /* "0-3,8", made from cpus */
	struct cpulist cpus;
};

/* cpu -> group, sorted by cpu (the lookup the cache makes per row) */
struct cpu_group_of {
	unsigned cpu;
	unsigned group;
};

struct cpu_groups {
	struct cpu_group *g; /* in order: index + 1 = the MIB's index */
	size_t n;
	struct cpu_group_of *map; /* every CPU of every group, sorted */
	size_t nmap;
};

/* A name of 1-32 of A-Z a-z 0-9 . _ - ? */
bool util_cpu_group_name_ok(const char *name);
/*
 * Add group name with the CPUs of list (the kernel's "0-3,5" format):
 * -1 with a message in err for a bad name or list, a name already used,
 * a CPU already in another group (groups never overlap: a CPU's counts
 * would be summed twice in a total of the groups), or too many groups.
 */
int util_cpu_groups_add(struct cpu_groups *gs, const char *name,
			const char *list, char *err, size_t len);
/* The same with a parsed list (taken over: freed on error too). */
int util_cpu_groups_add_list(struct cpu_groups *gs, const char *name,
			     struct cpulist *cpus, char *err, size_t len);
/* n groups "node0".."nodeN-1" splitting CPUs 0..ncpus-1 evenly (the
 * first ncpus % n groups one CPU more); -1 when out of memory. */
int util_cpu_groups_even(struct cpu_groups *gs, unsigned n, unsigned ncpus);
/* The group of cpu (its position), -1 if it is in none. */
long util_cpu_groups_find(const struct cpu_groups *gs, unsigned cpu);
bool util_cpu_groups_same(const struct cpu_groups *a,
			  const struct cpu_groups *b);
/* A deep copy into dst (emptied first); -1 when out of memory. */
int util_cpu_groups_copy(struct cpu_groups *dst, const struct cpu_groups *src);
void util_cpu_groups_free(struct cpu_groups *gs);

#endif
