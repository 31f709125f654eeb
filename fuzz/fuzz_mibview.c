/*
 * fuzz_mibview.c - GET and GETNEXT with arbitrary OIDs against a populated
 * cache (sim CPUs 0, 2, 5 with one counter uncounted, two alarms).  The
 * first byte chooses whether the module root is prefixed; then each arc
 * is 1, 4 or 8 bytes.  Properties: GETNEXT answers an OID greater than the
 * request whose GET succeeds with the same object; GET never succeeds
 * for an OID outside the module.
 */
#include <string.h>

#include "fuzz.h"
#include "view/mibview.h"

#include "populated.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long q[MIBVIEW_OID_MAX * 4], next[MIBVIEW_OID_MAX];
	size_t n = 0, nlen = 0, i = 1;
	const struct mib_object *o = NULL, *o2 = NULL;
	struct mib_value v, v2;

	const struct mib_view *vw = populated_view();
	if (size == 0)
		return 0;
	if (data[0] & 1)
		for (unsigned k = 0; k < meta_root_len; k++)
			q[n++] = meta_root[k];
	while (i < size && n < sizeof(q) / sizeof(q[0])) {
		unsigned w = data[i] >> 6 == 0 ? 8 : data[i] >> 6 == 1 ? 4 : 1;
		unsigned long arc = data[i] & 0x3f;
		i++;
		for (unsigned k = 1; k < w && i < size; k++)
			arc = arc << 8 | data[i++];
		q[n++] = arc;
	}
	if (view_getnext(vw, q, n, next, &nlen, &o, &v) == MV_OK) {
		FUZZ_ASSERT(nlen <= MIBVIEW_OID_MAX);
		FUZZ_ASSERT(view_oid_cmp(next, nlen, q, n) > 0);
		FUZZ_ASSERT(view_get(vw, next, nlen, &o2, &v2) == MV_OK);
		FUZZ_ASSERT(o2 == o && v2.type == v.type);
	}
	if (view_get(vw, q, n, &o, &v) == MV_OK) {
		FUZZ_ASSERT(n > meta_root_len);
		for (unsigned k = 0; k < meta_root_len; k++)
			FUZZ_ASSERT(q[k] == meta_root[k]);
	}
	return 0;
}
