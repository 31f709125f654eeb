#!/bin/sh
# tools/mutate/coverage.sh [--classes ...]: line and branch coverage per
# folder of lib/ and agent/, from tools/mutate.sh's coverage build (every
# test's .gcda merged), by gcovr.  Run tools/mutate.sh once on the commit
# first (any --patch or --sample collects the coverage).
set -u
MUT_TOP=$(cd "$(dirname "$0")/../.." && pwd)
MUT_CLASSES="unit mib integration"
[ "${1:-}" = --classes ] && MUT_CLASSES=$2
. "$MUT_TOP/tools/mutate/common.sh"
[ -f "$MUT_COV/done" ] || { say "no coverage for this commit in $MUT_COV: run tools/mutate.sh first"; exit 2; }
cd "$MUT_SRC" || exit 2
src=$(realpath "$MUT_SRC")
gcovr -r "$src" --object-directory "$MUT_COV/build" \
    --filter 'lib/' --filter 'agent/' --exclude-unreachable-branches \
    --json-summary "$MUT_COV/summary.json" >/dev/null 2>"$MUT_COV/gcovr.err" ||
    { cat "$MUT_COV/gcovr.err"; exit 2; }
python3 - "$MUT_COV/summary.json" "$src" <<'PY'
import collections, json, os, sys
doc = json.load(open(sys.argv[1]))
agg = collections.defaultdict(lambda: [0, 0, 0, 0])
for f in doc["files"]:
    name = f["filename"]
    if os.path.isabs(name):
        name = os.path.relpath(name, sys.argv[2])
    d = os.path.dirname(name)
    keys = ["all", d.split("/")[0] + "/"]
    if "/" in d:
        keys.append(d)  # lib/cache; lib/dump.c is only in lib/
    for key in keys:
        a = agg[key]
        a[0] += f["line_covered"]; a[1] += f["line_total"]
        a[2] += f["branch_covered"]; a[3] += f["branch_total"]
print("| folder | lines | line % | branches | branch % |")
print("|---|---|---|---|---|")
for k in sorted(agg, key=lambda k: (k == "all", k)):
    lc, lt, bc, bt = agg[k]
    print("| %s | %d/%d | %.1f | %d/%d | %.1f |" % (
        k, lc, lt, 100.0 * lc / max(lt, 1), bc, bt, 100.0 * bc / max(bt, 1)))
PY
