/*
 * zabbix_formula.c - the template's calculated formulas (zabbix_exact.c
 * makes the items around them): each a change of counters over the
 * counting time's or over other counters', guarded so that a reading
 * that cannot give the exact value stores nothing, and read as one
 * snapshot of the value cache.  tests/mib/zabbix-formulas.py evaluates
 * every one as Zabbix 6.0 does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/stats.h"
#include "zabbix.h"

#define LEN	 ZBX_LEN
#define KEY_TIME ZBX_KEY_TIME
#define KEY_DISC ZBX_KEY_DISC
#define NANO	 "1000000000"
/* The readings a value's inputs must all have: its two (doc/nms.md) */
#define WINDOW	 "{$HWR10K.WINDOW}"

/* Appends to buf; a text longer than len is a bug here: the build stops
 * rather than ship a cut formula. */
void mib_zbx_add(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);
	if ((size_t)snprintf(buf + used, len - used, "%s", s) >= len - used) {
		fprintf(stderr,
			"genmib: a Zabbix text over %zu bytes: %.60s\n", len,
			buf);
		exit(1);
	}
}

/*
 * A change that Zabbix 6.0 evaluates without an error: change() and
 * nodata() fail on an item with one value or none ("cannot get values
 * from value cache"), which makes the calculated item unsupported until
 * the unsupported items' next check, 10 minutes later (every item of a
 * new host, and a CPU's after a gap).  sum() of the last #1 or #2 values
 * never fails (0 of none): 2*sum(#1)-sum(#2) is the last value minus the
 * one before where count(#2)=2, which the guard asks (CHG_OK).
 */
#define CHG(k)	  "(2*sum(//" k ",#1)-sum(//" k ",#2))"
#define CHG_OK(k) "count(//" k ",#2)=2"

static void chg(char *buf, size_t len, const char *key)
{
	const char *part[] = {"(2*sum(//", key, ",#1)-sum(//", key, ",#2))"};
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		mib_zbx_add(buf, len, part[i]);
}

/*
 * The guard of a calculated value: the two readings are of one counting
 * epoch (the counting time grew, no discontinuity between them: `disc`,
 * the agent's discontinuity time, or a group's or a CPU's for its value), fresh
 * (two readings of the counting time within {$HWR10K.WINDOW}; count(),
 * not nodata(): see CHG), and `extra` holds.  A value failing
 * it is -1, which the In range step discards: nothing is stored, never a
 * wrong rate, and no error.
 */
static void guard(char *g, size_t len, const char *disc, const char *extra)
{
	char c[512];
	chg(c, sizeof(c), disc);
	const char *part[] = {"(" CHG_OK(KEY_TIME) " and " CHG(KEY_TIME)
			      ">0 and count(//",
			      disc,
			      ",#2)=2 and ",
			      c,
			      "=0 and count(//" KEY_TIME "," WINDOW
			      ")>1 and count(//",
			      disc,
			      "," WINDOW ")=count(//" KEY_TIME "," WINDOW ")",
			      extra,
			      ")"};
	g[0] = 0;
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		mib_zbx_add(g, len, part[i]);
}

/*
 * The guard's part for a counter: it went forward, and it has as many
 * readings as the counting time within {$HWR10K.WINDOW}.  Both come from
 * one master value, so they are stored together: the counter's readings
 * are some of the counting time's, and as many of them within the window,
 * two at least (the guard's), are all of them there, the last two
 * included.  A counter that missed one (no instance at a poll; or a new
 * item's first readings) would pair its change over two readings with
 * the counting time's over one.  The window only needs to hold the last
 * two readings: a new item's rates start when it holds no reading from
 * before the item (about three readings after its first, where
 * {$HWR10K.NODATA} made them wait 10 minutes).
 */
static void same_readings(char *extra, size_t len, const char *key)
{
	char c[256];
	chg(c, sizeof(c), key);
	const char *part[] = {" and count(//",
			      key,
			      ",#2)=2 and ",
			      c,
			      ">=0 and count(//",
			      key,
			      "," WINDOW ")=count(//" KEY_TIME "," WINDOW ")"};
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		mib_zbx_add(extra, len, part[i]);
}

/* value + 1 = g*num/(abs(den)+1-g)+g: num/den + 1 when g is 1 (den > 0),
 * 0 when g is 0 (and no division by zero either way). */
static void guarded(char *f, size_t len, const char *g, const char *num,
		    const char *den)
{
	const char *part[] = {g, "*(", num, ")/(abs(", den, ")+1-", g, ")+", g};
	f[0] = 0;
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		mib_zbx_add(f, len, part[i]);
}

/* The readings a formula's inputs hold: the clocks' and the counters'
 * counts over {$HWR10K.NODATA}, summed; `keys` the counters, n of them. */
static void readings(char *buf, size_t len, const char *disc,
		     const char *const *keys, size_t n)
{
	snprintf(buf, len, "count(//" KEY_TIME ",{$HWR10K.NODATA})+count(//");
	mib_zbx_add(buf, len, disc);
	mib_zbx_add(buf, len, ",{$HWR10K.NODATA})");
	for (size_t i = 0; i < n; i++) {
		mib_zbx_add(buf, len, "+count(//");
		mib_zbx_add(buf, len, keys[i]);
		mib_zbx_add(buf, len, ",{$HWR10K.NODATA})");
	}
}

