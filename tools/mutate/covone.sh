#!/bin/sh
# tools/mutate/covone.sh COVDIR CLASS TEST: run one test in COVDIR's
# coverage build with a GCOV_PREFIX of its own; write COVDIR/lines/ID
# (the FILE:LINE it executed) and COVDIR/lines/ID.tsv (CLASS SECONDS RC
# TEST).
set -u
cov=$1 class=$2 t=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
id=$(echo "$t" | tr '/.' '__')
# The tests that run the agent as another user (privileges.sh,
# initscript.sh): the .gcda files must be writable by it, so the prefix
# is a tree outside ~ (0700) holding an empty .gcda, mode 0666, for each
# .gcno (libgcov fills an empty one as a new one).
pre=$(mktemp -d /tmp/hwr-mutate-gcda.XXXXXX) && chmod 0755 "$pre"
(cd "$cov/build" && find . -name '*.gcno') | while read -r g; do
    f=$pre$cov/build/${g#./}
    mkdir -p "${f%/*}" && : >"${f%.gcno}.gcda" && chmod 0666 "${f%.gcno}.gcda"
done
start=$(date +%s.%N)
GCOV_PREFIX=$pre GCOV_PREFIX_STRIP=0 nice -n "${MUT_NICE:-0}" \
    timeout -k 10 1800 make -s -C "$cov/build" check TESTS="$t" \
    TEST_SUITE_LOG="$cov/logs/$id.suite" SOAK_SECONDS=5 HWR_MASTER_DOWN=5 \
    >"$cov/logs/$id" 2>&1
rc=$?
find "$pre" -name '*.gcda' -empty -delete
rm -rf "$cov/gcda/$id"; mkdir -p "$cov/gcda"
mv "$pre" "$cov/gcda/$id"
secs=$(echo "$(date +%s.%N) - $start" | bc)
python3 "$top/tools/mutate/covlines.py" "$cov/gcda/$id" "$(dirname "$cov")/src" \
    >"$cov/lines/$id"
printf '%s %.1f %s %s\n' "$class" "$secs" "$rc" "$t" >"$cov/lines/$id.tsv"
printf 'mutate: coverage: %-45s %6.1f s  %s lines%s\n' "$t" "$secs" \
    "$(wc -l <"$cov/lines/$id")" "$([ "$rc" = 0 ] || echo "  FAILED (rc $rc)")"
