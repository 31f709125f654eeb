/*
 * describe.h - DESCRIPTION text of metric objects, derived from hw.help.
 *
 * Rule (doc/mib.md): DESCRIPTION = one-line summary, blank line, long text.
 * For a per-CPU column, each "sum over all CPUs" (words separated by any
 * whitespace) becomes "count on this CPU", the CPU being the row's
 * hwR10kEvCtrCpuIndex.
 */
#ifndef HWR10K_DESCRIBE_H
#define HWR10K_DESCRIBE_H

#include "helpfile.h"

#define DESCRIBE_TOTAL_PHRASE "sum over all CPUs"
#define DESCRIBE_CPU_PHRASE   "count on this CPU"

/* Returns malloc'ed text, or NULL if per_cpu and the phrase is missing. */
char *metric_description(const struct help_entry *e, int per_cpu);

#endif