/*
 * One snapshot.  Zabbix 6.0 evaluates a calculated item's functions one
 * at a time, in the formula's order, each against its value cache as of
 * one time; a history sync can store values between two of them, and the
 * values of one walk's dependent items go in more than one batch.  A
 * formula reading the counter's change before the sync and the counting
 * time's after it would pair two readings (seen once: an IPC 23 % off).
 * So the formula reads its inputs' readings first (P) and last (Q); all
 * its other reads come between, and readings only arrive, so P = Q means
 * every read saw the same values.  `value1` (the value + 1, 0 for none)
 * is scaled by 2^(60*(P mod 16)) and by 2^(-60*(Q mod 16)): by 1 when they
 * are equal, exactly (powers of two); when values arrived, by 2^-60 or
 * less (the value, minus 1, below 0) or, past a multiple of 16, by 2^60 or
 * more (above ZBX_NONE_ABOVE): the In range step discards both.  (Missed
 * only if 16 readings of the inputs were stored within one evaluation.)
 */
static void snapshot(char *f, size_t len, const char *value1,
		     const char *disc, const char *const *keys, size_t n)
{
	char r[LEN];
	readings(r, sizeof(r), disc, keys, n);
	const char *part[] = {"power(2,60*mod(",    r, ",16))*(", value1,
			      ")*power(2,-60*mod(", r, ",16))-1"};
	f[0] = 0;
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		mib_zbx_add(f, len, part[i]);
}

/* The rate of counter item `count`, events per second: its change over
 * the counting time's, in one snapshot, guarded (discontinuity time
 * item `disc`). */
void mib_zbx_rate_formula(char *f, size_t len, const char *count,
			  const char *disc)
{
	char g[LEN], v1[LEN], num[512], extra[1024];
	extra[0] = 0;
	same_readings(extra, sizeof(extra), count);
	guard(g, sizeof(g), disc, extra);
	chg(num, sizeof(num), count);
	mib_zbx_add(num, sizeof(num), "*" NANO);
	guarded(v1, sizeof(v1), g, num, CHG(KEY_TIME));
	const char *keys[] = {count};
	snapshot(f, len, v1, disc, keys, 1);
}

/* The inputs of a statistic: counter indexes, -1 = none. */
void mib_zbx_stat_counters(size_t st, int k[4])
{
	struct meta_stat_inputs in;
	if (meta_stat_inputs(st, &in) != 0)
		in = (struct meta_stat_inputs){-1, -1, -1, -1};
	k[0] = in.num, k[1] = in.minus, k[2] = in.den, k[3] = in.plus;
}

/* The item key of input k's counter. */
static void input_key(char *buf, size_t len, int c, enum zbx_scope sc)
{
	if (sc == ZS_CPU)
		snprintf(buf, len, "hwr10k.cpu.count[{#CPU},%s]",
			 meta_counters[c].name);
	else if (sc == ZS_GROUP)
		snprintf(buf, len, "hwr10k.group.count[{#GROUP},%s]",
			 meta_counters[c].name);
	else
		snprintf(buf, len, "hwr10k.count[%s]", meta_counters[c].name);
}

/* num - minus over den + plus (over the counting time, per second, for a
 * statistic that is a difference). */
void mib_zbx_stat_formula(char *f, size_t len, size_t st, enum zbx_scope sc)
{
	const char *disc = sc == ZS_GROUP ? ZBX_KEY_GROUP_DISC
			   : sc == ZS_CPU ? ZBX_KEY_CPU_DISC
					  : KEY_DISC;
	const struct stat_def *s = &meta_stat_defs[st];
	int k[4];
	char ch[4][256], num[1024], den[1024], extra[LEN], g[LEN * 2];
	char v1[LEN * 2];
	char keys[4][96];
	const char *used[4];
	size_t n = 0;
	mib_zbx_stat_counters(st, k);
	for (int i = 0; i < 4; i++)
		ch[i][0] = 0;
	extra[0] = 0;
	for (int i = 0; i < 4; i++) {
		if (k[i] < 0)
			continue;
		char *key = keys[n];
		input_key(key, sizeof(keys[n]), k[i], sc);
		used[n++] = key;
		chg(ch[i], sizeof(ch[i]), key);
		same_readings(extra, sizeof(extra), key);
	}
	snprintf(num, sizeof(num), "%s%s%s%s", ch[0], k[1] >= 0 ? "-" : "",
		 ch[1], s->scale ? "" : ")*(" NANO);
	if (s->scale) {
		snprintf(den, sizeof(den), "(%s%s%s)", ch[2],
			 k[3] >= 0 ? "+" : "", ch[3]);
		mib_zbx_add(extra, sizeof(extra), " and ");
		mib_zbx_add(extra, sizeof(extra), den);
		mib_zbx_add(extra, sizeof(extra), ">0");
	} else {
		snprintf(den, sizeof(den), CHG(KEY_TIME));
	}
	guard(g, sizeof(g), disc, extra);
	guarded(v1, sizeof(v1), g, num, den);
	snapshot(f, len, v1, disc, used, n);
}
