#!/bin/sh
# tools/mutate/ci.sh CACHEDIR: CI's mutation step (tools/check-all.sh).
# 1. each known miss in tests/mutants/*.diff must be killed through
#    tools/mutate.sh --patch (exit 0);
# 2. a small fixed-seed sample over lib/ must run end to end (exit 0 or
#    1: survivors are printed, not failed; 2: the runner broke).
# Both with the unit tests and the two integration tests the misses need
# (their coverage takes a minute, not the whole suite's).  Exit 0 when
# both hold.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
HWR_MUTATE_CACHE=$1; export HWR_MUTATE_CACHE
mkdir -p "$HWR_MUTATE_CACHE"
also="tests/integration/agentx.sh tests/integration/files.sh"
seed=${MUTATE_SEED:-46} n=${MUTATE_N:-12}
rc=0
for p in "$top"/tests/mutants/*.diff; do
    "$top/tools/mutate.sh" --classes unit --tests "$also" --patch "$p" >"$HWR_MUTATE_CACHE/patch.out" 2>&1
    r=$?
    grep -E '^mutate:   |^mutate: (killed|timeout|survived|uncovered|noapply|nobuild)$' \
        "$HWR_MUTATE_CACHE/patch.out"
    if [ "$r" = 0 ]; then
        echo "mutate: $(basename "$p"): killed"
    else
        echo "mutate: FAILED: $(basename "$p") not killed (exit $r)"; rc=1
        tail -n 20 "$HWR_MUTATE_CACHE/patch.out"
    fi
done
"$top/tools/mutate.sh" --classes unit --tests "$also" --sample "$n" --seed "$seed" lib
r=$?
[ "$r" -le 1 ] || { echo "mutate: FAILED: the sample did not run (exit $r)"; rc=1; }
exit $rc
