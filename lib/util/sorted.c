/* sorted.c - insertion in sorted arrays (the search is inline in sorted.h). */
#include "util/sorted.h"

#include <stdlib.h>
#include <string.h>

void *util_sorted_insert(void **base, size_t *n, size_t size, size_t i)
{
	char *p = realloc(*base, (*n + 1) * size);
	if (!p)
		return NULL;
	*base = p;
	memmove(p + (i + 1) * size, p + i * size, (*n - i) * size);
	memset(p + i * size, 0, size);
	(*n)++;
	return p + i * size;
}

void *util_sorted_find_or_add(void **base, size_t *n, size_t size,
			      sorted_key_fn key_of, long long key, bool *added)
{
	size_t i = util_sorted_lower_bound(*base, *n, size, key_of, key);
	*added = false;
	if (i < *n && key_of((char *)*base + i * size) == key)
		return (char *)*base + i * size;
	*added = true;
	return util_sorted_insert(base, n, size, i);
}
