/* test_config.c - config lines: the documented forms and the bad ones. */
#include "testenv.h"

#include "backend/backend.h"
#include "backend/backend_replay.h"
#include "backend/backend_sim.h"
#include "config/config.h"
#include "backend/backend_pcp.h"
#include "backend/backend_perf.h"

#define SIM(c)                                                                 \
	((const struct sim_settings *)config_settings(&(c), backend_find("sim")->section))
#define REPLAY(c)                                                              \
	((const struct replay_settings *)config_settings(&(c), backend_find("replay")->section))

static int apply(struct config *c, const char *tok, const char *args, char *err)
{
	return config_apply(c, tok, args, err, 256);
}

static void defaults(void **state)
{
	struct config c;
	config_defaults(&c, backend_sections());
	assert_string_equal(c.backend, "sim");
	assert_int_equal(c.poll_interval, POLL_INTERVAL_DEFAULT);
	assert_int_equal(SIM(c)->cpus, SIM_CPUS_DEFAULT);
	assert_int_equal(backend_sim_rate(SIM(c), 0),
			 meta_counters[0].sim_rate);
	assert_int_equal(REPLAY(c)->width, 64);
	config_free(&c);
}

static void good_lines(void **state)
{
	struct config c;
	char err[256] = "";
	config_defaults(&c, backend_sections());
	assert_int_equal(apply(&c, "backend", "sim", err), 0);
	assert_int_equal(apply(&c, "pollInterval", "1", err), 0);
	assert_int_equal(apply(&c, "pollinterval", " 3600 ", err), 0);
	assert_int_equal(c.poll_interval, 3600);
	assert_int_equal(apply(&c, "simCpus", "8", err), 0);
	assert_int_equal(SIM(c)->cpus, 8);
	assert_int_equal(apply(&c, "simRate", "hw.r10kevctr.tlb 42", err), 0);
	assert_int_equal(backend_sim_rate(SIM(c), meta_counter_index_by_name(
						      "hw.r10kevctr.tlb")),
			 42);
	assert_int_equal(apply(&c, "simRate", "hw.r10kevctr.vcc off", err), 0);
	assert_true(SIM(c)->off & COUNTER_BIT(meta_counter_index_by_name(
				      "hw.r10kevctr.vcc")));
	assert_int_equal(apply(&c, "simSeed", "18446744073709551615", err), 0);
	assert_int_equal(SIM(c)->seed, UINT64_MAX);
	assert_int_equal(apply(&c, "simCpurev", "65535.65535", err), 0);
	assert_int_equal(apply(&c, "simCpurev", "2.6", err), 0);
	assert_string_equal(SIM(c)->cpurev, "2.6");
	assert_int_equal(
	    apply(&c, "simRate", "hw.r10kevctr.cycles 730677514", err), 0);
	assert_int_equal(backend_sim_rate(SIM(c), 0), SIM_RATE_MAX);
	assert_int_equal(apply(&c, "replayFile", "/tmp/x.replay", err), 0);
	assert_int_equal(apply(&c, "replayLoop", "yes", err), 0);
	assert_true(REPLAY(c)->loop);
	assert_int_equal(apply(&c, "replayCounterWidth", "32", err), 0);
	assert_int_equal(REPLAY(c)->width, 32);
#ifdef HAVE_PERF_BACKEND
	assert_int_equal(apply(&c, "perfEvent",
			       "hw.r10kevctr.cycles software:cpu-clock", err),
			 0);
	assert_string_equal(
	    ((const struct perf_settings *)config_settings(&c, backend_find("perf")->section))
		->event[0],
	    "software:cpu-clock");
#endif
	assert_int_equal(config_validate(&c, err, sizeof(err)), 0);
	config_free(&c);
}

static void bad(const char *tok, const char *args, const char *msg)
{
	struct config c;
	char err[256] = "";
	config_defaults(&c, backend_sections());
	assert_int_equal(apply(&c, tok, args, err), -1);
	if (!strstr(err, msg))
		fail_msg("%s %s: expected '%s' in '%s'", tok, args, msg, err);
	config_free(&c);
}

