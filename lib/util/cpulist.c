/* cpulist.c - parse "0-3,5" CPU lists. */
#include "util/cpulist.h"

#include "util/sorted.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number(const char **p, unsigned *out)
{
	char *end;
	if (!isdigit((unsigned char)**p))
		return -1;
	unsigned long v = strtoul(*p, &end, 10);
	if (v >= CPULIST_MAX)
		return -1;
	*out = (unsigned)v;
	*p = end;
	return 0;
}

static int add(struct cpulist *l, unsigned cpu)
{
	if (l->n && l->cpu[l->n - 1] >= cpu)
		return -1; /* the kernel writes ascending lists */
	unsigned *p = realloc(l->cpu, (l->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	l->cpu = p;
	l->cpu[l->n++] = cpu;
	return 0;
}

int util_cpulist_parse(const char *text, struct cpulist *out)
{
	const char *p = text;

	memset(out, 0, sizeof(*out));
	while (*p && *p != '\n') {
		unsigned a, b;
		if (number(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (number(&p, &b) || b < a)
				goto bad;
		}
		for (unsigned c = a; c <= b; c++)
			if (add(out, c))
				goto bad;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	return 0;
bad:
	util_cpulist_free(out);
	return -1;
}

int util_cpulist_read(const char *path, struct cpulist *out)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	memset(out, 0, sizeof(*out));
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return util_cpulist_parse(buf, out);
}

static long long cpu_key(const void *e)
{
	return *(const unsigned *)e;
}

bool util_cpulist_has(const struct cpulist *l, unsigned cpu)
{
	size_t i =
	    util_sorted_lower_bound(l->cpu, l->n, sizeof(*l->cpu), cpu_key, cpu);
	return i < l->n && l->cpu[i] == cpu;
}

void util_cpulist_free(struct cpulist *l)
{
	free(l->cpu);
	l->cpu = NULL;
	l->n = 0;
}
