/*
 * perf_cpu.c - the perf events of one CPU.
 *
 * Events go in groups so that one read(2) returns every count of a group
 * with the same time enabled and running: hardware events of the CPU's PMU
 * share groups of at most perfGroupSize (the kernel multiplexes them and
 * the counts are scaled by enabled/running), software events their own,
 * and each other PMU its own (the kernel refuses mixed groups).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/backend.h"
#include "util/counter_math.h"
#include "util/log.h"
#include "backend/perf_cpu.h"

static int sys_perf_event_open(struct perf_event_attr *attr, int cpu,
			       int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, -1, cpu, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

static int open_term(const struct perf_term *t, int cpu, int group_fd)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = t->type;
	attr.config = t->config;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = group_fd < 0; /* the leader enables the group */
	return sys_perf_event_open(&attr, cpu, group_fd);
}

/* --------------------------------------------------------------- groups */

/* The group an event of term t goes in: CPU PMU, software, or its PMU. */
static long group_key(const struct perf_term *t)
{
	if (!t->hardware)
		return -1;
	if (t->type == PT_HARDWARE || t->type == PT_HW_CACHE ||
	    t->type == PT_RAW)
		return -2;
	return t->type;
}

void backend_perf_cpu_close(struct perf_cpu *pc)
{
	for (unsigned g = 0; g < pc->ngroups; g++)
		for (unsigned i = 0; i < pc->groups[g].n; i++)
			close(pc->groups[g].fd[i]);
	free(pc->groups);
	pc->groups = NULL;
	pc->ngroups = 0;
	pc->open = false;
}

/* Find or start a group for key with room; NULL when out of memory. */
static struct perf_group *group_for(struct perf_cpu *pc, long key, long *keys,
				    unsigned limit)
{
	for (unsigned g = 0; g < pc->ngroups; g++)
		if (keys[g] == key && pc->groups[g].n < limit)
			return &pc->groups[g];
	struct perf_group *p =
	    realloc(pc->groups, (pc->ngroups + 1) * sizeof(*p));
	if (!p)
		return NULL;
	pc->groups = p;
	keys[pc->ngroups] = key;
	p = &pc->groups[pc->ngroups++];
	memset(p, 0, sizeof(*p));
	return p;
}

int backend_perf_cpu_open(struct perf_cpu *pc, const struct perfspec *spec,
			  counter_mask counted, unsigned group_size)
{
	long keys[COUNTER_COUNT * PERFSPEC_MAX_TERMS];

	memset(pc->value, 0, sizeof(pc->value));
	pc->enabled = pc->running = 0;
	for (int c = 0; c < COUNTER_COUNT; c++) {
		if (!(counted & COUNTER_BIT(c)))
			continue;
		for (unsigned k = 0; k < spec[c].nterms; k++) {
			const struct perf_term *t = &spec[c].term[k];
			long key = group_key(t);
			struct perf_group *g =
			    group_for(pc, key, keys, group_size);
			if (!g)
				goto fail;
			int fd =
			    open_term(t, (int)pc->cpu, g->n ? g->fd[0] : -1);
			if (fd < 0) {
				util_log(
				    LOG_WARNING,
				    "perf: CPU %u: cannot open the event of "
				    "%s%s: %s; the CPU stops counting\n",
				    pc->cpu, METRIC_PREFIX,
				    meta_counters[c].name, strerror(errno));
				if (g->n == 0)
					pc->ngroups--;
				goto fail;
			}
			g->fd[g->n] = fd;
			g->counter[g->n++] = c;
		}
	}
	unsigned events = 0;
	for (unsigned g = 0; g < pc->ngroups; g++) {
		ioctl(pc->groups[g].fd[0], PERF_EVENT_IOC_ENABLE,
		      PERF_IOC_FLAG_GROUP);
		events += pc->groups[g].n;
	}
	util_log(LOG_INFO, "perf: CPU %u: %u events in %u groups\n", pc->cpu,
		 events, pc->ngroups);
	pc->open = true;
	pc->epoch = backend_new_epoch();
	return 0;
fail:
	backend_perf_cpu_close(pc);
	return -1;
}

/* Read one group; adds the scaled deltas to pc.  -1 when the read failed. */
static int read_group(struct perf_cpu *pc, struct perf_group *g)
{
	uint64_t buf[3 + PERF_GROUP_MAX];
	size_t want = (3 + g->n) * sizeof(uint64_t);
	ssize_t got = read(g->fd[0], buf, sizeof(buf));

	if (got < 0 || (size_t)got != want || buf[0] != g->n) {
		util_log(LOG_WARNING,
			 "perf: CPU %u: group read failed (%s); the CPU stops "
			 "counting until it can be reopened\n",
			 pc->cpu,
			 got < 0 ? strerror(errno) : "short or malformed read");
		return -1;
	}
	uint64_t de = buf[1] - g->enabled, dr = buf[2] - g->running;
	g->enabled = buf[1];
	g->running = buf[2];
	pc->enabled += de;
	pc->running += dr;
	for (unsigned i = 0; i < g->n; i++) {
		uint64_t d = buf[3 + i] - g->raw[i];
		g->raw[i] = buf[3 + i];
		pc->value[g->counter[i]] += util_scale_delta(d, de, dr);
	}
	return 0;
}

int backend_perf_cpu_read(struct perf_cpu *pc)
{
	for (unsigned g = 0; pc->open && g < pc->ngroups; g++) {
		if (read_group(pc, &pc->groups[g]) != 0) {
			backend_perf_cpu_close(
			    pc); /* reopened at the next poll */
			return -1;
		}
	}
	return 0;
}

/* Test-open a metric's terms on cpu; 0 or the first errno. */
int backend_perf_probe(const struct perfspec *sp, int cpu)
{
	for (unsigned k = 0; k < sp->nterms; k++) {
		int fd = open_term(&sp->term[k], cpu, -1);
		if (fd < 0)
			return errno;
		close(fd);
	}
	return 0;
}

counter_mask backend_perf_cpu_never_ran(const struct perf_cpu *pc,
					uint64_t min_ns)
{
	counter_mask ran = 0, idle = 0;

	for (unsigned g = 0; pc->open && g < pc->ngroups; g++) {
		const struct perf_group *gr = &pc->groups[g];
		for (unsigned i = 0; i < gr->n; i++) {
			counter_mask bit = COUNTER_BIT(gr->counter[i]);
			if (gr->running > 0)
				ran |= bit;
			else if (gr->enabled >= min_ns)
				idle |= bit;
		}
	}
	return idle & ~ran;
}
