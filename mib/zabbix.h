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

enum zbx_vtype { V_FLOAT, V_UNSIGNED, V_CHAR };
enum zbx_prep { P_NONE, P_CHANGE, P_MULTIPLY, P_DISCARD };

struct zbx_item {
	const struct node *n;
	const char *key, *name, *units, *valuemap, *delay;
	const char *instance; /* "0" (a scalar) or "{#SNMPINDEX}" */
	enum zbx_vtype vt;
	enum zbx_prep prep;
	char param[24];	  /* the preprocessing step's parameter */
	bool per_cpu;	  /* a prototype of the CPU rule: tag cpu */
	bool no_discover; /* a prototype that makes no item by default */
};

struct zbx_trigger {
	const char *expr, *name, *priority, *descr;
	const char *scope;     /* tag: availability, performance, notice */
	const char *component; /* tag: cpu, health */
	bool root;	   /* "No SNMP data collection": depends on none */
	bool on_state;	   /* also depends on the host's "not counting" */
	bool hold;	   /* an event: no recovery, closed by hand */
};

/* zabbix_items.c: the item for an object of the MIB (false: none), the
 * triggers on it.  rev_rule: the object is in its own discovery rule
 * (an event only some CPU revisions have). */
bool zbx_item_for(const struct node *n, struct zbx_item *it, char *key,
		  char *name, size_t len, bool rev_rule);
const struct zbx_trigger *zbx_triggers_on(const struct node *n, size_t *count);
/* An event that only some CPU revisions count (vcc, fucomp). */
bool zbx_rev_dependent(const struct metric *c);
/* A counter some statistic is computed from. */
bool zbx_stat_input(const struct metric *c);
/* "No SNMP data collection" (on zabbix[host,snmp,available]), and the
 * host's "not counting": what the other triggers depend on. */
extern const struct zbx_trigger zbx_snmp_down, zbx_state_down;

/* zabbix_yaml.c */
void zbx_uuid(FILE *out, const char *what, const char *key);
void zbx_q(FILE *out, const char *s);
void zbx_arcs(FILE *out, const struct node *n);
void zbx_item(FILE *out, int in, const struct zbx_item *it);
void zbx_triggers(FILE *out, int in, const struct zbx_trigger *t,
		  size_t count, bool proto);
void zbx_tags(FILE *out, int in, const char *const *pairs);
void zbx_enum_valuemap(FILE *out, const struct node *n);

#endif
