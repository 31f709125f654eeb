/*
 * sorted.h - arrays kept sorted by a key (CPU rows, perf CPUs, alarm
 * instances): binary search and insertion in one place.
 */
#ifndef HWR10K_SORTED_H
#define HWR10K_SORTED_H

#include <stdbool.h>
#include <stddef.h>

/* key_of(element) for the array being searched. */
typedef long long (*sorted_key_fn)(const void *elem);

/*
 * Index of the first element whose key is >= key (n if none).  Inline, so
 * that the compiler folds key_of in: GETNEXT runs this per request.
 */
static inline size_t util_sorted_lower_bound(const void *base, size_t n, size_t size,
					sorted_key_fn key_of, long long key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_of((const char *)base + mid * size) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Grow *base by one element, move [i, n) up, zero element i and return
 * it; NULL (array unchanged) when out of memory.
 */
void *util_sorted_insert(void **base, size_t *n, size_t size, size_t i);
/*
 * The element with this key, or a new zeroed one inserted in order
 * (*added true; the caller sets its key); NULL when out of memory.
 */
void *util_sorted_find_or_add(void **base, size_t *n, size_t size,
			      sorted_key_fn key_of, long long key, bool *added);

#endif
