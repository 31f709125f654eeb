/*
 * fuzz.h - shared by the libFuzzer targets (built with clang by
 * 'make fuzz') and by their regression driver (driver.c, built by
 * 'make check' with the project's compiler and sanitizers).
 */
#ifndef HWR10K_FUZZ_H
#define HWR10K_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_quiet(int priority, const char *msg)
{
	(void)priority;
	(void)msg;
}

/* A violated property: abort, so libFuzzer saves the input. */
#define FUZZ_ASSERT(cond)                                                      \
	do {                                                                   \
		if (!(cond))                                                   \
			abort();                                               \
	} while (0)

#endif
