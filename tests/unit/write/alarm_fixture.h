/*
 * alarm_fixture.h - the shared set-up of the write path's tests
 * (test_alarm_write.c: the rules; test_alarm_txn_*.c, with
 * alarm_txn_fixture.h: the phases around a commit): a table with one config row, a writer with the real store in
 * a temporary directory (its saves counted, and failed on demand, at
 * their rename()), and a master's set phases built byte by byte
 * (axpdu.h) and read by the decoder, as lib/write/agentx_write.c gets them.
 */
#ifndef HWR10K_ALARM_FIXTURE_H
#define HWR10K_ALARM_FIXTURE_H

#include "testenv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/ax_session_dispatch.h"
#include "write/alarm_store.h"
#include "axpdu.h"
#include "logcapture.h"

static struct cache cache;
static struct served served;
static struct mib_view view = {&cache, &served};
static struct alarm_set set;
static struct alarm_writer w;
static struct alarm_store store;
static char dir[64], path[128];
static int saves, fail_saves;
static uint64_t now_s; /* the writer's clock */

static inline uint64_t test_clock(void *ctx)
{
	(void)ctx;
	return now_s;
}

/* The writer saves through the real store (lib/write/alarm_store.c);
 * rename() is wrapped (tests/Makefile.inc): each save of the store ends
 * with one, so the tests count the saves, and fail_saves makes the disk
 * full at that step, which fails the save as a real one would. */
int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to)
{
	if (strcmp(to, path) == 0) {
		saves++;
		if (fail_saves) {
			errno = ENOSPC;
			return -1;
		}
	}
	return __real_rename(from, to);
}

static inline int setup(void **state)
{
	struct alarm_config cfg;
	char err[256];
	(void)state;
	log_capture_start();
	cache_init(&cache);
	assert_int_equal(alarm_config_parse("cfgrow hw.r10kevctr.cycles sum "
					    "rate 10 5",
					    &cfg, err, sizeof(err)),
			 0);
	assert_int_equal(alarm_set_build(&set, &cfg, 1, NULL), 0);
	view_served_configure(&served, "sim", 5, &set);
	snprintf(dir, sizeof(dir), "/tmp/test_alarm_write.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/alarms.conf", dir);
	assert_int_equal(write_store_init(&store, path, (uid_t)-1), 0);
	const struct alarm_writer_env env = {
	    .enabled = true,
	    .max_rows = 3,
	    .not_ready_max_age = 300,
	    .clock = test_clock,
	    .store = &store};
	now_s = 1000;
	write_init(&w, &set, &env);
	saves = fail_saves = 0;
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	write_forget_sets(&w);
	alarm_set_free(&set);
	write_store_free(&store);
	cache_free(&cache);
	unlink(path);
	rmdir(dir);
	return 0;
}

/* One varbind of a TestSet: column, row, and an Integer, Gauge32 or
 * OctetString value (type). */
struct vb {
	unsigned col, row;
	unsigned type;
	long num;
	const char *str;
};

static inline size_t entry_oid(unsigned *o, unsigned col, unsigned row)
{
	const struct mib_object *name = view_object("hwR10kEvCtrAlarmName");
	size_t n = 0;
	for (unsigned i = 0; i < meta_root_len; i++)
		o[n++] = meta_root[i];
	for (unsigned i = 0; i + 1 < name->len; i++)
		o[n++] = name->arcs[i];
	o[n++] = col;
	o[n++] = row;
	return n;
}

static inline void ids(struct pdu *p, uint32_t session, uint32_t txn)
{
	size_t save_len = p->len;
	p->len = 4;
	put32(p, session);
	put32(p, txn);
	p->len = save_len;
}

/* The Response's error and index to a set phase of transaction txn. */
static inline uint16_t phase(unsigned type, uint32_t txn, const struct vb *v, size_t n,
		      uint16_t *index)
{
	static struct ax_request req;
	struct pdu p;
	struct ax_header_in h;
	struct ax_response_in r;
	unsigned char st[1024];
	struct ax_buf b;
	char why[160];

	header(&p, type, 0, txn % 2 == 0);
	ids(&p, 11, txn);
	for (size_t i = 0; i < n; i++) {
		unsigned o[32];
		size_t l = entry_oid(o, v[i].col, v[i].row);
		put16(&p, v[i].type);
		put16(&p, 0);
		oid(&p, o, l, false);
		if (v[i].type == AX_OCTET_STRING) {
			size_t sl = strlen(v[i].str);
			put32(&p, (uint32_t)sl);
			for (size_t k = 0; k < (sl + 3) / 4 * 4; k++)
				put8(&p,
				     k < sl ? (unsigned char)v[i].str[k] : 0);
		} else {
			put32(&p, (uint32_t)v[i].num);
		}
	}
	finish(&p);
	assert_int_equal(ax_frame(p.b, p.len, &h), AX_FRAME_PDU);
	assert_int_equal(
	    ax_parse_request(&h, p.b + AX_HEADER_LEN, &req, why, sizeof(why)),
	    0);
	ax_init(&b, st, sizeof(st));
	if (!session_answer(&view, &w, &req, 1, &b)) {
		ax_free(&b);
		*index = 0;
		return 0xffff; /* no Response: CleanupSet */
	}
	assert_int_equal(ax_finish(&b), 0);
	assert_int_equal(ax_frame(b.p, b.len, &h), AX_FRAME_PDU);
	assert_int_equal(h.ids.transaction, txn);
	assert_int_equal(ax_parse_response(&h, b.p + AX_HEADER_LEN, &r), 0);
	assert_int_equal(h.length, 8); /* a set's Response has no varbinds */
	ax_free(&b);
	*index = r.index;
	return r.error;
}

/* A whole set as the master runs it: TestSet, then CommitSet (and
 * UndoSet if that fails), CleanupSet; the error and index. */
static inline uint16_t set_(uint32_t txn, const struct vb *v, size_t n,
		     uint16_t *index)
{
	uint16_t e = phase(AX_PDU_TESTSET, txn, v, n, index), i2;
	if (e == AX_ERR_NOERROR) {
		e = phase(AX_PDU_COMMITSET, txn, NULL, 0, &i2);
		if (e != AX_ERR_NOERROR)
			assert_int_equal(
			    phase(AX_PDU_UNDOSET, txn, NULL, 0, &i2), 0);
	}
	assert_int_equal(phase(AX_PDU_CLEANUPSET, txn, NULL, 0, &i2), 0xffff);
	return e;
}

#define I(c, r, v)                                                             \
	{                                                                      \
		c, r, AX_INTEGER, v, NULL                                      \
	}
#define U(c, r, v)                                                             \
	{                                                                      \
		c, r, AX_GAUGE32, v, NULL                                      \
	}
#define S(c, r, s)                                                             \
	{                                                                      \
		c, r, AX_OCTET_STRING, 0, s                                    \
	}
#define SET(txn, ...)                                                          \
	set_(txn, (struct vb[]){__VA_ARGS__},                                  \
	     sizeof((struct vb[]){__VA_ARGS__}) / sizeof(struct vb), &idx)

static inline char *file(void)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* The table as a string, to see that a refused set changed nothing. */
static inline void snapshot(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < set.count; i++) {
		struct alarm_def d = alarm_def_of(&set.alarm[i]);
		size_t at = strlen(buf);
		write_format_def(&d, buf + at, len - at);
		strncat(buf, "\n", len - strlen(buf) - 1);
	}
}

#endif
