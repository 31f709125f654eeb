/*
 * replay_data.h - the replay backend's in-memory recording, shared by its
 * loader (replay_load.c) and the backend (backend_replay.c).
 */
#ifndef HWR10K_REPLAY_DATA_H
#define HWR10K_REPLAY_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "backend/backend.h"
#include "util/counter_math.h"
#include "cache/sample.h"

#define REPLAY_CPU_MAX 65535 /* CPU numbers accepted in a file */
/* TIME in seconds: a century past 2^32 s keeps every ns value in 64 bits */
#define REPLAY_TIME_MAX	  UINT64_C(10000000000)
#define REPLAY_STEP_LINES 4096 /* lines between b->progress() calls */
#define REPLAY_STEP_BYTES (UINT64_C(1) << 20) /* and bytes, for long lines */
/* A line longer than this is a bad line: skipped without being stored
 * (a 1 GB line of NULs costs no memory), its end found in steps. */
#define REPLAY_LINE_MAX 1024
/* Bad lines logged one by one; the rest are counted, and the load's
 * summary line gives the total. */
#define REPLAY_BAD_LOGGED 20

/* rec.slot of a system-wide value (CPU '-'): it feeds the sum only */
#define REPLAY_SYSTEM_SLOT UINT32_MAX

struct rec {
	unsigned slot; /* index into replay.cpus, or REPLAY_SYSTEM_SLOT */
	int counter;
	uint64_t value;
};

struct rset {
	uint64_t time_ns;
	size_t first, n; /* records */
	bool has_state, has_cpurev;
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
};

/* What identifies the file loaded: a reload with the same settings
 * reopens the backend only when the file was replaced or changed. */
struct file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct replay {
	char *file;
	bool loop, ended;
	unsigned long loops; /* times it started again */
	unsigned width, interval;
	uint64_t time_ns;  /* of the set served last */
	uint64_t start_ns; /* of the epoch's first set */
	struct rec *recs;
	size_t nrecs;
	struct rset *sets;
	size_t nsets, next;
	unsigned *cpus; /* distinct CPU numbers, in order of appearance */
	size_t ncpus;
	size_t cap_recs, cap_sets, cap_cpus;  /* allocated elements */
	struct count_cell (*cells)[COUNTER_COUNT]; /* [slot][counter] */
	struct count_cell sys_cells[COUNTER_COUNT]; /* CPU '-' values */
	counter_mask counted, system_wide;
	unsigned bad_lines, unreported;
	unsigned resets; /* lines going backwards at width 64 (restarts) */
	uint32_t epoch;
	bool *present; /* [slot]: CPU in the set being served */
	bool state_given;
	int32_t state;
	char cpurev[CPUREV_MAX + 1];
	struct file_id id; /* of the file loaded, to see it replaced */
	struct cpu_groups groups; /* the file's group lines, file-wide */
};

/* Load r->file (r->width set) into r: every bad line logged and counted;
 * -1 with a message when the file cannot be used at all. */
int backend_replay_load(struct replay *r, const struct backend *b, char *err,
			size_t errlen);
/* The identity of an open file; 1 if it is not a regular file. */
int backend_replay_file_id(int fd, struct file_id *id);
bool backend_replay_file_id_equal(const struct file_id *a,
				  const struct file_id *b);

#endif
