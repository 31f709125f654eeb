/*
 * pcp_source.c - the libpcp context of the pcp backend.
 *
 * Live: a PM_CONTEXT_HOST context on pmcd.  A failed fetch means pmcd (or
 * the way to it) is gone: that is logged once, and pmReconnectContext is
 * tried at the next polls with a back-off doubling from 1 s to 60 s; the
 * first fetch that works again is reported as PCP_FETCH_RECONNECTED so
 * that the backend starts a new epoch (pmcd may have restarted, and what
 * was counted meanwhile is unknown).
 *
 * Archive: a PM_CONTEXT_ARCHIVE context read forward record by record
 * (pmFetchArchive), no interpolation: every record that holds one of the
 * mapped metrics is served as it was logged; records of other metrics
 * only are passed over.  A record without metrics is a <mark> record,
 * which pmlogger writes where it stopped and started again.
 */
#include "backend/pcp_source.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

long backend_pcp_cpu_of_instance(const char *name)
{
	long cpu = 0;

	if (!name || strncmp(name, "cpu", 3) != 0 || name[3] == '\0')
		return -1;
	for (const char *p = name + 3; *p; p++) {
		if (*p < '0' || *p > '9' || (p > name + 3 && name[3] == '0'))
			return -1; /* digits only, no leading zero */
		cpu = cpu * 10 + (*p - '0');
		if (cpu > 65535)
			return -1;
	}
	return cpu;
}

static int open_archive(struct pcp_source *src, const char *path, char *err,
			size_t len)
{
	pmLogLabel label;
	int sts;

	src->ctx = pmNewContext(PM_CONTEXT_ARCHIVE, path);
	if (src->ctx < 0) {
		snprintf(err, len, "pcp: archive %s: %s", path,
			 pmErrStr(src->ctx));
		return -1;
	}
	if ((sts = pmGetArchiveLabel(&label)) < 0) {
		snprintf(err, len, "pcp: archive %s: %s", path, pmErrStr(sts));
		return -1;
	}
	src->start = label.ll_start;
	src->archive = true;
	if (!(src->name = strdup(path))) {
		snprintf(err, len, "pcp: out of memory");
		return -1;
	}
	if (backend_pcp_source_rewind(src) != 0) {
		snprintf(err, len, "pcp: archive %s: cannot go to its start",
			 path);
		return -1;
	}
	return 0;
}

/*
 * libpcp reports a bad host spec on stderr (pmprintf) and returns only
 * "Generic error, already reported above", which a daemon logging to a
 * file or syslog would lose.  Its text is caught here, on a pipe put in
 * stderr's place for the call (non-blocking: a longer text is cut, never
 * waited for), and made one line: "bad host specification: non-numeric
 * port at character 10".
 */
static void caught_reason(char *text, char *why, size_t len)
{
	char *line[3] = {NULL, NULL, NULL};
	int n = 0;

	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 3;
	     l = strtok_r(NULL, "\n", &save))
		line[n++] = l;
	const char *reason = line[0] && strstr(line[0], ": ")
				 ? strstr(line[0], ": ") + 2
				 : line[0];
	const char *caret = line[2] ? strstr(line[2], "^ -- ") : NULL;
	if (caret)
		snprintf(why, len, "%.100s: %.100s at character %d", reason,
			 caret + 5, (int)(caret - line[2]) + 1);
	else
		snprintf(why, len, "%.200s", reason ? reason : "");
}

static int new_host_context(const char *host, char *why, size_t len)
{
	int fds[2] = {-1, -1}, saved = -1;
	char text[512];
	ssize_t n = 0;

	fflush(stderr);
	if (pipe(fds) == 0 && fcntl(fds[1], F_SETFL, O_NONBLOCK) == 0 &&
	    fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0 && (saved = dup(2)) >= 0)
		dup2(fds[1], 2);
	int ctx = pmNewContext(PM_CONTEXT_HOST, host);
	pmflush();
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
		n = read(fds[0], text, sizeof(text) - 1);
	}
	if (fds[0] >= 0) {
		close(fds[0]);
		close(fds[1]);
	}
	text[n > 0 ? n : 0] = '\0';
	if (ctx < 0 && ctx == PM_ERR_GENERIC && text[0])
		caught_reason(text, why, len);
	else if (ctx < 0)
		snprintf(why, len, "%s", pmErrStr(ctx));
	else if (n > 0)
		fputs(text, stderr); /* not ours to drop */
	return ctx;
}

int backend_pcp_source_open(struct pcp_source *src, const char *host,
			    const char *archive, char *err, size_t len)
{
	char why[400];

	memset(src, 0, sizeof(*src));
	src->ctx = -1;
	if (archive)
		return open_archive(src, archive, err, len);
	setenv("PMCD_RECONNECT_TIMEOUT", PCP_LIBPCP_RECONNECT, 0);
	snprintf(src->host, sizeof(src->host), "%s", host ? host : "local:");
	src->ctx = new_host_context(src->host, why, sizeof(why));
	if (src->ctx < 0) {
		snprintf(err, len, "pcp: cannot reach pmcd at %s: %s",
			 src->host, why);
		return -1;
	}
	size_t n = strlen(src->host) + sizeof("pmcd at ");
	src->name = malloc(n);
	if (!src->name) {
		snprintf(err, len, "pcp: out of memory");
		return -1;
	}
	snprintf(src->name, n, "pmcd at %s", src->host);
	src->connected = true;
	return 0;
}

