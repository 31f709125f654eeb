/* mibmodel_int.h - between the model's files (mibmodel.c builds,
 * mibmodel_node.c adds nodes, mibmodel_stats.c the statistics). */
#ifndef HWR10K_MIBMODEL_INT_H
#define HWR10K_MIBMODEL_INT_H

#include <stdio.h>

#include "mibmodel.h"
#include "rows.h"

/* A node below parent (NULL or "": the module root) at arc
 * (mibmodel_node.c); its DESCRIPTION, copied. */
struct node *mib_model_add(struct mibmodel *mm, enum node_kind kind,
			   const char *name, const char *parent, unsigned arc);
void mib_model_descr(struct node *n, const char *text);
/* An OBJECT-TYPE of a SCALAR, COLUMN or METRICS row. */
struct node *mib_model_leaf(struct mibmodel *mm, const struct row *r,
			    const char *name, unsigned arc, const char *descr);
/* One object per statistic of stats.def (a STATS or CPU_STATS row);
 * the number of errors, each said on err. */
int mib_model_add_stats(struct mibmodel *mm, const struct row *r, FILE *err);

#endif
