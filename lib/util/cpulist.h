/* cpulist.h - the kernel's CPU list format ("0-3,5,7-8"), as in
 * /sys/devices/system/cpu/online. */
#ifndef HWR10K_CPULIST_H
#define HWR10K_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#define CPULIST_MAX 65536

struct cpulist {
	unsigned *cpu; /* sorted, no duplicates */
	size_t n;
};

/* Parse text; -1 on a syntax error or a CPU >= CPULIST_MAX. */
int util_cpulist_parse(const char *text, struct cpulist *out);
int util_cpulist_read(const char *path, struct cpulist *out);
bool util_cpulist_has(const struct cpulist *l, unsigned cpu);
void util_cpulist_free(struct cpulist *l);

#endif
