/* backend_replay.h - the replay backend's settings (backend_replay.c). */
#ifndef HWR10K_BACKEND_REPLAY_H
#define HWR10K_BACKEND_REPLAY_H

#include <stdbool.h>

struct replay_settings {
	char *file;
	bool loop;
	unsigned width; /* counter width in bits; 64 = no wrap */
};

/* Its config section and ops, listed in registry.c; others find them by
 * name. */
struct config_section;
extern const struct config_section backend_replay_section;
struct backend_ops;
extern const struct backend_ops backend_replay;

#endif
