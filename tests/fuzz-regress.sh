#!/bin/sh
# Every fuzz target over its seed corpus and the inputs that once crashed
# it (fuzz/regressions), with this build's sanitizers (or valgrind).
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${HWR_BUILDDIR:=$HWR_SRCDIR}"
rc=0
for t in helpfile config replay perfspec mibview agentx session; do
    # shellcheck disable=SC2086
    ${HWR_VALGRIND:-} "$HWR_BUILDDIR/fuzz/regress_$t" \
        "$HWR_SRCDIR/fuzz/seeds/$t" "$HWR_SRCDIR/fuzz/regressions/$t" || {
        echo "FAIL: fuzz target $t"; rc=1; }
done
exit $rc
