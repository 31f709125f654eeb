/* test_stats_quotes.c - the passages a derived statistic of
 * lib/tables/stats.def quotes ('...') are hw.help's own words. */
#include "stats_fixture.h"

/* Text squeezed to single spaces. */
static void squeeze(const char *in, char *out, size_t len)
{
	size_t n = 0;
	bool space = false;
	for (; *in && n + 1 < len; in++) {
		if (isspace((unsigned char)*in)) {
			space = n > 0;
			continue;
		}
		if (space && n + 2 < len)
			out[n++] = ' ';
		space = false;
		out[n++] = *in;
	}
	out[n] = '\0';
}

/* Every passage a statistic quotes ('...') is hw.help's own words. */
static void quotations_are_hw_help(void **state)
{
	char path[512], *raw = malloc(1 << 16), *help = malloc(1 << 16);
	snprintf(path, sizeof(path), "%s/mib/hw.help", getenv("HWR_SRCDIR"));
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(raw, 1, (1 << 16) - 1, f);
	fclose(f);
	raw[n] = '\0';
	squeeze(raw, help, 1 << 16);
	int quotes = 0;
	for (size_t i = 0; i < meta_stat_count; i++) {
		const char *p = meta_stat_defs[i].cite;
		while ((p = strchr(p, '\'')) != NULL) {
			const char *end = strchr(p + 1, '\'');
			char q[512], sq[512];
			assert_non_null(end);
			snprintf(q, sizeof(q), "%.*s", (int)(end - p - 1), p + 1);
			squeeze(q, sq, sizeof(sq));
			if (!strstr(help, sq))
				fail_msg("%s: '%s' is not in hw.help",
					 meta_stat_defs[i].name, sq);
			quotes++;
			p = end + 1;
		}
	}
	assert_true(quotes >= (int)meta_stat_count);
	free(raw);
	free(help);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(quotations_are_hw_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
