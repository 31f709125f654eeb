/* backend_replay.h - the replay backend's settings (backend_replay.c). */
#ifndef HWR10K_BACKEND_REPLAY_H
#define HWR10K_BACKEND_REPLAY_H

#include <stdbool.h>

struct replay_settings {
	char *file;
	bool loop;
	unsigned width; /* counter width in bits; 64 = no wrap */
};

/* Its ops, listed in backend.c's registry; others find it by name. */
struct backend_ops;
extern const struct backend_ops backend_replay;

#endif
