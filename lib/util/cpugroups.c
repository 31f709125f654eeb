/* cpugroups.c - named, disjoint groups of CPUs (cpugroups.h). */
#include "util/cpugroups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "util/sorted.h"

bool util_cpu_group_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > CPU_GROUP_NAME_MAX)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		      *p == '-'))
			return false;
	return true;
}

static long long of_key(const void *e)
{
	return ((const struct cpu_group_of *)e)->cpu;
}

long util_cpu_groups_find(const struct cpu_groups *gs, unsigned cpu)
{
	size_t i = util_sorted_lower_bound(gs->map, gs->nmap, sizeof(*gs->map),
				      of_key, cpu);
	return i < gs->nmap && gs->map[i].cpu == cpu ? (long)gs->map[i].group
						     : -1;
}

/* The list as the kernel writes it, cut (with "...") at the MIB's size. */
static void list_text(const struct cpulist *l, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		size_t j = i;
		while (j + 1 < l->n && l->cpu[j + 1] == l->cpu[j] + 1)
			j++;
		char part[32];
		if (j > i)
			snprintf(part, sizeof(part), "%s%u-%u", i ? "," : "",
				 l->cpu[i], l->cpu[j]);
		else
			snprintf(part, sizeof(part), "%s%u", i ? "," : "",
				 l->cpu[i]);
		if (used + strlen(part) + 4 > len) {
			snprintf(out + used, len - used, ",...");
			return;
		}
		used += (size_t)snprintf(out + used, len - used, "%s", part);
		i = j;
	}
}

static int cmp_of(const void *a, const void *b)
{
	unsigned x = ((const struct cpu_group_of *)a)->cpu;
	unsigned y = ((const struct cpu_group_of *)b)->cpu;
	return (x > y) - (x < y);
}

/* The CPUs of the last group into the map; -1 with a message if one is
 * in another group already. */
static int map_last(struct cpu_groups *gs, char *err, size_t len)
{
	const struct cpu_group *g = &gs->g[gs->n - 1];
	for (size_t i = 0; i < g->cpus.n; i++) {
		long other = util_cpu_groups_find(gs, g->cpus.cpu[i]);
		if (other >= 0)
			return util_parse_fail(
			    err, len,
			    "CPU %u of group '%s' is in group "
			    "'%s' already (groups never overlap)",
			    g->cpus.cpu[i], g->name, gs->g[other].name);
	}
	struct cpu_group_of *m =
	    realloc(gs->map, (gs->nmap + g->cpus.n + 1) * sizeof(*m));
	if (!m)
		return util_parse_fail(err, len, "out of memory");
	gs->map = m;
	for (size_t i = 0; i < g->cpus.n; i++)
		m[gs->nmap++] = (struct cpu_group_of){g->cpus.cpu[i],
						      (unsigned)gs->n - 1};
	qsort(m, gs->nmap, sizeof(*m), cmp_of);
	return 0;
}

int util_cpu_groups_add_list(struct cpu_groups *gs, const char *name,
			     struct cpulist *cpus, char *err, size_t len)
{
	int rc = -1;
	if (!util_cpu_group_name_ok(name))
		util_parse_fail(err, len,
				"group name '%s': 1 to %d of A-Z a-z 0-9 . _ -",
				name, CPU_GROUP_NAME_MAX);
	else if (cpus->n == 0)
		util_parse_fail(err, len, "group '%s' has no CPU", name);
	else if (gs->n >= CPU_GROUPS_MAX)
		util_parse_fail(err, len, "more than %d groups",
				CPU_GROUPS_MAX);
	else
		rc = 0;
	for (size_t i = 0; rc == 0 && i < gs->n; i++)
		if (strcmp(gs->g[i].name, name) == 0)
			rc = util_parse_fail(err, len, "group '%s' named twice",
					     name);
	struct cpu_group *p =
	    rc ? NULL : realloc(gs->g, (gs->n + 1) * sizeof(*p));
	if (!p) {
		if (rc == 0)
			util_parse_fail(err, len, "out of memory");
		util_cpulist_free(cpus);
		return -1;
	}
	gs->g = p;
	struct cpu_group *g = &gs->g[gs->n++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->cpus = *cpus;
	list_text(&g->cpus, g->text, sizeof(g->text));
	if (map_last(gs, err, len) == 0)
		return 0;
	util_cpulist_free(&g->cpus);
	gs->n--;
	return -1;
}

int util_cpu_groups_add(struct cpu_groups *gs, const char *name,
			const char *list, char *err, size_t len)
{
	struct cpulist cpus;
	if (util_cpulist_parse(list, &cpus) != 0)
		return util_parse_fail(
		    err, len,
		    "group '%s': bad CPU list '%s' (ascending "
		    "CPUs 0..%d as 0-3,8)",
		    name, list, CPULIST_MAX - 1);
	return util_cpu_groups_add_list(gs, name, &cpus, err, len);
}

int util_cpu_groups_even(struct cpu_groups *gs, unsigned n, unsigned ncpus)
{
	char err[160], name[16];
	unsigned next = 0;
	for (unsigned k = 0; k < n; k++) {
		unsigned size = ncpus / n + (k < ncpus % n);
		struct cpulist l = {NULL, 0};
		if (size && !(l.cpu = malloc(size * sizeof(*l.cpu))))
			return -1;
		for (unsigned i = 0; i < size; i++)
			l.cpu[l.n++] = next++;
		snprintf(name, sizeof(name), "node%u", k);
		if (size && util_cpu_groups_add_list(gs, name, &l, err,
						     sizeof(err)) != 0)
			return -1;
	}
	return 0;
}

bool util_cpu_groups_same(const struct cpu_groups *a,
			  const struct cpu_groups *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->g[i].name, b->g[i].name) != 0 ||
		    a->g[i].cpus.n != b->g[i].cpus.n ||
		    memcmp(a->g[i].cpus.cpu, b->g[i].cpus.cpu,
			   a->g[i].cpus.n * sizeof(unsigned)) != 0)
			return false;
	return true;
}

int util_cpu_groups_copy(struct cpu_groups *dst, const struct cpu_groups *src)
{
	char err[160];
	util_cpu_groups_free(dst);
	for (size_t i = 0; i < src->n; i++) {
		const struct cpulist *s = &src->g[i].cpus;
		struct cpulist l = {malloc(s->n * sizeof(*s->cpu)), s->n};
		if (!l.cpu ||
		    (memcpy(l.cpu, s->cpu, s->n * sizeof(*s->cpu)),
		     util_cpu_groups_add_list(dst, src->g[i].name, &l, err,
					      sizeof(err)) != 0)) {
			util_cpu_groups_free(dst); /* util_cpu_groups_add_list freed l */
			return -1;
		}
	}
	return 0;
}

void util_cpu_groups_free(struct cpu_groups *gs)
{
	for (size_t i = 0; i < gs->n; i++)
		util_cpulist_free(&gs->g[i].cpus);
	free(gs->g);
	free(gs->map);
	memset(gs, 0, sizeof(*gs));
}
