/* fuzz_helpfile.c - the newhelp parser and the metrics check. */
#include <stdio.h>

#include "fuzz.h"
#include "meta/helpfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");
	if (!in || !sink)
		return 0;
	if (size == 0)
		fgetc(in); /* an empty stream */
	struct helpfile hf;
	meta_helpfile_parse(in, "fuzz.help", &hf, sink);
	meta_helpfile_check_metrics(&hf, sink);
	meta_helpfile_free(&hf);
	fclose(in);
	return 0;
}
