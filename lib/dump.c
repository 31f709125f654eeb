/* dump.c - the one-shot mode: two reads of the backend, printed. */
#include "dump.h"

#include <inttypes.h>
#include <time.h>

#include "backend/backend.h"
#include "cache/cache.h"

/* METRIC sum|group:NAME|CPU VALUE RATE ("-": no rate at this poll) */
static void print_cell(FILE *out, const struct cache *c, int k, long cpu)
{
	uint64_t value, rate;
	enum sample_status vs = cache_value(c, k, cpu, &value);
	enum sample_status rs = cache_rate(c, k, cpu, &rate);
	char where[8 + CPU_GROUP_NAME_MAX];

	if (vs == SAMPLE_NONE)
		return; /* else value is the stored one, valid or not */
	if (CACHE_IS_GROUP(cpu))
		snprintf(where, sizeof(where), "group:%s",
			 c->groups.g[CACHE_GROUP_OF(cpu)].name);
	else if (cpu < 0)
		snprintf(where, sizeof(where), "sum");
	else
		snprintf(where, sizeof(where), "%ld", cpu);
	if (rs == SAMPLE_OK)
		fprintf(out, "%s %s %" PRIu64 " %" PRIu64 "\n",
			meta_counters[k].fullname, where, value, rate);
	else
		fprintf(out, "%s %s %" PRIu64 " -\n", meta_counters[k].fullname,
			where, value);
}

/* Sleep the interval, waking early for a stop request. */
static void wait_interval(unsigned seconds, const volatile sig_atomic_t *cancel)
{
	struct timespec ts = {0, 100000000};
	for (unsigned i = 0; i < seconds * 10u && !(cancel && *cancel); i++)
		nanosleep(&ts, NULL);
}

static int read_into(struct backend *b, struct sample *s, struct cache *c,
		     const struct config *cfg, uint32_t now, FILE *err)
{
	if (backend_read(b, s) != 0 || cache_sample_sort(s) != 0 ||
	    cache_groups_use(c, cache_groups_chosen(&cfg->groups, s)) != 0 ||
	    cache_update(c, s, now) < 0) {
		fprintf(err, "dump: backend %s: read failed\n", b->ops->section->name);
		return -1;
	}
	return 0;
}

int dump_run(const struct config *cfg, const volatile sig_atomic_t *cancel,
	     FILE *out, FILE *err)
{
	struct backend b = {.cancel = cancel};
	struct sample s = {0};
	struct cache c;
	char why[256] = "";
	int rc = 1;

	cache_init(&c);
	if (backend_open(&b, cfg, why, sizeof(why)) != 0) {
		fprintf(err, "dump: %s\n", why);
		cache_free(&c);
		return 1;
	}
	if (read_into(&b, &s, &c, cfg, 1, err) != 0)
		goto out;
	wait_interval(cfg->poll_interval, cancel);
	if ((cancel && *cancel) || read_into(&b, &s, &c, cfg, 2, err) != 0)
		goto out;
	fprintf(out, "backend %s\ninterval %u\nstate %d\ncpurev %s\ncpus %zu\n",
		cfg->backend, cfg->poll_interval, c.state, c.cpurev, c.nrows);
	for (size_t g = 0; g < c.groups.n; g++)
		fprintf(out, "group %s %s\n", c.groups.g[g].name,
			c.groups.g[g].text);
	for (int k = 0; k < COUNTER_COUNT; k++) {
		if (!cache_counted(&c, k))
			continue;
		print_cell(out, &c, k, CACHE_SUM);
		for (size_t g = 0; g < c.groups.n; g++)
			print_cell(out, &c, k, CACHE_GROUP(g));
		for (size_t r = 0; cache_counted_per_cpu(&c, k) && r < c.nrows;
		     r++)
			print_cell(out, &c, k, (long)c.rows[r].cpu);
	}
	if (c.counted == 0)
		backend_advise(&b, out); /* what would count, if it knows */
	if (c.counted == 0)
		fprintf(err,
			"dump: backend %s counts nothing (state %d%s); see "
			"the log above\n",
			cfg->backend, c.state,
			c.state == -1  ? ": no usable counters"
			: c.state == 0 ? ": counting not permitted"
				       : "");
	else
		rc = 0;
out:
	backend_close(&b);
	cache_sample_free(&s);
	cache_free(&c);
	return rc;
}
