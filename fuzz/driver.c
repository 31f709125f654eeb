/*
 * driver.c - runs a fuzz target over files (the seed corpus and every
 * input that once crashed it), so 'make check' replays them under the
 * project's sanitizers and valgrind without libFuzzer.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees overreads */
	if (!copy)
		return -1;
	memcpy(copy, buf, n);
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 0, bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0)
			continue; /* a corpus directory may not exist */
		if (!S_ISDIR(st.st_mode)) {
			bad += run_file(argv[i]) != 0;
			runs++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		for (struct dirent *e; d && (e = readdir(d));) {
			char p[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			bad += run_file(p) != 0;
			runs++;
		}
		if (d)
			closedir(d);
	}
	printf("%s: %d inputs, %d unreadable\n", argv[0], runs, bad);
	return bad ? 1 : 0;
}
