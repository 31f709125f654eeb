/*
 * getlat - what an NMS sees, for bench/compare.sh:
 *
 *   getlat PEER COMMUNITY BASE FIRSTCOL LASTCOL CPUS COUNT
 *     single-GET latency: COUNT synchronous SNMPv2c GETs of random cells
 *     BASE.COLUMN.CPU (COLUMN from FIRSTCOL to LASTCOL, CPU below CPUS),
 *     each timed; prints "p50_us p99_us errors" (errors: timeouts and
 *     error responses; noSuchInstance of an uncounted column is an
 *     answer).
 *   getlat -c PEER COMMUNITY BASE FIRSTCOL LASTCOL REPS
 *     a column-parallel read of a table, as collectd and snmptable -Cb
 *     poll: GETBULKs whose repeaters are every column, REPS rows each,
 *     until the table ends; prints "varbinds seconds".
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Every column of the table BASE.FIRST..LAST at once, REPS rows per
 * GETBULK, each column going on from its last answer. */
static int columns(netsnmp_session *ss, const oid *base, size_t blen,
		   long first, long last, long reps)
{
	long ncol = last - first + 1, varbinds = 0;
	oid(*cur)[MAX_OID_LEN] = calloc(ncol, sizeof(*cur));
	size_t *len = calloc(ncol, sizeof(*len));
	int *done = calloc(ncol, sizeof(*done));
	for (long c = 0; c < ncol; c++) {
		memcpy(cur[c], base, blen * sizeof(oid));
		cur[c][blen] = first + c;
		len[c] = blen + 1;
	}
	double t0 = now_us();
	for (long left = ncol; left > 0;) {
		netsnmp_pdu *pdu = snmp_pdu_create(SNMP_MSG_GETBULK), *resp;
		long *which = calloc(ncol, sizeof(*which)), n = 0;
		pdu->non_repeaters = 0;
		pdu->max_repetitions = reps;
		for (long c = 0; c < ncol; c++)
			if (!done[c]) {
				snmp_add_null_var(pdu, cur[c], len[c]);
				which[n++] = c;
			}
		if (snmp_synch_response(ss, pdu, &resp) != STAT_SUCCESS ||
		    !resp || resp->errstat) {
			fprintf(stderr, "getlat: GETBULK failed\n");
			return 1;
		}
		long k = 0;
		for (netsnmp_variable_list *v = resp->variables; v;
		     v = v->next_variable, k++) {
			long c = which[k % n];
			if (done[c])
				continue;
			if (v->type == SNMP_ENDOFMIBVIEW ||
			    v->name_length <= blen ||
			    snmp_oid_compare(v->name, blen + 1, cur[c],
					     blen + 1) != 0) {
				done[c] = 1; /* past its column */
				left--;
				continue;
			}
			memcpy(cur[c], v->name, v->name_length * sizeof(oid));
			len[c] = v->name_length;
			varbinds++;
		}
		snmp_free_pdu(resp);
		free(which);
	}
	printf("%ld %.6f\n", varbinds, (now_us() - t0) / 1e6);
	free(cur);
	free(len);
	free(done);
	return 0;
}

/* A v2c session to peer; NULL after a message. */
static netsnmp_session *open_session(char *peer, char *community)
{
	netsnmp_session s, *ss;

	snmp_sess_init(&s);
	s.peername = peer;
	s.version = SNMP_VERSION_2c;
	s.community = (u_char *)community;
	s.community_len = strlen(community);
	s.timeout = 2000000;
	s.retries = 0;
	if (!(ss = snmp_open(&s)))
		snmp_perror("getlat");
	return ss;
}

/* COUNT single GETs of random cells: prints p50, p99 and errors. */
static int gets(netsnmp_session *ss, const oid *base, size_t blen, long first,
		long last, long cpus, long count)
{
	double *t = malloc(count * sizeof(*t));
	long errors = 0;
	unsigned seed = 1;

	if (!t)
		return 1;
	for (long i = 0; i < count; i++) {
		oid name[MAX_OID_LEN];
		netsnmp_pdu *pdu = snmp_pdu_create(SNMP_MSG_GET), *resp = NULL;
		memcpy(name, base, blen * sizeof(oid));
		seed = seed * 1103515245u + 12345u;
		name[blen] = first + (seed >> 8) % (last - first + 1);
		seed = seed * 1103515245u + 12345u;
		name[blen + 1] = (seed >> 8) % cpus;
		snmp_add_null_var(pdu, name, blen + 2);
		double t0 = now_us();
		int st = snmp_synch_response(ss, pdu, &resp);
		t[i] = now_us() - t0;
		if (st != STAT_SUCCESS || !resp || resp->errstat)
			errors++;
		if (resp)
			snmp_free_pdu(resp);
	}
	qsort(t, count, sizeof(*t), cmp);
	printf("%.0f %.0f %ld\n", t[count / 2], t[count * 99 / 100], errors);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	int col = argc > 1 && strcmp(argv[1], "-c") == 0;
	oid base[MAX_OID_LEN];
	size_t blen = MAX_OID_LEN;
	netsnmp_session *ss;

	argv += col;
	argc -= col;
	if (argc != (col ? 7 : 8)) {
		fprintf(stderr,
			"usage: getlat [-c] PEER COMMUNITY BASE FIRSTCOL "
			"LASTCOL CPUS|REPS [COUNT]\n");
		return 2;
	}
	init_snmp("getlat");
	long first = atol(argv[4]), last = atol(argv[5]), n = atol(argv[6]);
	if (!read_objid(argv[3], base, &blen) || blen + 2 > MAX_OID_LEN ||
	    n < 1 || last < first || (!col && atol(argv[7]) < 1)) {
		fprintf(stderr, "getlat: bad arguments\n");
		return 2;
	}
	if (!(ss = open_session(argv[1], argv[2])))
		return 1;
	int rc = col ? columns(ss, base, blen, first, last, n)
		     : gets(ss, base, blen, first, last, n, atol(argv[7]));
	snmp_close(ss);
	return rc;
}
