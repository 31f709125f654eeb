#!/bin/sh
# tests/mutants/*.diff, the known misses CI's mutation step plants
# (tools/mutate/ci.sh), must apply to this tree as they are: git apply
# refuses a context line changed by a rename or a reformat, and CI then
# fails on a patch it cannot plant.  Each one applies (git apply --check).
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
S=$HWR_SRCDIR
command -v git >/dev/null 2>&1 || { echo "SKIP: no git"; exit 77; }
top=$(git -C "$S" rev-parse --show-toplevel 2>/dev/null) ||
    { echo "SKIP: $S is not a git checkout (a tarball): CI's mutation step runs in one"; exit 77; }
[ "$(cd "$top" && pwd -P)" = "$(cd "$S" && pwd -P)" ] ||
    { echo "SKIP: $S is not a git checkout of its own (make distcheck's copy)"; exit 77; }
n=0 bad=0
for p in "$S"/tests/mutants/*.diff; do
    n=$((n + 1))
    if ! (cd "$S" && git apply --check "$p" 2>/dev/null); then
        echo "FAIL: ${p#"$S"/} does not apply to this tree (make it again from the code as it is)"
        bad=1
    fi
done
[ "$n" -ge 5 ] || { echo "FAIL: only $n known misses in tests/mutants/"; exit 1; }
[ "$bad" = 0 ] && echo "ok: the $n known misses of tests/mutants/ apply"
exit $bad
