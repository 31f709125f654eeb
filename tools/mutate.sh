#!/bin/sh
# tools/mutate.sh: mutation testing, with the tests chosen by coverage.
#
#   tools/mutate.sh --patch FILE
#       applies FILE (a unified diff, as git diff writes) to a scratch copy
#       of HEAD's tree (never the work tree), builds it, runs every test
#       that executes a changed line (fastest first: unit, MIB,
#       integration), stopping at the first that fails.  Exit 0: a test
#       failed (killed, or killed by a test's timeout); 1: every test
#       passed, or none executes a changed line (survived); 2: the patch
#       does not apply or the tree does not build.
#   tools/mutate.sh --sample N --seed S [PATH...]
#       N mutants of the .c files under PATH (default lib agent), the
#       same for the same commit, N and S (tools/mutate/gen.py: < <= > >=,
#       a negated condition, && ||, a constant +-1, a deleted statement, a
#       return value swapped); each run as --patch; prints killed,
#       survived, not covered and could not run per folder, and every
#       survivor as a diff.  Mutants listed in tools/mutate-equivalent.txt
#       are not run.  Exit 0 when none survived, 1 otherwise.
#   --again FILE
#       the survivors a --sample printed (its "==== survivors" part, or
#       its cache's sample.survivors), each run again on HEAD's tree as
#       --sample runs a mutant: what the tests added since kill.
#   --classes "unit mib integration": the tests it may run (default all
#       three); coverage is collected for those only.
#   --tests "TEST...": these tests as well (CI: the unit tests and the
#       two integration tests that kill tests/mutants/).
#   --jobs N: tests side by side (default 3; the integration tests mostly
#       wait): the coverage runs, and each mutant's tests in batches of N
#       (a test that fails beside others is run again alone before it
#       counts as a kill).
#   --valgrind: each test as make check-valgrind runs it (memcheck): for
#       a mutant only a leak checker sees (a free deleted).  The sample
#       runs the entries of tools/mutate-equivalent.txt marked
#       "valgrind:" this way, and counts them as any other.
#   --nice: run builds and tests under nice -n 19.
#   --resume: go on with the sample a stopped run (same commit, N, seed
#       and cache) left: the mutants it finished keep their verdicts.
#   --reverse: the sample's mutants from the last: a second run (its own
#       HWR_MUTATE_CACHE) shares a long sample with a first.
#
# The first run on a commit builds it with --coverage and runs each test
# once (each with its own GCOV_PREFIX) to learn which lines each test
# executes; that is cached per commit in ~/.cache/hwr-mutate/COMMIT
# (HWR_MUTATE_CACHE), with the scratch copy and its build, which later
# runs reuse.  A test's timeout: 3 x its unmutated time, at least 60 s.
# Two runs on one commit wait for each other (a lock).
set -u
MUT_TOP=$(cd "$(dirname "$0")/.." && pwd)
MUT_CLASSES="unit mib integration"
mode= arg= seed=
while [ $# -gt 0 ]; do
    case $1 in
    --patch) mode=patch arg=$(realpath "$2") || exit 2; shift 2 ;;
    --sample) mode=sample arg=$2; shift 2 ;;
    --again) mode=again arg=$(realpath "$2") || exit 2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --classes) MUT_CLASSES=$2; shift 2 ;;
    --tests) MUT_ALSO=$2; shift 2 ;;
    --jobs) MUT_JOBS=$2; export MUT_JOBS; shift 2 ;;
    --valgrind) MUT_VALGRIND=1; export MUT_VALGRIND; shift ;;
    --nice) MUT_NICE=19; export MUT_NICE; shift ;;
    --reverse) MUT_REVERSE=1; shift ;;
    --resume) MUT_RESUME=1; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --*) echo "tools/mutate.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ -n "$mode" ] || { echo "usage: tools/mutate.sh --patch FILE | --sample N --seed S [PATH...] | --again FILE" >&2; exit 2; }
[ "$mode" != sample ] || [ -n "$seed" ] || { echo "tools/mutate.sh: --sample needs --seed" >&2; exit 2; }
for part in common scratch cov run sample; do
    . "$MUT_TOP/tools/mutate/$part.sh"
done
mkdir -p "$MUT_CACHE"
exec 9>"$MUT_CACHE/lock"
flock 9
scratch_prepare || exit 2
cov_prepare || { say "the coverage build failed"; exit 2; }
if [ "$mode" = patch ]; then
    say "patch $arg ($(patch_files "$arg" | tr '\n' ' '))"
    run_patch "$arg"
    rc=$?
    say "$RUN_VERDICT"
    exit $rc
fi
cd "$MUT_TOP" || exit 2
if [ "$mode" = again ]; then
    again_run "$arg"
else
    sample_run "$arg" "$seed" "$@"
fi
[ ! -s "$MUT_CACHE/sample.survivors" ]
