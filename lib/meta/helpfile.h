/*
 * helpfile.h - parser for PCP newhelp(1) input (mib/hw.help).
 *
 * Format: lines starting with '#' are comments; "@ METRIC ONE-LINE-SUMMARY"
 * starts an entry; the entry's long text is every following line up to the
 * next '@' line, with leading and trailing blank lines dropped.
 *
 * SMI strings (DESCRIPTION "...") cannot hold a double quote and should be
 * plain ASCII.  Rule, documented in doc/mib.md: a double quote in hw.help is
 * turned into an apostrophe; any other byte outside printable ASCII (tab
 * included) is an error.
 */
#ifndef HWR10K_HELPFILE_H
#define HWR10K_HELPFILE_H

#include <stddef.h>
#include <stdio.h>

struct help_entry {
	char *metric;  /* "hw.r10kevctr.cycles" */
	char *summary; /* one-line summary */
	char *text;    /* long text, lines joined with '\n', quotes converted */
	unsigned line; /* line of the '@' */
};

struct helpfile {
	char *filename;
	struct help_entry *entries;
	size_t count;
	unsigned lines; /* number of lines read */
};

/*
 * Parse the stream; errors go to err as "FILE:LINE: message", one a line.
 * Returns the number of errors (0 = success).  The helpfile is filled even
 * on errors and must be released with meta_helpfile_free().
 */
int meta_helpfile_parse(FILE *in, const char *filename, struct helpfile *hf,
			FILE *err);
/* Open, parse and check against the metrics table. Returns errors. */
int meta_helpfile_load(const char *path, struct helpfile *hf, FILE *err);
/*
 * Every entry must name a metric of the metrics table and every table metric
 * must have an entry.  Returns the number of errors.
 */
int meta_helpfile_check_metrics(const struct helpfile *hf, FILE *err);
const struct help_entry *meta_helpfile_find(const struct helpfile *hf,
					    const char *metric);
void meta_helpfile_free(struct helpfile *hf);

#endif
