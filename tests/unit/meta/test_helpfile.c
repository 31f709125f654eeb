/* test_helpfile.c - the newhelp parser, on hw.help and on bad input. */
#include "testenv.h"

#include "meta/describe.h"
#include "meta/helpfile.h"
#include "meta/metrics.h"

/* Parse text as file "t.help"; returns the error count, errors in *msgs. */
static int parse(const char *text, struct helpfile *hf, char **msgs)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int n;
	CAPTURE(*msgs, n = meta_helpfile_parse(in, "t.help", hf, err));
	fclose(in);
	return n;
}

static void real_file(void **state)
{
	struct helpfile hf;
	char *msgs;
	int n;
	CAPTURE(msgs,
		n = meta_helpfile_load(src_path("mib/hw.help"), &hf, err));
	assert_string_equal(msgs, "");
	assert_int_equal(n, 0);
	assert_int_equal(hf.count, meta_metrics_count);
	const struct help_entry *e =
	    meta_helpfile_find(&hf, "hw.r10kevctr.cycles");
	assert_non_null(e);
	assert_string_equal(e->summary, "R10000 event counter - cycles");
	assert_string_equal(e->text,
			    "R10000 event counter - cycles.\n\n"
			    "This event counter is incremented once per clock "
			    "cycle, and\n"
			    "hw.r10kevctr.cycles is the sum over all CPUs.");
	/* the documented quote rule: " becomes ' */
	e = meta_helpfile_find(&hf, "hw.r10kevctr.issue.instri");
	assert_non_null(strstr(e->text, "marked as 'done' in"));
	assert_null(strchr(e->text, '"'));
	free(msgs);
	meta_helpfile_free(&hf);
}

static void expect_error(const char *text, const char *msg)
{
	struct helpfile hf;
	char *msgs;
	assert_true(parse(text, &hf, &msgs) > 0);
	if (!strstr(msgs, msg))
		fail_msg("expected '%s' in '%s'", msg, msgs);
	free(msgs);
	meta_helpfile_free(&hf);
}

static void syntax_errors(void **state)
{
	expect_error("# c\nstray text\n@ hw.r10kevctr.cycles s\nt\n",
		     "t.help:2: text before the first '@' entry");
	expect_error("@\n", "t.help:1: '@' line has no metric name");
	expect_error("#\n@ hw.r10kevctr.cycles\n",
		     "t.help:2: '@' line has no one-line summary for "
		     "hw.r10kevctr.cycles");
	expect_error("@ hw.r10kevctr.cycles a\nx\n@ hw.r10kevctr.cycles b\n",
		     "t.help:3: duplicate metric hw.r10kevctr.cycles "
		     "(first at line 1)");
	expect_error("@ hw.r10kevctr.cycles a\ncaf\xc3\xa9\n",
		     "t.help:2:4: byte outside printable ASCII (0xc3)");
	expect_error("@ hw.r10kevctr.cycles a\ntab\there\n",
		     "t.help:2:4: byte outside printable ASCII (0x09)");
	expect_error("@ hw.r10kevctr.cycles a\r\n", "t.help:1: byte outside");
}

/* A refused '@' line is one error: its text is skipped unread (no
 * "text before the first '@' entry", no byte check), and the entries
 * around it keep theirs. */
/* A DESCRIPTION's value table starts at a line that is exactly "The
 * values are": the same words running on are prose, kept as they are. */
static void value_table_header(void **state)
{
	struct helpfile hf;
	char *msgs;
	assert_int_equal(parse("@ hw.r10kevctr.cycles a\n"
			       "The values are small.\n"
			       "@ hw.r10kevctr.tlb b\n"
			       "The values are\n0 off\n",
			       &hf, &msgs),
			 0);
	char *d = meta_metric_description(
	    meta_helpfile_find(&hf, "hw.r10kevctr.cycles"), 0);
	assert_string_equal(d, "a\n\nThe values are small.");
	free(d);
	/* per CPU, a text without "NAME is the sum over all CPUs" has no
	 * phrase to make a CPU's: none, rather than the sum's words */
	assert_null(meta_metric_description(
	    meta_helpfile_find(&hf, "hw.r10kevctr.cycles"), 1));
	d = meta_metric_description(meta_helpfile_find(&hf, "hw.r10kevctr.tlb"),
				    0);
	assert_string_equal(d, "b\n\nThe values are\n  0     off");
	free(d);
	free(msgs);
	meta_helpfile_free(&hf);
}

static void refused_entry_skipped(void **state)
{
	struct helpfile hf;
	char *msgs;
	assert_int_equal(parse("@ hw.r10kevctr.cycles a\nx\n@\nits\ttext\n"
			       "@ hw.r10kevctr.tlb b\ny\n",
			       &hf, &msgs),
			 1);
	assert_string_equal(msgs, "t.help:3: '@' line has no metric name\n");
	assert_int_equal(hf.count, 2);
	assert_string_equal(
	    meta_helpfile_find(&hf, "hw.r10kevctr.cycles")->text, "x");
	assert_string_equal(meta_helpfile_find(&hf, "hw.r10kevctr.tlb")->text,
			    "y");
	free(msgs);
	meta_helpfile_free(&hf);
	/* the first '@' line refused: the same */
	assert_int_equal(parse("@\ntext\n@ hw.r10kevctr.tlb b\n", &hf, &msgs),
			 1);
	free(msgs);
	meta_helpfile_free(&hf);
}

static void metric_errors(void **state)
{
	struct helpfile hf;
	char *msgs;
	int n;
	assert_int_equal(parse("@ hw.r10kevctr.nosuch x\ntext\n", &hf, &msgs),
			 0);
	free(msgs);
	CAPTURE(msgs, n = meta_helpfile_check_metrics(&hf, err));
	assert_int_equal(
	    n, 1 + meta_metrics_count); /* unknown + every one missing */
	assert_non_null(strstr(msgs, "t.help:1: metric hw.r10kevctr.nosuch "
				     "is not in the metrics table"));
	assert_non_null(strstr(msgs, "t.help:2: metric hw.r10kevctr.cycles of "
				     "the metrics table has no entry"));
	free(msgs);
	meta_helpfile_free(&hf);
}

static void text_trimmed(void **state)
{
	struct helpfile hf;
	char *msgs;
	assert_int_equal(
	    parse("@ hw.r10kevctr.cycles  sum  \n\n\nline1\n\nline2\n\n\n"
		  "# comment inside\n@ hw.r10kevctr.tlb t\n",
		  &hf, &msgs),
	    0);
	assert_int_equal(hf.count, 2);
	assert_string_equal(hf.entries[0].summary, "sum");
	assert_string_equal(hf.entries[0].text, "line1\n\nline2");
	assert_string_equal(hf.entries[1].text, "");
	assert_int_equal(hf.entries[1].line, 10);
	free(msgs);
	meta_helpfile_free(&hf);
}

static void missing_file(void **state)
{
	struct helpfile hf;
	char *msgs;
	int n;
	CAPTURE(msgs, n = meta_helpfile_load("/nonexistent/hw.help", &hf, err));
	assert_int_equal(n, 1);
	assert_non_null(strstr(msgs, "/nonexistent/hw.help: cannot open"));
	free(msgs);
	meta_helpfile_free(&hf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(real_file),     cmocka_unit_test(syntax_errors),
	    cmocka_unit_test(metric_errors), cmocka_unit_test(text_trimmed),
	    cmocka_unit_test(missing_file), cmocka_unit_test(refused_entry_skipped),
	    cmocka_unit_test(value_table_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