static void bad_lines(void **state)
{
	bad("backend", "nosuch", "backend: expected one of sim");
	bad("backend", "", "backend: expected one of");
	bad("backend", "sim sim", "backend: expected one of");
	bad("agentXSocket", "tcp:master", "agentXSocket: address 'tcp:master': no :PORT");
	bad("agentXSocket", "tcp:master:99999", "the port is not 1..65535");
	bad("agentXSocket", "agentx.sock", "not an address (expected unix:PATH");
	bad("agentXSocket", "", "expected one address");
	bad("pollInterval", "0", "expected one whole number from 1 to 3600");
	bad("pollInterval", "3601", "from 1 to 3600");
	bad("pollInterval", "5s", "whole number");
	bad("pollInterval", "-5", "whole number");
	bad("pollInterval", "", "whole number");
	bad("pollInterval", "5 10", "expected one whole number from 1 to 3600");
	bad("pollInterval", "5 5", "expected one whole number");
	bad("simCpus", "0", "from 1 to 4096");
	bad("simCpus", "99999999999999999999999", "from 1 to 4096");
	bad("simRate", "hw.r10kevctr.cycles", "expected METRIC PER_SECOND");
	bad("simRate", "hw.r10kevctr.state 5",
	    "'hw.r10kevctr.state' is not a counter");
	bad("simRate", "cycles 5", "'cycles' is not a counter metric");
	bad("simRate", "hw.r10kevctr.cycles 1e9",
	    "rate '1e9' is not a whole number");
	bad("simRate", "hw.r10kevctr.cycles 5 6", "expected METRIC PER_SECOND");
	bad("simCpurev", "three", "expected a revision like 3.4");
	bad("simCpurev", "3.1x", "expected a revision");
	bad("simCpurev", "4294967296.1", "expected a revision");
	bad("simCpurev", "65536.0", "each 0..65535");
	bad("simCpurev", "3.", "expected a revision");
	bad("simCpurev", ".1", "expected a revision");
	bad("simCpurev", "3.1.2", "expected a revision");
	bad("simCpurev", "-3.1", "expected a revision");
	bad("simRate", "hw.r10kevctr.cycles 730677515",
	    "would wrap within a century");
	bad("simRate", "hw.r10kevctr.cycles 18446744073709551615",
	    "would wrap within a century");
	bad("simBogus", "hw.r10kevctr.cycles 5", "unknown token 'simBogus'");
	bad("replayWhatever", "48", "unknown token 'replayWhatever'");
	bad("simSeed", "x", "whole number");
	bad("replayLoop", "maybe", "expected yes or no");
	bad("replayCounterWidth", "31", "expected 32, 48 or 64");
	bad("replayFile", "", "expected one PATH");
#ifdef HAVE_PERF_BACKEND
	bad("perfEvent", "hw.r10kevctr.cycles", "expected METRIC SPEC|off");
	bad("perfEvent", "hw.r10kevctr.nope off", "not a counter metric");
#endif
	bad("bogus", "1", "unknown token 'bogus'");
	static char huge[PARSE_LINE_MAX + 10];
	memset(huge, '1', sizeof(huge) - 1);
	bad("pollInterval", huge, "pollInterval: line too long");
	bad("alarm", huge, "alarm: line too long");
}

/*
 * Every token row of every backend: its field lies inside the settings,
 * and for the kinds whose values the test can make up (numbers, yes/no,
 * strings), two lines with different values give settings that compare
 * different exactly when the row says a change reopens the backend: the
 * reload decision covers every such field by construction.
 */
static void token_rows_decide_reloads(void **state)
{
	char err[256];
	unsigned checked = 0;

	for (const struct config_section *const *sec = backend_sections(); *sec;
	     sec++) {
		const struct config_section *section = *sec;
		for (const struct config_token *t = section->tokens; t && t->token;
		     t++) {
			assert_non_null(t->usage);
			assert_true(t->offset + t->size <= section->settings_size);
			if (t->kind == TK_CUSTOM)
				continue;
			char v[2][32], *w[2], metric[] = "hw.r10kevctr.cycles";
			int nw = 1;
			if (t->kind == TK_STRINGS) { /* METRIC VALUE */
				bool pcp = strcmp(t->token, "pcpMetric") == 0;
				strcpy(v[0], pcp ? "kernel.all.cpu.user"
						 : "software:cpu-clock");
				strcpy(v[1], pcp ? "kernel.all.cpu.sys"
						 : "software:task-clock");
				nw = 2;
			} else if (t->kind == TK_YESNO) {
				strcpy(v[0], "yes");
				strcpy(v[1], "no");
			} else if (t->kind == TK_STRING) {
				strcpy(v[0], "/a");
				strcpy(v[1], "/b");
			} else {
				snprintf(v[0], sizeof(v[0]), "%llu",
					 (unsigned long long)t->min);
				snprintf(v[1], sizeof(v[1]), "%llu",
					 (unsigned long long)t->max);
			}
			void *s[2];
			for (int k = 0; k < 2; k++) {
				s[k] = calloc(1, section->settings_size);
				memcpy(s[k], section->defaults, section->settings_size);
				w[0] = nw == 2 ? metric : v[k];
				w[1] = v[k];
				if (config_token_apply(t, s[k], w, nw, err,
						       sizeof(err)))
					fail_msg("%s %s: %s", t->token, v[k], err);
			}
			if (config_token_table_same(section->tokens, s[0],
						    s[1]) == t->reopens)
				fail_msg("%s: a change %s the backend, the table "
					 "says otherwise",
					 t->token,
					 t->reopens ? "does not reopen" : "reopens");
			for (int k = 0; k < 2; k++) {
				config_token_table_release(section->tokens,
							   s[k]);
				free(s[k]);
			}
			checked++;
		}
	}
	assert_true(checked >= 8);
}

