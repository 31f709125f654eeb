/* mibmodel_node.c - the model's nodes: one added below its parent (its
 * OID made from the parent's), an OBJECT-TYPE of a row. */
#include "mibmodel_int.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct node *mib_model_add(struct mibmodel *mm, enum node_kind kind,
			   const char *name, const char *parent, unsigned arc)
{
	struct node *n = realloc(mm->nodes, (mm->count + 1) * sizeof(*n));
	if (!n) {
		perror("genmib");
		exit(2);
	}
	mm->nodes = n;
	n = &mm->nodes[mm->count++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->parent = parent && parent[0] ? parent : NULL;
	n->arc = arc;
	n->counter = -1;
	n->stat = -1;
	n->acc = ACC_READ_ONLY;
	for (size_t i = 0; n->parent && i + 1 < mm->count; i++) {
		if (strcmp(mm->nodes[i].name, n->parent) == 0) {
			memcpy(n->arcs, mm->nodes[i].arcs, sizeof(n->arcs));
			n->len = mm->nodes[i].len;
			break;
		}
	}
	n->arcs[n->len++] = arc;
	return n;
}

void mib_model_descr(struct node *n, const char *text)
{
	n->descr = strdup(text);
}

/* An OBJECT-TYPE of a SCALAR, COLUMN or METRICS row. */
struct node *mib_model_leaf(struct mibmodel *mm, const struct row *r,
			    const char *name, unsigned arc, const char *descr)
{
	bool group = r->kind == R_METRICS &&
		     (r->what == GROUP_COUNTERS || r->what == GROUP_RATES ||
		      r->what == GROUP_STATS);
	bool column = r->kind == R_COLUMN || group ||
		      (r->kind == R_METRICS &&
		       (r->what == CPU_COUNTERS || r->what == CPU_RATES ||
			r->what == CPU_STATS));
	struct node *n = mib_model_add(mm, column ? NK_COLUMN : NK_SCALAR, name,
				       r->parent, arc);
	n->syntax = r->syntax;
	n->seqtype = r->seqtype ? r->seqtype : r->syntax;
	n->csyn = r->csyn;
	n->acc = r->acc;
	n->tag = r->tag;
	n->group = r->group;
	n->units = r->units;
	n->table = r->kind != R_METRICS ? r->tbl
		   : group		 ? TBL_GROUP
		   : column		 ? TBL_CPU
					 : TBL_SCALAR;
	mib_model_descr(n, descr);
	return n;
}
