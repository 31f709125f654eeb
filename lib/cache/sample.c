/* sample.c - backend reading buffer. */
#include "cache/sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cache_sample_reserve(struct sample *s, size_t n)
{
	if (n <= s->cap)
		return 0;
	struct cpu_sample *p = realloc(s->cpus, n * sizeof(*p));
	if (!p)
		return -1;
	memset(p + s->cap, 0, (n - s->cap) * sizeof(*p));
	s->cpus = p;
	s->cap = n;
	return 0;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct cpu_sample *x = a, *y = b;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int cache_sample_sort(struct sample *s)
{
	size_t i = 1;

	if (s->ncpus < 2) /* qsort(NULL, 0, ...) is undefined */
		return 0;
	while (i < s->ncpus && s->cpus[i - 1].cpu < s->cpus[i].cpu)
		i++;
	if (i == s->ncpus)
		return 0; /* every backend reads CPUs in order: no copying */
	qsort(s->cpus, s->ncpus, sizeof(*s->cpus), cmp_cpu);
	for (i = 1; i < s->ncpus; i++)
		if (s->cpus[i].cpu == s->cpus[i - 1].cpu)
			return -1;
	return 0;
}

void cache_sample_free(struct sample *s)
{
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

void cache_sample_clear(struct sample *s)
{
	struct cpu_sample *cpus = s->cpus;
	size_t cap = s->cap;

	*s = (struct sample){.cpus = cpus, .cap = cap, .state = -1};
	snprintf(s->cpurev, sizeof(s->cpurev), "unknown");
}
