/*
 * zabbix.h - the Zabbix 6.0 template genmib writes (emit_zabbix.c lays it
 * out): what an item or trigger is (zabbix_items.c holds the data, by the
 * MIB's value tags), and the YAML writers (zabbix_yaml.c).
 */
#ifndef HWR10K_ZABBIX_H
#define HWR10K_ZABBIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "meta/metrics.h"
#include "mibmodel.h"

#define ZBX_TEMPLATE "HW R10000 event counters by SNMP"
/* "/TEMPLATE/KEY" inside a trigger expression. */
#define ZBX_REF(key) "/" ZBX_TEMPLATE "/" key

enum zbx_vtype { V_FLOAT, V_UNSIGNED, V_CHAR, V_TEXT };
enum zbx_prep { P_NONE, P_CHANGE, P_MULTIPLY, P_DISCARD };
enum zbx_itype { I_SNMP, I_DEPENDENT, I_CALCULATED };

struct mib_zbx_item {
	const struct node *n; /* the MIB object (its OID, description) */
	const char *key, *name, *units, *valuemap, *delay;
	const char *instance; /* "0" (a scalar) or "{#SNMPINDEX}" */
	enum zbx_vtype vt;
	enum zbx_prep prep;
	char param[24];	 /* the preprocessing step's parameter */
	const char *cpu; /* a per-CPU prototype: its CPU macro (tag cpu) */
	const char *group; /* a per-group prototype: {#GROUP} (tag group) */
	/* Not an SNMP GET of n: */
	enum zbx_itype type;
	const char *oid;     /* I_SNMP without n: the whole snmp_oid */
	const char *master;  /* I_DEPENDENT: the master item's key */
	const char *path;    /* I_DEPENDENT: the JSONPath (first step) */
	const char *js;	     /* a JavaScript step (first step) */
	const char *formula; /* I_CALCULATED */
	const char *descr;   /* without n */
	const char *history; /* NULL: 7d */
	bool no_trends;
	/* The formula's "no value" is below 0 or above ZBX_NONE_ABOVE: an
	 * In range step discards it. */
	bool says_none;
	/* JSONPath on a key the walk may lack (a CPU away for a poll): no
	 * value, not an unsupported item (which would make every formula
	 * reading it unsupported for 10 minutes) */
	bool path_may_miss;
};

/* Above it a calculated value means none (zabbix_exact.c's snapshot). */
#define ZBX_NONE_ABOVE "1000000000000000000"

struct zbx_trigger {
	const char *expr, *name, *priority, *descr;
	const char *scope;     /* tag: availability, performance, notice */
	const char *component; /* tag: cpu, health */
	bool root;	   /* "No SNMP data collection": depends on none */
	bool on_state;	   /* also depends on the host's "not counting" */
	bool hold;	   /* an event: no recovery, closed by hand */
	bool group;	   /* a group's prototype: tag group, not cpu */
};

/* zabbix_items.c: the item for an object of the MIB (false: none: the
 * rates and statistics are zabbix_exact.c's), the triggers on it. */
bool mib_zbx_item_for(const struct node *n, struct mib_zbx_item *it, char *key,
		      char *name, size_t len);
const struct zbx_trigger *mib_zbx_triggers_on(const struct node *n,
					      size_t *count);
/* A counter some statistic is computed from. */
bool mib_zbx_stat_input(const struct metric *c);
/* The scalar or column of tag (and of counter, unless it is < 0). */
const struct node *mib_zbx_find_tag(const struct mibmodel *mm, enum obj_tag tag,
				    int counter);
/* "No SNMP data collection" (on zabbix[host,snmp,available]), and the
 * host's "not counting": what the other triggers depend on. */
extern const struct zbx_trigger mib_zbx_snmp_down, mib_zbx_state_down;

/* zabbix_exact.c: the rates and statistics, exact between any two
 * readings: the master item (one walk), its dependent items, the
 * discovery rules of the events and statistics the host counts. */
