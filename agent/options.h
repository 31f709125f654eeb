/* options.h - the command line (options.c). */
#ifndef HWR10K_OPTIONS_H
#define HWR10K_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "agent.h"

struct options {
	bool foreground, logging_set, dump;
	const char *pidfile;
	const char *config; /* -c: comma-separated files */
};

/* Parse the command line into o and a (-x, -u, -g, -Lf); -1 after a
 * message on stderr (the caller prints the usage and exits 1). */
int options_parse(int argc, char **argv, struct options *o, struct agent *a);
void options_usage(FILE *out, const char *prog);

#endif