/*
 * A section whose backend is not built in: its lines are read and checked
 * as in any build, and only a 'backend' line naming it is refused, with
 * the reason.  Made here, so that every build tests both kinds.
 */
struct two_settings {
	unsigned n;
};
static const struct two_settings two_defaults = {.n = 1};
static const struct config_token two_tokens[] = {
    TOKEN_UINT("twoN", "N (1..9)", struct two_settings, n, 1, 9, true),
    TOKEN_END,
};
static const struct config_section built_one = {
    .name = "one", .tokens = NULL, .settings_size = 0, .defaults = NULL};
static const struct config_section unbuilt_two = {
    .name = "two",
    .tokens = two_tokens,
    .settings_size = sizeof(struct two_settings),
    .defaults = &two_defaults,
    .not_built = "configure found no libtwo",
};

static void not_built_backend(void **state)
{
	const struct config_section *const sections[] = {&built_one,
							 &unbuilt_two, NULL};
	struct config c;
	char err[256] = "", buf[64];
	config_defaults(&c, sections);
	assert_int_equal(apply(&c, "twoN", "9", err), 0);
	assert_int_equal(
	    ((const struct two_settings *)config_settings(&c, &unbuilt_two))->n,
	    9);
	assert_int_equal(apply(&c, "twoN", "10", err), -1);
	assert_string_equal(err, "twoN: expected one whole number from 1 to 9");
	assert_int_equal(apply(&c, "backend", "two", err), -1);
	assert_string_equal(err, "backend two: not built into this agent "
				 "(configure found no libtwo); built in: one");
	assert_int_equal(apply(&c, "backend", "three", err), -1);
	assert_string_equal(err,
			    "backend: expected one of one, got 'three'");
	assert_int_equal(apply(&c, "backend", "one", err), 0);
	assert_int_equal(config_validate(&c, err, sizeof(err)), 0);
	snprintf(c.backend, sizeof(c.backend), "two"); /* as if read */
	assert_int_equal(config_validate(&c, err, sizeof(err)), -1);
	assert_string_equal(err, "backend 'two' is not built in");
	/* the usage names every backend, built or not */
	assert_string_equal(config_token_usage(&config_tokens[0], sections,
					       buf, sizeof(buf)),
			    "one|two");
	config_free(&c);
	/* this build's own sections: all four, whatever is built in */
	const struct config_section *const *all = backend_sections();
	assert_ptr_equal(all[0], &backend_sim_section);
	assert_ptr_equal(all[1], &backend_perf_section);
	assert_ptr_equal(all[2], &backend_replay_section);
	assert_ptr_equal(all[3], &backend_pcp_section);
	assert_null(all[4]);
#ifdef HAVE_PCP_BACKEND
	assert_null(backend_pcp_section.not_built);
	assert_ptr_equal(backend_find("pcp")->section, &backend_pcp_section);
#else
	assert_non_null(backend_pcp_section.not_built);
	assert_null(backend_find("pcp"));
#endif
}

static void parse_numbers(void **state)
{
	uint64_t v;
	assert_int_equal(util_parse_u64("0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(util_parse_u64("10", 10, &v), 0);
	assert_int_equal(util_parse_u64("11", 10, &v), -1);
	assert_int_equal(util_parse_u64(" 1", 10, &v), -1);
	assert_int_equal(util_parse_u64("+1", 10, &v), -1);
	assert_int_equal(util_parse_u64("18446744073709551616", UINT64_MAX, &v),
			 -1);
	assert_int_equal(util_parse_u64(NULL, 10, &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(defaults),
	    cmocka_unit_test(good_lines),
	    cmocka_unit_test(bad_lines),
	    cmocka_unit_test(parse_numbers),
	    cmocka_unit_test(not_built_backend),
	    cmocka_unit_test(token_rows_decide_reloads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
