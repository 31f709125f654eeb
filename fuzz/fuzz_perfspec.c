/* fuzz_perfspec.c - the perfEvent SPEC parser. */
#include <string.h>

#include "fuzz.h"
#include "backend/perfspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfspec sp;
	char err[256] = "";
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (backend_perfspec_parse(s, "/sys", &sp, err, sizeof(err)) == 0)
		FUZZ_ASSERT(sp.nterms <= PERFSPEC_MAX_TERMS); /* 0: off */
	else
		FUZZ_ASSERT(err[0] != '\0');
	free(s);
	return 0;
}
