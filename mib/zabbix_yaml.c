/*
 * zabbix_yaml.c - the pieces of Zabbix 6.0's YAML export format the
 * template is made of: deterministic UUIDs, quoted scalars, SNMP items,
 * triggers with their tags and dependencies, tags, value maps.  `in` is
 * the column of the list item's "-".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tables/root.def"
#include "zabbix.h"

static const unsigned root_oid[] = {MIB_ROOT_PARENT_OID, MIB_ROOT_ARC};

/* A UUIDv4-shaped hash of what the entity is (FNV-1a, two seeds). */
void mib_zbx_uuid(FILE *out, const char *what, const char *key)
{
	uint64_t h[2] = {UINT64_C(0xcbf29ce484222325),
			 UINT64_C(0x84222325cbf29ce4)};
	unsigned char b[16];

	for (int k = 0; k < 2; k++) {
		for (const char *s = "hw-r10kevctr/"; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		for (const char *s = what; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		for (const char *s = key; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
		for (int i = 0; i < 8; i++)
			b[k * 8 + i] = (unsigned char)(h[k] >> (56 - 8 * i));
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	for (int i = 0; i < 16; i++)
		fprintf(out, "%02x", b[i]);
	fputc('\n', out);
}

/* A single-quoted YAML scalar; a newline becomes a space. */
void mib_zbx_q(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", out);
		else if (*s == '\n')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/*
 * The first sentence of a DESCRIPTION's first paragraph (hw.help's
 * one-line help for metrics), whole, and the object's name.
 */
static void first_sentence(FILE *out, const struct node *n)
{
	size_t len, par = strcspn(n->descr, "\n");
	char line[1024];

	while (n->descr[par] == '\n' && n->descr[par + 1] != '\n' &&
	       n->descr[par + 1])
		par += 1 + strcspn(n->descr + par + 1, "\n");
	for (len = 0; len < par; len++)
		if (n->descr[len] == '.' &&
		    (len + 1 == par || n->descr[len + 1] == ' ' ||
		     n->descr[len + 1] == '\n')) {
			len++;
			break;
		}
	snprintf(line, sizeof(line), "%.*s (HW-R10KEVCTR-MIB::%s)", (int)len,
		 n->descr, n->name);
	mib_zbx_q(out, line);
}

/* A node's numeric OID, no leading dot. */
void mib_zbx_arcs(FILE *out, const struct node *n)
{
	for (size_t i = 0; i < sizeof(root_oid) / sizeof(root_oid[0]); i++)
		fprintf(out, "%s%u", i ? "." : "", root_oid[i]);
	for (unsigned i = 0; i < n->len; i++)
		fprintf(out, ".%u", n->arcs[i]);
}

/* Tags from NULL-terminated name, value pairs, under "tags:" at `in`. */
void mib_zbx_tags(FILE *out, int in, const char *const *pairs)
{
	fprintf(out, "%*stags:\n", in, "");
	for (; pairs[0]; pairs += 2)
		fprintf(out, "%*s-\n%*stag: %s\n%*svalue: '%s'\n", in + 2, "",
			in + 4, "", pairs[0], in + 4, "", pairs[1]);
}

/* A preprocessing step with up to two parameters (NULL: none). */
static void step(FILE *out, int f, const char *type, const char *p1,
		 const char *p2, bool discard)
{
	fprintf(out, "%*s-\n%*stype: %s\n%*sparameters:\n", f, "", f + 2, "",
		type, f + 2, "");
	for (int i = 0; i < 2; i++) {
		const char *p = i ? p2 : p1;
		if (!p)
			continue;
		fprintf(out, "%*s- ", f + 4, "");
		mib_zbx_q(out, p);
		fputc('\n', out);
	}
	if (discard)
		fprintf(out, "%*serror_handler: DISCARD_VALUE\n", f + 2, "");
}

static void preprocessing(FILE *out, int f, const struct mib_zbx_item *it)
{
	static const char *const pt[] = {NULL, "SIMPLE_CHANGE", "MULTIPLIER",
					 "DISCARD_UNCHANGED_HEARTBEAT"};
	if (it->prep == P_NONE && !it->path && !it->js && !it->says_none)
		return;
	fprintf(out, "%*spreprocessing:\n", f, "");
	if (it->js)
		step(out, f + 2, "JAVASCRIPT", it->js, NULL, false);
	if (it->path)
		step(out, f + 2, "JSONPATH", it->path, NULL,
		     it->path_may_miss);
	if (it->prep != P_NONE)
		step(out, f + 2, pt[it->prep], it->param, NULL, false);
	if (it->says_none)
		step(out, f + 2, "IN_RANGE", "0", ZBX_NONE_ABOVE, true);
}

/* type, snmp_oid, key, delay */
static void source(FILE *out, int f, const struct mib_zbx_item *it)
{
	static const char *const type[] = {"SNMP_AGENT", "DEPENDENT",
					   "CALCULATED"};
	fprintf(out, "%*stype: %s\n", f, "", type[it->type]);
	if (it->type == I_SNMP) {
		fprintf(out, "%*ssnmp_oid: ", f, "");
		if (it->oid) {
			mib_zbx_q(out, it->oid);
		} else {
			fputc('\'', out);
			mib_zbx_arcs(out, it->n);
			fprintf(out, ".%s'", it->instance);
		}
		fputc('\n', out);
	}
	fprintf(out, "%*skey: ", f, "");
	mib_zbx_q(out, it->key);
	fprintf(out, "\n%*sdelay: '%s'\n", f, "",
		it->type == I_DEPENDENT ? "0" : it->delay);
}

void mib_zbx_item(FILE *out, int in, const struct mib_zbx_item *it)
{
	static const char *const vt[] = {"FLOAT", NULL, "CHAR", "TEXT"};
	int f = in + 2;

	fprintf(out, "%*s-\n%*suuid: ", in, "", f, "");
	mib_zbx_uuid(out, "item/", it->key);
	fprintf(out, "%*sname: ", f, "");
	mib_zbx_q(out, it->name);
	fputc('\n', out);
	source(out, f, it);
	fprintf(out, "%*shistory: '%s'\n", f, "",
		it->history ? it->history : "7d");
	if (it->vt == V_CHAR || it->vt == V_TEXT || it->no_trends)
		fprintf(out, "%*strends: '0'\n", f, "");
	if (vt[it->vt])
		fprintf(out, "%*svalue_type: %s\n", f, "", vt[it->vt]);
	if (it->units) {
		fprintf(out, "%*sunits: ", f, "");
		mib_zbx_q(out, it->units);
		fputc('\n', out);
	}
	if (it->formula) {
		fprintf(out, "%*sparams: ", f, "");
		mib_zbx_q(out, it->formula);
		fputc('\n', out);
	}
	fprintf(out, "%*sdescription: ", f, "");
	if (it->descr)
		mib_zbx_q(out, it->descr);
	else
		first_sentence(out, it->n);
	fputc('\n', out);
	if (it->valuemap)
		fprintf(out, "%*svaluemap:\n%*sname: '%s'\n", f, "", f + 2, "",
			it->valuemap);
	preprocessing(out, f, it);
	if (it->master)
		fprintf(out, "%*smaster_item:\n%*skey: '%s'\n", f, "", f + 2,
			"", it->master);
	const char *tags[] = {"component", "cpu",
			      it->cpu ? "cpu" : it->group ? "group" : NULL,
			      it->cpu ? it->cpu : it->group, NULL};
	mib_zbx_tags(out, f, tags);
}

static void dependency(FILE *out, int in, const char *name, const char *expr)
{
	fprintf(out, "%*s-\n%*sname: '%s'\n%*sexpression: '%s'\n", in, "",
		in + 2, "", name, in + 2, "", expr);
}

void mib_zbx_triggers(FILE *out, int in, const struct zbx_trigger *t,
		      size_t count, bool proto)
{
	int f = in + 6;
	fprintf(out, "%*s%s:\n", in + 2, "",
		proto ? "trigger_prototypes" : "triggers");
	for (size_t i = 0; i < count; i++) {
		fprintf(out, "%*s-\n%*suuid: ", in + 4, "", f, "");
		mib_zbx_uuid(out, "trigger/", t[i].expr);
		fprintf(out, "%*sexpression: ", f, "");
		mib_zbx_q(out, t[i].expr);
		fprintf(out, "\n%*sname: ", f, "");
		mib_zbx_q(out, t[i].name);
		fprintf(out, "\n%*sopdata: 'Value: {ITEM.LASTVALUE1}'\n", f,
			"");
		fprintf(out, "%*spriority: %s\n%*sdescription: ", f, "",
			t[i].priority, f, "");
		mib_zbx_q(out, t[i].descr);
		fputc('\n', out);
		if (t[i].hold)
			fprintf(out,
				"%*srecovery_mode: NONE\n"
				"%*smanual_close: 'YES'\n",
				f, "", f, "");
		if (!t[i].root)
			fprintf(out, "%*sdependencies:\n", f, "");
		if (!t[i].root)
			dependency(out, f + 2, mib_zbx_snmp_down.name,
				   mib_zbx_snmp_down.expr);
		if (t[i].on_state)
			dependency(out, f + 2, mib_zbx_state_down.name,
				   mib_zbx_state_down.expr);
		const char *tags[] = {"scope",
				      t[i].scope,
				      "component",
				      t[i].component,
				      proto ? t[i].group ? "group" : "cpu"
					    : NULL,
				      t[i].group ? "{#GROUP}" : "{#SNMPINDEX}",
				      NULL};
		mib_zbx_tags(out, f, tags);
	}
}

/* "INTEGER { a(1), b(2) }" as a value map. */
void mib_zbx_enum_valuemap(FILE *out, const struct node *n)
{
	const char *p = strchr(n->syntax, '{');
	fprintf(out, "        -\n          uuid: ");
	mib_zbx_uuid(out, "valuemap/", n->name);
	fprintf(out, "          name: 'HW-R10KEVCTR-MIB::%s'\n", n->name);
	fprintf(out, "          mappings:\n");
	while (p && *++p) {
		p += strspn(p, " \n,");
		size_t nl = strcspn(p, "(");
		if (!p[nl] || !nl)
			break;
		unsigned v = (unsigned)strtoul(p + nl + 1, NULL, 10);
		fprintf(out,
			"            -\n              value: '%u'\n"
			"              newvalue: %.*s\n",
			v, (int)nl, p);
		p = strchr(p, ')');
	}
}

void mib_zbx_with_triggers(FILE *out, int in, const struct mib_zbx_item *it,
			   bool proto)
{
	size_t nt;
	const struct zbx_trigger *t = mib_zbx_triggers_on(it->n, &nt);
	mib_zbx_item(out, in, it);
	if (nt)
		mib_zbx_triggers(out, in, t, nt, proto);
}

/* what: CPU or GROUP, the {$HWR10K.LLD.what.*} macros' */
static void lld_filter(FILE *out, const char *macro, const char *what)
{
	fprintf(out,
		"          filter:\n            evaltype: AND\n"
		"            conditions:\n"
		"              -\n                macro: '%s'\n"
		"                value: '{$HWR10K.LLD.%s.MATCHES}'\n"
		"                formulaid: A\n"
		"              -\n                macro: '%s'\n"
		"                value: '{$HWR10K.LLD.%s.NOT_MATCHES}'\n"
		"                operator: NOT_MATCHES_REGEX\n"
		"                formulaid: B\n",
		macro, what, macro, what);
}

void mib_zbx_rule(FILE *out, const struct mib_zbx_rule *r)
{
	fprintf(out, "        -\n          uuid: ");
	mib_zbx_uuid(out, "lld/", r->key);
	fprintf(out, "          name: ");
	mib_zbx_q(out, r->name);
	if (r->oid) {
		fprintf(out, "\n          type: SNMP_AGENT\n"
			     "          snmp_oid: ");
		mib_zbx_q(out, r->oid);
		fprintf(out, "\n          key: '%s'\n"
			     "          delay: '{$HWR10K.LLD.INTERVAL}'\n",
			r->key);
	} else {
		fprintf(out, "\n          type: DEPENDENT\n"
			     "          key: '%s'\n          delay: '0'\n",
			r->key);
	}
	if (r->cpu)
		lld_filter(out, r->cpu, "CPU");
	else if (r->group)
		lld_filter(out, r->group, "GROUP");
	fprintf(out, "          description: ");
	mib_zbx_q(out, r->descr);
	fputc('\n', out);
	if (r->master) {
		fprintf(out, "          master_item:\n            key: '%s'\n",
			r->master);
		fprintf(out, "          preprocessing:\n");
		step(out, 12, "JAVASCRIPT", r->js, NULL, false);
		step(out, 12, "DISCARD_UNCHANGED_HEARTBEAT",
		     "{$HWR10K.LLD.INTERVAL}", NULL, false);
	}
	fprintf(out, "          item_prototypes:\n");
}

void mib_zbx_graph_prototype(FILE *out, const char *name, const char *key,
			     const char *color)
{
	fprintf(out, "          graph_prototypes:\n            -\n"
		     "              uuid: ");
	mib_zbx_uuid(out, "graph/", name);
	fprintf(out, "              name: ");
	mib_zbx_q(out, name);
	fprintf(out, "\n              show_work_period: 'NO'\n"
		     "              show_triggers: 'NO'\n"
		     "              show_legend: 'NO'\n"
		     "              ymin_type_1: FIXED\n"
		     "              graph_items:\n"
		     "                -\n"
		     "                  drawtype: BOLD_LINE\n"
		     "                  color: %s\n"
		     "                  item:\n"
		     "                    host: '%s'\n"
		     "                    key: ",
		color, ZBX_TEMPLATE);
	mib_zbx_q(out, key);
	fputc('\n', out);
}
