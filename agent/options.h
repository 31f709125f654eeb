/* options.h - the command line (options.c). */
#ifndef HWR10K_OPTIONS_H
#define HWR10K_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "agent.h"

struct options {
	bool foreground, logging_set, dump;
	/* -t: read the config as a start would, name every problem and
	 * exit (1 if any); the daemon's other options are accepted and
	 * ignored, -L too (it logs to standard error) */
	bool check;
	const char *pidfile;
	const char *config; /* -c: comma-separated files */
};

/* agent_options_parse's failures, each after a message on stderr: the
 * command line is malformed (the caller prints the usage), or a value
 * cannot be used (a -Lf file that cannot be created, an unknown -u
 * user): the message says why, the usage would only bury it. */
#define OPTIONS_USAGE  -1
#define OPTIONS_FAILED -2

/* Parse the command line into o and a (-x, -u, -g, -Lf); 0, or one of
 * the failures above (the caller exits 1). */
int agent_options_parse(int argc, char **argv, struct options *o,
			struct agent *a);
void agent_options_usage(FILE *out, const char *prog);

#endif
