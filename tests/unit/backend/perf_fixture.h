/*
 * perf_fixture.h - the shared set-up of the perf backend's tests
 * (test_perf_count.c, test_perf_no_pmu.c, test_perf_reprobe.c): a
 * stand-in sysfs in a temporary directory (its CPUs online), a config of
 * software events, and the group set-up that skips (77) where system-wide
 * events cannot be opened (neither root nor CAP_PERFMON).
 */
#ifndef HWR10K_PERF_FIXTURE_H
#define HWR10K_PERF_FIXTURE_H

#include "testenv.h"

#include <fcntl.h>

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/perf_cpu.h"
#include "backend/perf_hint.h"
#include "testconf.h"
#include "logcapture.h"

static char sysfs[64];

static inline int C(const char *name)
{
	return meta_counter_index_by_name(name);
}

static inline void set_online(const char *list)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/devices/system/cpu && echo %s > "
		 "%s/devices/system/cpu/online",
		 sysfs, list, sysfs);
	assert_int_equal(system(cmd), 0);
}

static inline long ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Software events mapped onto three metrics; everything else off. */
static inline void sw_config(struct config *cfg, bool only_hardware)
{
	conf_init(cfg, "perf");
	CONF(cfg, "perfSysfs", "%s", sysfs);
	for (int c = 0; c < COUNTER_COUNT; c++)
		CONF(cfg, "perfEvent", "%s %s", meta_counters[c].fullname,
		     only_hardware ? "hardware:cpu-cycles" : "off");
	if (only_hardware)
		return;
	CONF(cfg, "perfEvent", "hw.r10kevctr.cycles software:cpu-clock");
	CONF(cfg, "perfEvent",
	     "hw.r10kevctr.tlb software:page-faults+software:context-switches");
	CONF(cfg, "perfEvent", "hw.r10kevctr.grad.instrg software:task-clock");
}

static inline int setup(void **state)
{
	struct perf_event_attr attr = {.size = sizeof(attr),
				       .type = PERF_TYPE_SOFTWARE,
				       .config = PERF_COUNT_SW_CPU_CLOCK};
	int fd = (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "SKIP: cannot open system-wide events: %s\n",
			strerror(errno));
		exit(77);
	}
	close(fd);
	strcpy(sysfs, "/tmp/hwr-perf-XXXXXX");
	assert_non_null(mkdtemp(sysfs));
	return 0;
}

static inline int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysfs);
	return system(cmd);
}

static inline void busy(void)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 20000000; i++)
		x += i;
	usleep(20000);
}

#endif
