/*
 * reader.h - the backend's calls that may wait (reads, and a reload's
 * open and close), off the main loop: one worker thread reads the backend
 * into the agent's sample, or opens or closes a backend instance, while
 * the main loop goes on answering from the cache.  One job in flight at
 * a time; the main loop posts it (a poll, a reload), is woken through
 * agent_reader_fd() when it ended, and collects it (agent_reader_collect)
 * before it touches the sample or that backend again.  Who owns what, while a
 * job is in flight: the backend instance, the sample and (an open's) config are
 * the worker's; everything else (the cache, net-snmp, the session, the running
 * config) is the main loop's, and the worker never calls net-snmp (not
 * thread-safe): lib/ log lines it makes are queued and logged by the main loop
 * when it collects the job.
 */
#ifndef HWR10K_READER_H
#define HWR10K_READER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"

#define READER_LINES 32 /* log lines queued per job; more are counted */

enum reader_job {
	READER_READ,  /* backend_read(b, s): a poll */
	READER_OPEN,  /* backend_open(b, cfg): a reload's new backend */
	READER_CLOSE, /* backend_close(b): a reload's old backend */
};

struct reader_line {
	int priority;
	char msg[512]; /* a longer line is cut, and says so */
};

struct reader {
	bool running;	    /* the thread exists (made at the first post) */
	bool busy;	    /* main loop's view: posted, not yet collected */
	bool abandoned;	    /* stopped with a read in flight: the backend
			     * and the sample are still the thread's */
	uint64_t posted_ns; /* monotonic, when the job in flight was posted */
	enum reader_job job; /* the one in flight, or the last */
	int wake[2];	    /* worker -> main loop: a read ended */
	pthread_t thread;
	pthread_mutex_t mu; /* guards the fields below */
	pthread_cond_t cv;
	bool request, done, quit;
	int rc;
	struct backend *b;
	struct sample *s;
	const struct config *cfg; /* an open's */
	char err[256];		  /* an open's message when it failed */
	struct reader_line lines[READER_LINES];
	unsigned nlines, lost_lines;
};

void agent_reader_init(struct reader *r);
/* Start reading b into s on the worker (made now if it is not yet: after
 * daemonizing, threads do not survive fork); -1 (logged) when no thread
 * can be made.  Never while busy. */
int agent_reader_post(struct reader *r, struct backend *b, struct sample *s);
/* The same for backend_open(b, cfg) (b->progress must be NULL: the main
 * loop answers meanwhile; err holds its message when it failed) and
 * backend_close(b). */
int agent_reader_post_open(struct reader *r, struct backend *b,
			   const struct config *cfg);
int agent_reader_post_close(struct reader *r, struct backend *b);
/* The descriptor to watch for reading, -1 when there is no worker. */
int agent_reader_fd(const struct reader *r);
/* Whether the job in flight ended; then *rc is its result (backend_read's,
 * backend_open's, 0 for a close), its log lines are logged (util_log) and
 * the reader is idle again. */
bool agent_reader_collect(struct reader *r, int *rc);
/* Wait at most ms for the read in flight to end (without serving: for
 * the agent's stop); true when it did (not collected yet). */
bool agent_reader_wait(struct reader *r, unsigned ms);
/* End the worker.  A read still in flight is left to the exiting
 * process: the thread is detached, and neither the backend nor the
 * sample may be closed or freed (returns false, and abandoned is set). */
bool agent_reader_stop(struct reader *r);

#endif
