/*
 * mibmodel.h - the in-memory model of HW-R10KEVCTR-MIB that genmib builds
 * from lib/tables/metrics.def, lib/tables/root.def and mib/hw.help, and
 * from which it writes both the MIB text and the agent's C object table.
 */
#ifndef HWR10K_MIBMODEL_H
#define HWR10K_MIBMODEL_H

#include <stdio.h>

#include "meta/helpfile.h"
#include "meta/metrics.h"
#include "meta/objects.h"

enum node_kind {
	NK_BRANCH,     /* OBJECT IDENTIFIER */
	NK_SCALAR,     /* OBJECT-TYPE, instance .0 */
	NK_TABLE,      /* SEQUENCE OF */
	NK_ENTRY,      /* conceptual row */
	NK_COLUMN,     /* columnar OBJECT-TYPE */
	NK_INDEX,      /* not-accessible index column */
	NK_NOTIF,      /* NOTIFICATION-TYPE */
	NK_OGROUP,     /* OBJECT-GROUP */
	NK_NGROUP,     /* NOTIFICATION-GROUP */
	NK_COMPLIANCE, /* MODULE-COMPLIANCE */
	NK_TC,	       /* TEXTUAL-CONVENTION (syntax = its SYNTAX) */
};

struct node {
	enum node_kind kind;
	char name[METRIC_DESCRIPTOR_MAX + 1];
	const char *parent; /* descriptor of the parent; NULL = module root */
	unsigned arc;
	unsigned arcs[OBJ_MAX_ARCS]; /* below the module root */
	unsigned len;
	const char *syntax;  /* SYNTAX clause text */
	const char *seqtype; /* type in the entry's SEQUENCE */
	const char *units;   /* UNITS or NULL */
	const char *index;   /* "INDEX { x }" / "AUGMENTS { y }" for entries */
	const char *group;   /* conformance group this object belongs to */
	char *descr;	     /* DESCRIPTION text, paragraphs split by "\n\n" */
	char *members;	     /* notifications: OBJECTS; groups: members */
	/* for the C object table */
	enum obj_syntax csyn;
	enum obj_access acc;
	enum obj_table table;
	enum obj_tag tag;
	int counter;	  /* counter index, or -1 */
	int stat;	  /* statistic index (stats.def), or -1 */
	const char *hint; /* a TC's DISPLAY-HINT */
};

struct mibmodel {
	struct node *nodes;
	size_t count;
};

/* Build the model; errors (FILE:LINE) go to err; returns error count. */
int mib_model_build(struct mibmodel *mm, const struct helpfile *hf, FILE *err);
void mib_model_free(struct mibmodel *mm);

/* Writers. */
void mib_model_write_mib(const struct mibmodel *mm, FILE *out);
void mib_model_write_c(const struct mibmodel *mm, FILE *out);
void mib_model_write_zabbix(const struct mibmodel *mm, FILE *out);
void mib_model_write_snmp_generator(const struct mibmodel *mm, FILE *out);

/* The revision history, newest first (revisions.c). */
struct mib_revision {
	const char *date, *text;
};
extern const struct mib_revision mib_revisions[];
extern const size_t mib_revisions_count;
/* The newest REVISION's date ("YYYYMMDDhhmmZ"). */
const char *mib_model_revision(void);

#endif
