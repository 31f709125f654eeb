/*
 * mibview.h - GET and GETNEXT over the generated object table and the
 * cache, with no net-snmp types, so most MIB logic is tested in-process.
 * OIDs here are full OIDs (module root included) as arrays of unsigned long
 * (AgentX's sub-identifiers, RFC 2741 5.1).
 */
#ifndef HWR10K_MIBVIEW_H
#define HWR10K_MIBVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "cache/cache.h"
#include "meta/objects.h"
#include "view/values.h"

#define MIBVIEW_OID_MAX 32

enum mibview_result view_get(const struct mib_view *v,
			     const unsigned long *name, size_t len,
			     const struct mib_object **obj,
			     struct mib_value *val);
/* next[] gets the OID of the answer; *nextlen its length. */
enum mibview_result view_getnext(const struct mib_view *v,
				 const unsigned long *name, size_t len,
				 unsigned long *next, size_t *nextlen,
				 const struct mib_object **obj,
				 struct mib_value *val);

/* The value of one instance (instance = CPU number for TBL_CPU). */
enum mibview_result view_value(const struct mib_view *v,
			       const struct mib_object *o,
			       unsigned long instance, struct mib_value *val);

/* OID order (lexicographic; a prefix sorts first): <0, 0, >0. */
int view_oid_cmp(const unsigned long *a, size_t alen, const unsigned long *b,
		 size_t blen);

/* Object by descriptor, for notifications and tests; NULL if unknown. */
const struct mib_object *view_object(const char *name);
/* Full OID of an object instance into out (>= MIBVIEW_OID_MAX). */
size_t view_oid(const struct mib_object *o, unsigned long instance,
		unsigned long *out);

#endif
