/*
 * confwhere.h - the files a config load reads, in net-snmp's order (each
 * directory of the config path: hw-r10kevctr.conf, then .local.conf;
 * then the -c files), scanned line by line for what net-snmp's handlers
 * are not told: lines cut short by a NUL byte, and where a token was
 * read (net-snmp keeps its file and line to itself), so that a problem
 * across lines names the file and lines involved (confwhere.c).
 */
#ifndef HWR10K_CONFWHERE_H
#define HWR10K_CONFWHERE_H

#include <limits.h>
#include <stddef.h>

struct conf_where {
	char file[PATH_MAX];
	unsigned line; /* 0: not found */
	unsigned order; /* the file's place in the load */
};

/* Log FILE: line N: Error: a NUL byte in the line, for each such line. */
void agent_confwhere_nul_lines(void);
/* Where token (any case) was last read: the line that won; line 0 when
 * no file of the load has it. */
void agent_confwhere_find(const char *token, struct conf_where *w);
/* The files of the load that exist, comma-separated ("" when none). */
void agent_confwhere_files(char *buf, size_t len);
/* "FILE: line N", "FILE: lines N and M", "F1: line N and F2: line M"
 * for the n places found (line 0 ones are left out); "" when none. */
void agent_confwhere_say(const struct conf_where *w, size_t n, char *buf,
			 size_t len);

#endif