#define ZBX_POLL_KEY "hwr10k.poll"
/* The graph prototypes the dashboard shows. */
#define ZBX_GRAPH_EVENTS  "{#EVENT} per second (all CPUs)"
/* (a name without a macro would be taken by its own prototype) */
#define ZBX_GRAPH_IPC	  "Ratio {#STAT.IPC} (all CPUs)"
#define ZBX_GRAPH_CPU_IPC "CPU {#CPU}: ratio ipc"
#define ZBX_GRAPH_GROUP_IPC "Group {#GROUP}: ratio ipc"
#define ZBX_GRAPH_GROUP_EVENTS "Group {#GROUP}: {#EVENT} per second"
#define ZBX_LEN	     4096
#define ZBX_KEY_TIME "hwr10k.counting.time"
#define ZBX_KEY_DISC "hwr10k.discontinuity.time"
/* A group's discontinuity time: the guard of its rates and statistics,
 * so that a CPU's gap blanks only its group (and the sums). */
#define ZBX_KEY_GROUP_DISC "hwr10k.group.discontinuity.time[{#GROUP}]"
/* A CPU's: the guard of its rates and statistics, so that another
 * CPU's gap or reset leaves them be (the item of hwr10k.cpu.discovery,
 * whose {#SNMPINDEX} is the events rule's {#CPU}). */
#define ZBX_KEY_CPU_DISC "hwr10k.cpu.discontinuity.time[{#CPU}]"
/* What a rate or statistic is of: the sums, a CPU, a group of CPUs. */
enum zbx_scope { ZS_SUM, ZS_CPU, ZS_GROUP };
void mib_zbx_add(char *buf, size_t len, const char *s);
/* The rate of counter item `count`, guarded by discontinuity time `disc`. */
void mib_zbx_rate_formula(char *f, size_t len, const char *count,
			  const char *disc);
void mib_zbx_stat_formula(char *f, size_t len, size_t st, enum zbx_scope sc);
void mib_zbx_stat_counters(size_t st, int k[4]);
void mib_zbx_exact_items(FILE *out, const struct mibmodel *mm);
void mib_zbx_exact_rules(FILE *out);
/* The rule of the counted events of a scope: counters and rates. */
void mib_zbx_event_rule(FILE *out, enum zbx_scope sc);
/* {"3": "cycles", ...}: the counters by arc, as a JavaScript object. */
void mib_zbx_names_js(char *buf, size_t len);
/* The JavaScript of a discovery rule over the walk's object, the one
 * text of the CPUs', the groups' and the events' rules: a row per key
 * that matches /^re$/ and, unless cond is "", the test " && ..." cond
 * (on m, the match, and o, the object), written as row (a JavaScript
 * object literal); vars declares more variables ("n = {...}, ") or is
 * "".  A text over len bytes stops the build. */
void mib_zbx_keys_js(char *js, size_t len, const char *vars, const char *re,
		     const char *cond, const char *row);
/* zabbix_stats.c: the rule of statistic st for the scope, with its item
 * (and the IPC's graph). */
void mib_zbx_stat_rule(FILE *out, size_t st, enum zbx_scope sc);
/* zabbix_groups.c: the rules of the CPU groups (hwR10kEvCtrGroupTable,
 * read in hwr10k.poll): a group's clocks and CPUs, its counters, rates
 * and statistics. */
void mib_zbx_group_rules(FILE *out);

/* zabbix_yaml.c */
void mib_zbx_uuid(FILE *out, const char *what, const char *key);
void mib_zbx_q(FILE *out, const char *s);
void mib_zbx_arcs(FILE *out, const struct node *n);
void mib_zbx_item(FILE *out, int in, const struct mib_zbx_item *it);
void mib_zbx_triggers(FILE *out, int in, const struct zbx_trigger *t,
		      size_t count, bool proto);
void mib_zbx_with_triggers(FILE *out, int in, const struct mib_zbx_item *it,
			   bool proto);
/* A discovery rule's head up to its item_prototypes: walking `oid` (an
 * SNMP rule) or dependent on `master` with the JavaScript `js` (one row
 * per element of the array it returns); cpu: a CPU macro the rule's
 * filter matches with {$HWR10K.LLD.CPU.MATCHES} and NOT_MATCHES. */
struct mib_zbx_rule {
	const char *key, *name, *descr;
	const char *oid, *master, *js, *cpu;
	const char *group; /* {#GROUP}: filtered by {$HWR10K.LLD.GROUP.*} */
};
void mib_zbx_rule(FILE *out, const struct mib_zbx_rule *r);
/* A graph prototype of one line, small (no legend), its y axis from 0. */
void mib_zbx_graph_prototype(FILE *out, const char *name, const char *key,
			     const char *color);
void mib_zbx_tags(FILE *out, int in, const char *const *pairs);
void mib_zbx_enum_valuemap(FILE *out, const struct node *n);

#endif
