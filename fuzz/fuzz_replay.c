/*
 * fuzz_replay.c - a replay file, loaded and served to the end (and past
 * it) through the cache and the alarms, as the agent's poll does.  The
 * first byte picks replayCounterWidth and replayLoop.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "alarm/alarm_eval.h"
#include "backend/backend.h"
#include "cache/cache.h"
#include "fuzz.h"

static void no_event(void *ctx, const struct alarm *a, size_t i,
		     enum alarm_event_kind k)
{
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned widths[] = {32, 48, 64, 64};
	struct config cfg;
	struct backend b = {0};
	struct sample s = {0};
	struct cache c;
	struct alarm_set set;
	char err[256], path[64];
	unsigned mode = size ? data[0] : 0;

	util_log_set(fuzz_quiet);
	int fd = memfd_create("replay", 0);
	if (fd < 0)
		return 0;
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	config_defaults(&cfg, backend_sections());
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	char width[4];
	snprintf(width, sizeof(width), "%u", widths[mode & 3]);
	config_apply(&cfg, "replayFile", path, err, sizeof(err));
	config_apply(&cfg, "replayCounterWidth", width, err, sizeof(err));
	config_apply(&cfg, "replayLoop", mode & 4 ? "yes" : "no", err,
		     sizeof(err));
	config_apply(&cfg, "alarm", "a hw.r10kevctr.cycles each rate 10 5", err,
		     sizeof(err));
	config_apply(&cfg, "alarm", "b hw.r10kevctr.tlb sum absolute 10 5", err,
		     sizeof(err));
	cache_init(&c);
	if (alarm_set_build(&set, cfg.alarms, cfg.nalarms, NULL) == 0) {
		if (backend_open(&b, &cfg, err, sizeof(err)) == 0) {
			for (uint32_t poll = 1; poll <= 40; poll++) {
				if (backend_read(&b, &s) != 0 ||
				    cache_sample_sort(&s) != 0)
					continue;
				FUZZ_ASSERT(cache_update(&c, &s, poll) >= 0);
				alarm_evaluate(&c, &set, no_event, NULL);
			}
			backend_close(&b);
		}
		alarm_set_free(&set);
	}
	cache_free(&c);
	cache_sample_free(&s);
	config_free(&cfg);
	close(fd);
	return 0;
}
