/*
 * replay_file.c - the replay file as replay_load.c reads it: opened
 * without blocking (regular files only), identified (to see a change on
 * disk at a reload), and read line by line in blocks, the agent's
 * progress() called every REPLAY_STEP_BYTES and its cancel obeyed.
 */
#include "backend/replay_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Lines read in blocks, each kept up to REPLAY_LINE_MAX bytes: a longer
 * line is reported by its length and never stored, however long.  The
 * agent is given progress() every REPLAY_STEP_BYTES, so a huge line
 * does not stall the session either.
 */
struct replay_reader {
	FILE *in;
	const struct backend *b;
	bool cancelled;
	uint64_t consumed, next_step; /* bytes */
	size_t pos, len;
	char block[1 << 16];
};

static void step(struct replay_reader *rd, size_t n)
{
	rd->consumed += n;
	if (rd->consumed < rd->next_step)
		return;
	rd->next_step = rd->consumed + REPLAY_STEP_BYTES;
	if (rd->b->progress)
		rd->b->progress();
	if (rd->b->cancel && *rd->b->cancel)
		rd->cancelled = true;
}

/* The next line (without its newline) in line[], cut at REPLAY_LINE_MAX
 * bytes; *n is its whole length and *nul whether it has a NUL byte.
 * Returns false at the end of the file (or when cancelled). */
bool backend_replay_reader_next(struct replay_reader *rd, char *line, size_t *n,
				bool *nul)
{
	bool any = false;

	*n = 0;
	*nul = false;
	while (!rd->cancelled) {
		if (rd->pos == rd->len) {
			rd->pos = 0;
			rd->len = fread(rd->block, 1, sizeof(rd->block), rd->in);
			if (rd->len == 0)
				break;
		}
		const char *start = rd->block + rd->pos;
		size_t avail = rd->len - rd->pos;
		const char *nl = memchr(start, '\n', avail);
		size_t chunk = nl ? (size_t)(nl - start) : avail;
		if (*n < REPLAY_LINE_MAX) {
			size_t keep = chunk < REPLAY_LINE_MAX - *n
					  ? chunk
					  : REPLAY_LINE_MAX - *n;
			memcpy(line + *n, start, keep);
			line[*n + keep] = '\0';
		}
		if (memchr(start, '\0', chunk))
			*nul = true;
		*n += chunk;
		any = true;
		rd->pos += chunk + (nl != NULL);
		step(rd, chunk + (nl != NULL));
		if (nl)
			return true;
	}
	return any && !rd->cancelled;
}

int backend_replay_file_id(int fd, struct file_id *id)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	*id = (struct file_id){st.st_dev, st.st_ino, st.st_size, st.st_mtim};
	return S_ISREG(st.st_mode) ? 0 : 1;
}

bool backend_replay_file_id_equal(const struct file_id *a,
				  const struct file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec;
}

/*
 * Open without blocking (a FIFO or device named as replayFile would stall
 * the main loop until the master drops us) and accept regular files only.
 */
FILE *backend_replay_open(struct replay *r, char *err, size_t errlen)
{
	int fd = open(r->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int kind = fd < 0 ? -1 : backend_replay_file_id(fd, &r->id);
	FILE *in = kind == 0 ? fdopen(fd, "r") : NULL;

	if (!in) {
		snprintf(err, errlen, "replay: %s: %s", r->file,
			 kind > 0 ? "not a regular file" : strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return in;
}

struct replay_reader *backend_replay_reader_new(FILE *in,
						const struct backend *b)
{
	struct replay_reader *rd = calloc(1, sizeof(*rd));
	if (rd) {
		rd->in = in;
		rd->b = b;
		rd->next_step = REPLAY_STEP_BYTES;
	}
	return rd;
}

void backend_replay_reader_step(struct replay_reader *rd)
{
	rd->next_step = rd->consumed;
	step(rd, 0);
}

bool backend_replay_reader_cancelled(const struct replay_reader *rd)
{
	return rd->cancelled;
}
