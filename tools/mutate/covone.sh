#!/bin/sh
# tools/mutate/covone.sh COVDIR CLASS TEST: run one test in COVDIR's
# coverage build with a GCOV_PREFIX of its own; write COVDIR/lines/ID
# (the FILE:LINE it executed) and COVDIR/lines/ID.tsv (CLASS SECONDS RC
# TEST).
set -u
cov=$1 class=$2 t=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
id=$(echo "$t" | tr '/.' '__')
rm -rf "$cov/gcda/$id"; mkdir -p "$cov/gcda/$id"
start=$(date +%s.%N)
GCOV_PREFIX=$cov/gcda/$id GCOV_PREFIX_STRIP=0 nice -n "${MUT_NICE:-0}" \
    timeout -k 10 1800 make -s -C "$cov/build" check TESTS="$t" \
    TEST_SUITE_LOG="$cov/logs/$id.suite" SOAK_SECONDS=5 HWR_MASTER_DOWN=5 \
    >"$cov/logs/$id" 2>&1
rc=$?
secs=$(echo "$(date +%s.%N) - $start" | bc)
python3 "$top/tools/mutate/covlines.py" "$cov/gcda/$id" "$(dirname "$cov")/src" \
    >"$cov/lines/$id"
printf '%s %.1f %s %s\n' "$class" "$secs" "$rc" "$t" >"$cov/lines/$id.tsv"
printf 'mutate: coverage: %-45s %6.1f s  %s lines%s\n' "$t" "$secs" \
    "$(wc -l <"$cov/lines/$id")" "$([ "$rc" = 0 ] || echo "  FAILED (rc $rc)")"
