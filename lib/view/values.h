/*
 * values.h - the value of every object tag (objects.h), read from the
 * cache and the alarm set.  The SNMP type comes from the object's declared
 * syntax (lib/tables/objects.def), never from the code that reads the value.
 */
#ifndef HWR10K_VALUES_H
#define HWR10K_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agentx/agentx_encode.h"
#include "cache/cache.h"
#include "meta/objects.h"
#include "view/served.h"

struct alarm;

/* What requests read: the counter cache and the agent's served state. */
struct mib_view {
	const struct cache *cache;
	const struct served *served;
};

/* A value as the MIB declares it: the object's syntax, and the field of
 * the wire's union it fills (a string points into the cache). */
struct mib_value {
	enum obj_syntax type;
	union ax_datum v;
};

enum mibview_result {
	MV_OK,
	MV_NO_SUCH_OBJECT,
	MV_NO_SUCH_INSTANCE,
	MV_END_OF_VIEW, /* getnext: nothing after this OID in the module */
};

/* Where a value is read: the object, and its CPU row or alarm. */
struct value_at {
	const struct mib_view *v;
	const struct mib_object *o;
	const struct cpu_row *row; /* TBL_CPU */
	const struct alarm *alarm; /* TBL_ALARM */
	long group;		   /* TBL_GROUP: its position (index - 1) */
};

/* The value at `at`; MV_NO_SUCH_INSTANCE when there is none now. */
enum mibview_result view_value_read(const struct value_at *at,
				    struct mib_value *v);
/* The value as AgentX carries it: the syntax's wire type
 * (objects.h's SMI_TYPES); a type outside it is one the codec refuses. */
struct ax_value view_value_wire(const struct mib_value *v);
/* The varbind name = v into b, in v's wire type: how a Response and a
 * Notify carry a value read from the view. */
void view_varbind(struct ax_buf *b, const unsigned long *name, size_t len,
		  const struct mib_value *v);
/* Does the agent serve this tag?  (A unit test asks it of every object.) */
bool view_value_has_source(enum obj_tag tag);

#endif
