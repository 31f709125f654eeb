/* replay_file.h - opening and reading a replay file (replay_file.c). */
#ifndef HWR10K_REPLAY_FILE_H
#define HWR10K_REPLAY_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "backend/replay_data.h"

/* r->file opened without blocking, a regular file only (r->id set);
 * NULL with the reason in err. */
FILE *backend_replay_open(struct replay *r, char *err, size_t errlen);

struct replay_reader;
/* Lines of in, progress() and cancel from b; NULL when out of memory. */
struct replay_reader *backend_replay_reader_new(FILE *in,
						const struct backend *b);
/* The next line (without its newline) in line[], cut at REPLAY_LINE_MAX
 * bytes; *n is its whole length and *nul whether it has a NUL byte.
 * false at the end of the file (or when cancelled). */
bool backend_replay_reader_next(struct replay_reader *rd, char *line, size_t *n,
				bool *nul);
/* Give the agent a progress() now (many short lines). */
void backend_replay_reader_step(struct replay_reader *rd);
bool backend_replay_reader_cancelled(const struct replay_reader *rd);

#endif
