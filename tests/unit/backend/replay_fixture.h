/*
 * replay_fixture.h - the shared set-up of the replay backend's tests
 * (test_replay_parse.c, test_replay_load.c): a recording written to a
 * temporary file, and the backend opened on it with a counter width and
 * loop setting.
 */
#ifndef HWR10K_REPLAY_FIXTURE_H
#define HWR10K_REPLAY_FIXTURE_H

#include "testenv.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "testconf.h"
#include "logcapture.h"

static char path[64];

static inline void write_bytes(const char *text, size_t len)
{
	tmp_file_with(path, sizeof(path), "hwr-replay", text, len);
}

static inline void write_file(const char *text)
{
	write_bytes(text, strlen(text));
}

static inline int open_replay(struct backend *b, unsigned width, bool loop, char *err)
{
	struct config cfg;
	conf_init(&cfg, "replay");
	CONF(&cfg, "replayFile", "%s", path);
	CONF(&cfg, "replayCounterWidth", "%u", width);
	CONF(&cfg, "replayLoop", "%s", loop ? "yes" : "no");
	log_capture_start();
	int rc = backend_open(b, &cfg, err, 256);
	config_free(&cfg);
	return rc;
}

static inline int C(const char *name)
{
	return meta_counter_index_by_name(name);
}

#endif