int backend_pcp_source_lookup(struct pcp_source *src, const char *name,
			      pmID *id, pmDesc *desc, char *err, size_t len)
{
	const char *names[1] = {name};
	int sts;

	if ((sts = pmUseContext(src->ctx)) < 0 ||
	    (sts = pmLookupName(1, names, id)) < 0 ||
	    (sts = pmLookupDesc(*id, desc)) < 0) {
		snprintf(err, len, "%s", pmErrStr(sts));
		return -1;
	}
	return 0;
}

int backend_pcp_source_rewind(struct pcp_source *src)
{
	int sts;

	if ((sts = pmUseContext(src->ctx)) < 0 ||
	    (sts = pmSetMode(PM_MODE_FORW, &src->start, 0)) < 0) {
		util_log(LOG_ERR, "pcp: %s: cannot go to its start: %s\n",
			 src->name, pmErrStr(sts));
		return -1;
	}
	return 0;
}

/* Live, disconnected: try again when the back-off has passed. */
static bool reconnect(struct pcp_source *src, uint64_t now_ns)
{
	if (now_ns < src->retry_at_ns)
		return false;
	int sts = pmReconnectContext(src->ctx);
	if (sts >= 0) {
		util_log(LOG_NOTICE, "pcp: %s: connected again\n", src->name);
		src->connected = true;
		src->backoff_ns = 0;
		return true;
	}
	src->backoff_ns =
	    src->backoff_ns ? src->backoff_ns * 2 : PCP_RETRY_MIN_NS;
	if (src->backoff_ns > PCP_RETRY_MAX_NS)
		src->backoff_ns = PCP_RETRY_MAX_NS;
	src->retry_at_ns = now_ns + src->backoff_ns;
	return false;
}

/* Archive: the next record that holds one of ids, or a <mark> record
 * (pmFetch passes over marks, pmFetchArchive returns every record). */
static int next_record(int n, const pmID *ids, pmResult **res)
{
	int sts;

	while ((sts = pmFetchArchive(res)) >= 0) {
		if ((*res)->numpmid == 0)
			return sts;
		for (int i = 0; i < (*res)->numpmid; i++)
			for (int k = 0; k < n; k++)
				if ((*res)->vset[i]->pmid == ids[k])
					return sts;
		pmFreeResult(*res); /* other metrics only */
	}
	return sts;
}

enum pcp_fetch backend_pcp_source_fetch(struct pcp_source *src, int n,
					pmID *ids, pmResult **res,
					uint64_t now_ns)
{
	bool again = false;
	int sts;

	if (!src->archive && !src->connected) {
		if (!reconnect(src, now_ns))
			return PCP_FETCH_LOST;
		again = true;
	}
	if ((sts = pmUseContext(src->ctx)) >= 0)
		sts = src->archive ? next_record(n, ids, res)
				   : pmFetch(n, ids, res);
	if (sts >= 0) {
		if (src->archive && (*res)->numpmid == 0) {
			pmFreeResult(*res);
			return PCP_FETCH_MARK;
		}
		return again ? PCP_FETCH_RECONNECTED : PCP_FETCH_OK;
	}
	if (src->archive) {
		if (sts == PM_ERR_EOL)
			return PCP_FETCH_END;
		src->error = sts; /* the caller says it, once */
		return PCP_FETCH_ERROR;
	}
	util_log(LOG_WARNING,
		 "pcp: %s: fetch failed (%s); its counters stop until it "
		 "answers again\n",
		 src->name, pmErrStr(sts));
	src->connected = false;
	src->backoff_ns = 0;
	src->retry_at_ns = now_ns + PCP_RETRY_MIN_NS;
	return PCP_FETCH_LOST;
}

int backend_pcp_source_instances(struct pcp_source *src, pmInDom indom,
				 int **inst, char ***names)
{
	int n = pmUseContext(src->ctx);

	*inst = NULL;
	*names = NULL;
	if (n >= 0)
		n = src->archive ? pmGetInDomArchive(indom, inst, names)
				 : pmGetInDom(indom, inst, names);
	return n < 0 ? 0 : n;
}

char *backend_pcp_source_inst_name(struct pcp_source *src, pmInDom indom,
				   int inst)
{
	char *name = NULL;
	int sts = pmUseContext(src->ctx);

	if (sts >= 0) {
		sts = pmNameInDom(indom, inst, &name);
		if (sts < 0 && src->archive) /* not at this record: any */
			sts = pmNameInDomArchive(indom, inst, &name);
	}
	return sts < 0 ? NULL : name;
}

/* FNV-1a over the bytes */
static uint64_t digest(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(1099511628211);
	return h;
}

uint64_t backend_pcp_source_indom_digest(struct pcp_source *src, pmInDom indom)
{
	int *inst = NULL;
	char **names = NULL;
	int n = pmUseContext(src->ctx);

	if (n >= 0)
		n = pmGetInDom(indom, &inst, &names);
	if (n < 0)
		return 0;
	uint64_t h = UINT64_C(14695981039346656037);
	for (int i = 0; i < n; i++) {
		h = digest(h, &inst[i], sizeof(inst[i]));
		h = digest(h, names[i], strlen(names[i]) + 1);
	}
	free(inst);
	free(names);
	return h ? h : 1;
}

void backend_pcp_source_close(struct pcp_source *src)
{
	if (src->ctx >= 0)
		pmDestroyContext(src->ctx);
	src->ctx = -1;
	free(src->name);
	src->name = NULL;
}
