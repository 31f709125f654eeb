/*
 * fuzz_config.c - a config file: every line through config_apply() (the
 * generic, sim, perf, replay and alarm tokens), then config_validate().
 */
#include <string.h>

#include "config/config.h"
#include "backend/registry.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	char err[256];
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	util_log_set(fuzz_quiet);
	config_defaults(&cfg, backend_sections());
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *args = line + strcspn(line, " \t");
		if (*args)
			*args++ = '\0';
		if (config_apply(&cfg, line, args, err, sizeof(err)) != 0)
			FUZZ_ASSERT(err[0] != '\0'); /* a reason, always */
	}
	config_validate(&cfg, err, sizeof(err));
	config_free(&cfg);
	free(text);
	return 0;
}
