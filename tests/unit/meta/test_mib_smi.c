/*
 * test_mib_smi.c - loads the generated HW-R10KEVCTR-MIB through libsmi and
 * checks it against the agent's generated object table and against hw.help:
 *  - every table object has the same OID, base type and access in the MIB;
 *  - the MIB has no readable object the table lacks;
 *  - every metric object's DESCRIPTION is its hw.help summary and long text
 *    (per-CPU columns with the documented "sum over all CPUs" rule).
 * SMIPATH comes from make check (the base MIB directory, see DEVELOPERS.md).
 */
#include "testenv.h"

#include <ctype.h>

#include <smi.h>

#include "meta/helpfile.h"
#include "meta/metrics.h"
#include "meta/objects.h"

static const char *module;

static int setup(void **state)
{
	smiInit(NULL);
	const char *path = getenv("HWR_SMIPATH");
	if (path)
		smiSetPath(path);
	module = smiLoadModule(
	    getenv("HWR_MIB")
		? getenv("HWR_MIB")
		: build_path("mib/HW-R10KEVCTR-MIB.generated.txt"));
	if (!module)
		fail_msg("libsmi could not load the MIB (HWR_SMIPATH=%s)",
			 path);
	return 0;
}

static int teardown(void **state)
{
	smiExit();
	return 0;
}

static SmiBasetype expected_base(enum obj_syntax s)
{
	switch (s) {
	case SYN_INTEGER32:
		return SMI_BASETYPE_INTEGER32;
	case SYN_UNSIGNED32:
		return SMI_BASETYPE_UNSIGNED32;
	case SYN_COUNTER32:
		return SMI_BASETYPE_UNSIGNED32;
	case SYN_COUNTER64:
		return SMI_BASETYPE_UNSIGNED64;
	case SYN_OCTETS:
		return SMI_BASETYPE_OCTETSTRING;
	case SYN_TIMETICKS:
		return SMI_BASETYPE_UNSIGNED32;
	case SYN_COUNT:
		break;
	}
	return SMI_BASETYPE_UNKNOWN;
}

static void table_matches_mib(void **state)
{
	for (size_t i = 0; i < meta_objects_count; i++) {
		const struct mib_object *o = &meta_objects[i];
		/* zeroed: libsmi 0.4.8 reads one arc past the length */
		SmiSubid oid[64] = {0};
		unsigned n = 0;
		for (unsigned k = 0; k < meta_root_len; k++)
			oid[n++] = meta_root[k];
		for (unsigned k = 0; k < o->len; k++)
			oid[n++] = o->arcs[k];
		SmiNode *node = smiGetNodeByOID(n, oid);
		assert_non_null(node);
		if (node->oidlen != n || strcmp(node->name, o->name) != 0)
			fail_msg("%s: OID is %s in the MIB", o->name,
				 node->name);
		SmiType *t = smiGetNodeType(node);
		assert_non_null(t);
		bool enum_ok = o->syntax == SYN_INTEGER32 &&
			       t->basetype == SMI_BASETYPE_ENUM;
		if (t->basetype != expected_base(o->syntax) && !enum_ok)
			fail_msg("%s: base type %d in the MIB", o->name,
				 t->basetype);
		/* libsmi reads read-create as read-write */
		SmiAccess want = o->access == ACC_READ_ONLY ? SMI_ACCESS_READ_ONLY
				 : o->access == ACC_READ_CREATE
				     ? SMI_ACCESS_READ_WRITE
				     : SMI_ACCESS_NOTIFY;
		if (node->access != want)
			fail_msg("%s: access %d in the MIB", o->name,
				 node->access);
		assert_int_equal(node->nodekind, o->table != TBL_SCALAR
						     ? SMI_NODEKIND_COLUMN
						     : SMI_NODEKIND_SCALAR);
	}
}

/*
 * Everything that goes up and down on a Counter64 wire type (the rates,
 * the alarms' thresholds and values, a per-interval count) is HCNUM-TC's
 * CounterBasedGauge64, a TC pollers know; every other Counter64 is a
 * plain counter, to be differenced.
 */
static void gauges_are_counter_based_gauge64(void **state)
{
	unsigned gauges = 0;
	for (size_t i = 0; i < meta_objects_count; i++) {
		const struct mib_object *o = &meta_objects[i];
		if (o->syntax != SYN_COUNTER64)
			continue;
		SmiNode *node = smiGetNode(NULL, o->name);
		assert_non_null(node);
		SmiType *t = smiGetNodeType(node);
		SmiModule *tm = t ? smiGetTypeModule(t) : NULL;
		bool tc = t && t->name &&
			  strcmp(t->name, "CounterBasedGauge64") == 0 && tm &&
			  strcmp(tm->name, "HCNUM-TC") == 0;
		bool gauge = o->tag == TAG_RATE || o->tag == TAG_CPU_RATE ||
			     o->tag == TAG_GROUP_RATE ||
			     o->tag == TAG_STAT || o->tag == TAG_CPU_STAT ||
			     o->tag == TAG_GROUP_STAT ||
			     o->tag == TAG_ALARM_RISING ||
			     o->tag == TAG_ALARM_FALLING ||
			     o->tag == TAG_ALARM_VALUE ||
			     o->tag == TAG_ALARM_EVENT_VALUE ||
			     o->tag == TAG_ALARM_EVENT_THRESHOLD;
		if (gauge != tc)
			fail_msg("%s: %s, type %s", o->name,
				 gauge ? "a gauge" : "a counter",
				 t && t->name ? t->name : "Counter64");
		gauges += tc;
	}
	assert_true(gauges >= 3 * COUNTER_COUNT);
}

