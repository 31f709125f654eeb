/*
 * reader.c - the backend's reads, opens and closes on one worker thread
 * (reader.h).  The
 * worker blocks every signal (SIGHUP and SIGTERM must wake the main
 * loop's select) and calls nothing of net-snmp: its lib/ log lines go
 * through its own util_log sink into a queue the main loop logs.
 */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

static _Thread_local struct reader *worker_self; /* the worker's reader */

/* The worker's util_log sink: queued for the main loop. */
static void queue_line(int priority, const char *msg)
{
	struct reader *r = worker_self;

	pthread_mutex_lock(&r->mu);
	if (r->nlines < READER_LINES) {
		char *line = r->lines[r->nlines].msg;
		size_t max = sizeof(r->lines[0].msg);
		r->lines[r->nlines].priority = priority;
		/* cut: it still ends its line, so the next one stands alone */
		if ((size_t)snprintf(line, max, "%s", msg) >= max)
			snprintf(line + max - 6, 6, "...\n");
		r->nlines++;
	} else {
		r->lost_lines++;
	}
	pthread_mutex_unlock(&r->mu);
}

/* The job posted, outside the lock: its fields are the worker's until
 * it is collected. */
static int run_job(struct reader *r)
{
	switch (r->job) {
	case READER_OPEN:
		r->err[0] = '\0';
		return backend_open(r->b, r->cfg, r->err, sizeof(r->err));
	case READER_CLOSE:
		backend_close(r->b);
		return 0;
	case READER_READ:
		break;
	}
	return backend_read(r->b, r->s);
}

static void *worker(void *arg)
{
	struct reader *r = arg;

	worker_self = r;
	util_log_set_thread(queue_line);
	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (!r->request && !r->quit)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->quit)
			break;
		r->request = false;
		pthread_mutex_unlock(&r->mu);
		int rc = run_job(r);
		pthread_mutex_lock(&r->mu);
		r->rc = rc;
		r->done = true;
		pthread_cond_broadcast(&r->cv);
		/* a full pipe already says "ended": EAGAIN is fine */
		ssize_t n = write(r->wake[1], "r", 1);
		(void)n;
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

void agent_reader_init(struct reader *r)
{
	pthread_condattr_t ca;

	memset(r, 0, sizeof(*r));
	r->wake[0] = r->wake[1] = -1;
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
}

static int start_worker(struct reader *r)
{
	sigset_t all, old;

	if (pipe2(r->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
		util_log(LOG_ERR, "poll: cannot make a pipe: %s\n",
			 strerror(errno));
		return -1;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits */
	int err = pthread_create(&r->thread, NULL, worker, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		util_log(LOG_ERR, "poll: cannot start the reading thread: %s\n",
			 strerror(err));
		close(r->wake[0]);
		close(r->wake[1]);
		r->wake[0] = r->wake[1] = -1;
		return -1;
	}
	r->running = true;
	return 0;
}

static int post(struct reader *r, enum reader_job job, struct backend *b,
		struct sample *s, const struct config *cfg)
{
	struct timespec ts;

	if (!r->running && start_worker(r) != 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->posted_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	pthread_mutex_lock(&r->mu);
	r->job = job;
	r->b = b;
	r->s = s;
	r->cfg = cfg;
	r->done = false;
	r->request = true;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	r->busy = true;
	return 0;
}

int agent_reader_post(struct reader *r, struct backend *b, struct sample *s)
{
	return post(r, READER_READ, b, s, NULL);
}

int agent_reader_post_open(struct reader *r, struct backend *b,
			   const struct config *cfg)
{
	return post(r, READER_OPEN, b, NULL, cfg);
}

int agent_reader_post_close(struct reader *r, struct backend *b)
{
	return post(r, READER_CLOSE, b, NULL, NULL);
}

int agent_reader_fd(const struct reader *r)
{
	return r->running ? r->wake[0] : -1;
}

/* The worker's log lines of the read that ended, logged by the caller's
 * (the main loop's) sink; under the lock, the worker being idle. */
static void log_lines(struct reader *r)
{
	for (unsigned i = 0; i < r->nlines; i++)
		util_log(r->lines[i].priority, "%s", r->lines[i].msg);
	if (r->lost_lines)
		util_log(LOG_WARNING,
			 "poll: %u more line(s) of the backend's "
			 "read not logged\n",
			 r->lost_lines);
	r->nlines = r->lost_lines = 0;
}

bool agent_reader_collect(struct reader *r, int *rc)
{
	char buf[64];

	if (!r->busy)
		return false;
	while (read(r->wake[0], buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&r->mu);
	bool done = r->done;
	if (done) {
		*rc = r->rc;
		r->done = false;
		log_lines(r);
	}
	pthread_mutex_unlock(&r->mu);
	if (done)
		r->busy = false;
	return done;
}

bool agent_reader_wait(struct reader *r, unsigned ms)
{
	struct timespec until;
	int err = 0;

	if (!r->busy)
		return true;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->mu);
	while (!r->done && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&r->cv, &r->mu, &until);
	bool done = r->done;
	pthread_mutex_unlock(&r->mu);
	return done;
}

bool agent_reader_stop(struct reader *r)
{
	if (!r->running)
		return true;
	pthread_mutex_lock(&r->mu);
	bool stuck = r->busy && !r->done;
	r->quit = true;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	if (stuck) { /* it ends with the process */
		pthread_detach(r->thread);
		r->running = false;
		r->abandoned = true;
		return false;
	}
	pthread_join(r->thread, NULL);
	close(r->wake[0]);
	close(r->wake[1]);
	r->wake[0] = r->wake[1] = -1;
	r->running = false;
	r->busy = false;
	return true;
}
