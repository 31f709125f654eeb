/*
 * reader.h - the backend's reads, off the main loop: one worker thread
 * reads the backend into the agent's sample while the main loop goes on
 * answering from the cache.  One read in flight at a time; the main loop
 * posts it (a poll), is woken through reader_fd() when it ended, and
 * collects it (reader_collect) before it touches the sample or the
 * backend again.  Who owns what, while a read is in flight: the backend
 * instance and the sample are the worker's; everything else (the cache,
 * net-snmp, the session, the config) is the main loop's, and the worker
 * never calls net-snmp (not thread-safe): lib/ log lines it makes are
 * queued and logged by the main loop when it collects the read.
 */
#ifndef HWR10K_READER_H
#define HWR10K_READER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"

#define READER_LINES 32 /* log lines queued per read; more are counted */

struct reader_line {
	int priority;
	char msg[240];
};

struct reader {
	bool running;	    /* the thread exists (made at the first post) */
	bool busy;	    /* main loop's view: posted, not yet collected */
	bool abandoned;	    /* stopped with a read in flight: the backend
			     * and the sample are still the thread's */
	uint64_t posted_ns; /* monotonic, when the read in flight was posted */
	int wake[2];	    /* worker -> main loop: a read ended */
	pthread_t thread;
	pthread_mutex_t mu; /* guards the fields below */
	pthread_cond_t cv;
	bool request, done, quit;
	int rc;
	struct backend *b;
	struct sample *s;
	struct reader_line lines[READER_LINES];
	unsigned nlines, lost_lines;
};

void reader_init(struct reader *r);
/* Start reading b into s on the worker (made now if it is not yet: after
 * daemonizing, threads do not survive fork); -1 (logged) when no thread
 * can be made.  Never while busy. */
int reader_post(struct reader *r, struct backend *b, struct sample *s);
/* The descriptor to watch for reading, -1 when there is no worker. */
int reader_fd(const struct reader *r);
/* Whether the read in flight ended; then *rc is backend_read's result,
 * its log lines are logged (hwr_log) and the reader is idle again. */
bool reader_collect(struct reader *r, int *rc);
/* Wait at most ms for the read in flight to end (without serving: for
 * the agent's stop); true when it did (not collected yet). */
bool reader_wait(struct reader *r, unsigned ms);
/* End the worker.  A read still in flight is left to the exiting
 * process: the thread is detached, and neither the backend nor the
 * sample may be closed or freed (returns false, and abandoned is set). */
bool reader_stop(struct reader *r);

#endif
