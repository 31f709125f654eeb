/*
 * confwhere.c - the files of a config load scanned line by line
 * (confwhere.h).  net-snmp reads a line with fgets() (a NUL byte ends it
 * early, silently) and keeps the name of the file and the line number in
 * statics of its own, shown only in config_perror's messages: the checks
 * across lines (no backend, two tokens that exclude each other) and -t's
 * file checks (confcheck.c) find their lines here, reading the same files
 * in the same order, the last line of a token winning as it does there.
 * Lines read through net-snmp's include directives are not seen: such a
 * message names no line.
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "agent.h"
#include "confwhere.h"

typedef void (*file_fn)(const char *path, unsigned order, void *ctx);

/* Each file of the load, in the order net-snmp reads them. */
static void each_file(file_fn fn, void *ctx)
{
	const char *opt = netsnmp_ds_get_string(NETSNMP_DS_LIBRARY_ID,
						NETSNMP_DS_LIB_OPTIONALCONFIG);
	bool only = netsnmp_ds_get_boolean(NETSNMP_DS_LIBRARY_ID,
					   NETSNMP_DS_LIB_DONT_READ_CONFIGS);
	const char *dirs = only ? NULL : get_configuration_directory();
	char *copy = dirs ? strdup(dirs) : NULL, *save = NULL;
	char file[PATH_MAX];
	unsigned order = 0;

	for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s.conf", d, AGENT_NAME);
		fn(file, order++, ctx);
		snprintf(file, sizeof(file), "%s/%s.local.conf", d, AGENT_NAME);
		fn(file, order++, ctx);
	}
	free(copy);
	copy = opt ? strdup(opt) : NULL;
	for (char *f = copy ? strtok_r(copy, ",", &save) : NULL; f;
	     f = strtok_r(NULL, ",", &save))
		fn(f, order++, ctx);
	free(copy);
}

static void nul_lines(const char *path, unsigned order, void *ctx)
{
	FILE *f = fopen(path, "re");
	unsigned line = 1;
	int c;
	bool reported = false;

	(void)order;
	(void)ctx;
	if (!f)
		return;
	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			line++;
			reported = false;
		} else if (c == '\0' && !reported) {
			snmp_log(LOG_ERR,
				 "%s: line %u: Error: a NUL byte in the line\n",
				 path, line);
			reported = true;
		}
	}
	fclose(f);
}

void agent_confwhere_nul_lines(void)
{
	each_file(nul_lines, NULL);
}

struct finding {
	const char *token;
	struct conf_where *w;
};

/* Does line (as net-snmp reads it) start with token? */
static bool line_has(const char *line, const char *token)
{
	size_t n = strlen(token);

	while (isspace((unsigned char)*line))
		line++;
	return strncasecmp(line, token, n) == 0 &&
	       (line[n] == '\0' || isspace((unsigned char)line[n]));
}

static void find_in(const char *path, unsigned order, void *ctx)
{
	struct finding *fd = ctx;
	FILE *f = fopen(path, "re");
	char buf[4096];
	unsigned line = 0;

	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);
		if (len && buf[len - 1] != '\n' && !feof(f))
			continue; /* a longer line's middle: not a line */
		line++;
		if (line_has(buf, fd->token)) {
			snprintf(fd->w->file, sizeof(fd->w->file), "%s", path);
			fd->w->line = line;
			fd->w->order = order;
		}
	}
	fclose(f);
}

void agent_confwhere_find(const char *token, struct conf_where *w)
{
	struct finding fd = {token, w};

	memset(w, 0, sizeof(*w));
	each_file(find_in, &fd);
}

struct joined {
	char *buf;
	size_t len;
};

static void join_existing(const char *path, unsigned order, void *ctx)
{
	struct joined *j = ctx;
	size_t used = strlen(j->buf);

	(void)order;
	if (access(path, F_OK) == 0)
		snprintf(j->buf + used, j->len - used, "%s%s",
			 used ? ", " : "", path);
}

void agent_confwhere_files(char *buf, size_t len)
{
	struct joined j = {buf, len};

	buf[0] = '\0';
	each_file(join_existing, &j);
}

/* Are all the places found in one file? */
static bool one_file(const struct conf_where *w, size_t n)
{
	const char *first = NULL;
	for (size_t i = 0; i < n; i++)
		if (w[i].line && !first)
			first = w[i].file;
		else if (w[i].line && strcmp(first, w[i].file) != 0)
			return false;
	return true;
}

void agent_confwhere_say(const struct conf_where *w, size_t n, char *buf,
			 size_t len)
{
	size_t found = 0, said = 0, used = 0;
	bool same = one_file(w, n);

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		found += w[i].line != 0;
	for (size_t i = 0; i < n && used < len; i++) {
		if (!w[i].line)
			continue;
		const char *sep = said == 0		? ""
				  : said + 1 == found ? " and "
						      : ", ";
		if (same)
			used += (size_t)snprintf(
			    buf + used, len - used, "%s%s%u",
			    said ? "" : w[i].file,
			    said ? sep : (found > 1 ? ": lines " : ": line "),
			    w[i].line);
		else
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s: line %u", sep,
						 w[i].file, w[i].line);
		said++;
	}
}