static bool in_table(const char *name)
{
	for (size_t i = 0; i < meta_objects_count; i++)
		if (strcmp(meta_objects[i].name, name) == 0)
			return true;
	return false;
}

static void mib_has_nothing_extra(void **state)
{
	SmiModule *m = smiGetModule(module);
	unsigned readable = 0;
	for (SmiNode *n =
		 smiGetFirstNode(m, SMI_NODEKIND_SCALAR | SMI_NODEKIND_COLUMN);
	     n;
	     n = smiGetNextNode(n, SMI_NODEKIND_SCALAR | SMI_NODEKIND_COLUMN)) {
		if (n->access < SMI_ACCESS_NOTIFY)
			continue; /* not-accessible index columns */
		readable++;
		if (!in_table(n->name))
			fail_msg("%s is readable in the MIB but not in the "
				 "agent's table",
				 n->name);
	}
	assert_int_equal(readable, meta_objects_count);
}

/* Every whitespace run as one space: hw.help's words, whatever the
 * generator's line breaks and the value table's alignment. */
static char *words(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	for (const char *p = text; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* Expected DESCRIPTION (as words), built here without the generator's
 * code: per CPU, "NAME is the sum over all CPUs" keeps NAME for the sum. */
static char *expected(const struct help_entry *e, bool per_cpu)
{
	size_t cap = strlen(e->summary) + strlen(e->text) + 256;
	char *s = malloc(cap), *w;
	snprintf(s, cap, "%s\n\n%s", e->summary, e->text);
	w = words(s);
	free(s);
	if (per_cpu) {
		char from[128], to[160];
		snprintf(from, sizeof(from), "%s is the sum over all CPUs",
			 e->metric);
		snprintf(to, sizeof(to),
			 "this column is the count on this CPU of what %s sums "
			 "over all CPUs",
			 e->metric);
		char *p = strstr(w, from);
		assert_non_null(p);
		char *r = malloc(strlen(w) + strlen(to) + 1);
		snprintf(r, strlen(w) + strlen(to) + 1, "%.*s%s%s",
			 (int)(p - w), w, to, p + strlen(from));
		free(w);
		w = r;
	}
	return w;
}

static void descriptions_from_hw_help(void **state)
{
	struct helpfile hf;
	char full[128], name[METRIC_DESCRIPTOR_MAX + 1];

	assert_int_equal(
	    meta_helpfile_load(src_path("mib/hw.help"), &hf, stderr), 0);
	for (size_t i = 0; i < meta_metrics_count; i++) {
		const struct metric *m = &meta_metrics[i];
		meta_metric_fullname(m, full, sizeof(full));
		const struct help_entry *e = meta_helpfile_find(&hf, full);
		for (int per_cpu = 0; per_cpu <= (m->kind == METRIC_COUNTER);
		     per_cpu++) {
			meta_metric_descriptor(
			    m,
			    per_cpu ? METRIC_CPU_DESCRIPTOR_PREFIX
				    : METRIC_DESCRIPTOR_PREFIX,
			    name, sizeof(name));
			SmiNode *n = smiGetNode(smiGetModule(module), name);
			if (!n)
				fail_msg("%s is not in the MIB", name);
			char *want = expected(e, per_cpu);
			char *got = words(n->description);
			if (strncmp(got, want, strlen(want)) != 0)
				fail_msg(
				    "%s: DESCRIPTION\n[%s]\ndoes not start "
				    "with hw.help's\n[%s]",
				    name, got, want);
			free(want);
			free(got);
		}
	}
	meta_helpfile_free(&hf);
}

static void module_identity(void **state)
{
	SmiNode *root = smiGetModuleIdentityNode(smiGetModule(module));
	assert_non_null(root);
	assert_string_equal(root->name, "hwR10kEvCtrMIB");
	assert_int_equal(root->oidlen, meta_root_len);
	for (unsigned i = 0; i < meta_root_len; i++)
		assert_int_equal(root->oid[i], meta_root[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(module_identity),
	    cmocka_unit_test(table_matches_mib),
	    cmocka_unit_test(mib_has_nothing_extra),
	    cmocka_unit_test(gauges_are_counter_based_gauge64),
	    cmocka_unit_test(descriptions_from_hw_help),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
