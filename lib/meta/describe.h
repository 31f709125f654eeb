/*
 * describe.h - DESCRIPTION text of metric objects, derived from hw.help.
 *
 * Rule (doc/mib.md): DESCRIPTION = one-line summary, blank line, long text.
 * For a per-CPU column, "NAME is the sum over all CPUs" (words separated
 * by any whitespace, NAME the entry's metric) becomes "this column is the
 * count on this CPU of what NAME sums over all CPUs": the PCP name keeps
 * its meaning (the sum), the CPU being the row's hwR10kEvCtrCpuIndex.
 * A value table (the lines after "The values are", each row starting
 * with a number or "other") is indented with its values aligned, as
 * hw.help's text lost its indentation.
 */
#ifndef HWR10K_DESCRIBE_H
#define HWR10K_DESCRIBE_H

#include "meta/helpfile.h"

#define DESCRIBE_TOTAL_PHRASE "is the sum over all CPUs"
#define DESCRIBE_CPU_PHRASE   "this column is the count on this CPU"
#define DESCRIBE_CPU_OF	      "of what %s sums over all CPUs"
#define DESCRIBE_WIDTH	      72 /* a line longer than this breaks */

/* Returns malloc'ed text, or NULL if per_cpu and the phrase is missing. */
char *meta_metric_description(const struct help_entry *e, int per_cpu);

#endif
