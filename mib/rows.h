/* rows.h - the rows of lib/tables/objects.def, as data (rows.c), for the model
 * builder (mibmodel.c). */
#ifndef HWR10K_ROWS_H
#define HWR10K_ROWS_H

#include <stddef.h>

#include "meta/objects.h"

enum row_kind {
	R_TC,
	R_BRANCH,
	R_TABLE,
	R_INDEX,
	R_SCALAR,
	R_COLUMN,
	R_METRICS,
	R_NOTE,
	R_NOTIFICATION,
	R_GROUP,
	R_COMPLIANCE,
};
enum {
	TOTALS,
	CPU_COUNTERS,
	RATES,
	CPU_RATES,
	STATS,
	CPU_STATS,
	GROUP_COUNTERS,
	GROUP_RATES,
	GROUP_STATS
}; /* WHAT */
enum { OBJECTS, NOTIFICATIONS }; /* GROUP's KIND */
#define ALARM (-1)		 /* NOTIFICATION's INSTANCE */

struct row {
	enum row_kind kind;
	const char *name, *parent, *entry, *type, *index, *syntax, *seqtype;
	const char *group, *units, *descr, *descr2, *objects, *hint;
	unsigned arc;
	enum obj_syntax csyn;
	enum obj_access acc;
	enum obj_table tbl;
	enum obj_tag tag;
	int what; /* METRICS: WHAT; NOTIFICATION: INSTANCE; GROUP: KIND */
};

extern const struct row mib_model_rows[];
extern const size_t mib_model_nrows;

#endif
