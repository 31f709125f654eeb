/*
 * dump.h - the one-shot mode (hw-r10kevctr-agent --dump): read the
 * configured backend twice, one poll interval apart, and print what the
 * MIB would serve, for an operator without an SNMP client.
 */
#ifndef HWR10K_DUMP_H
#define HWR10K_DUMP_H

#include <signal.h>
#include <stdio.h>

#include "config/config.h"

/*
 * Print to out, in the format documented in hw-r10kevctr-agent(8):
 *   backend NAME
 *   interval SECONDS
 *   state N
 *   cpurev TEXT
 *   cpus N
 *   METRIC sum|CPU VALUE RATE      (one line per counted metric and CPU)
 * and, when nothing is counted, the backend's advice (backend_advise():
 * perf says what counts on this host, as "# " comment lines and the
 * config lines that use it).
 * VALUE: events counted between the two reads plus what the first read
 * already had (as the agent's Counter64s start); RATE: events per second
 * over the interval ('-' across a discontinuity).  Returns 0, or 1 with
 * the reason on err when the backend cannot be read or counts nothing.
 */
int dump_run(const struct config *cfg, const volatile sig_atomic_t *cancel,
	     FILE *out, FILE *err);

#endif
