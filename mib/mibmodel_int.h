/* mibmodel_int.h - between the model's files (mibmodel.c builds, the
 * others add their objects through it). */
#ifndef HWR10K_MIBMODEL_INT_H
#define HWR10K_MIBMODEL_INT_H

#include <stdio.h>

#include "mibmodel.h"
#include "rows.h"

/* An OBJECT-TYPE of a SCALAR, COLUMN or METRICS row. */
struct node *mibmodel_leaf(struct mibmodel *mm, const struct row *r,
			   const char *name, unsigned arc, const char *descr);
/* One object per statistic of stats.def (a STATS or CPU_STATS row);
 * the number of errors, each said on err. */
int mibmodel_add_stats(struct mibmodel *mm, const struct row *r, FILE *err);

#endif
