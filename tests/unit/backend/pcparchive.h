/* pcparchive.h - a PCP archive written by a unit test with libpcp_import
 * in a private temporary directory (test_pcp.c, test_pcp_nodes.c). */
#ifndef HWR10K_PCPARCHIVE_H
#define HWR10K_PCPARCHIVE_H

#include <pcp/pmapi.h>
#include <pcp/import.h>

static char dir[64], archive[96];

/* A new archive DIR/a, DIR a new /tmp/PREFIX-XXXXXX: host "test", UTC. */
static inline void start_archive(const char *prefix)
{
	snprintf(dir, sizeof(dir), "/tmp/%s-XXXXXX", prefix);
	assert_non_null(mkdtemp(dir));
	snprintf(archive, sizeof(archive), "%s/a", dir);
	assert_true(pmiStart(archive, 0) >= 0);
	pmiSetHostname("test");
	pmiSetTimezone("UTC");
}

static inline void end_archive(void)
{
	assert_int_equal(pmiEnd(), 0);
}

static inline void remove_archive(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#endif
