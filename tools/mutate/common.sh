# tools/mutate/common.sh: what the parts of tools/mutate.sh share.
# MUT_TOP (the checkout), MUT_CLASSES (unit, mib, integration: the
# test classes whose coverage is collected) and MUT_ALSO (tests of other
# classes to run as well) are set by tools/mutate.sh.
# Everything lives under MUT_CACHE, one directory per commit (MUT_KEY):
#   src/        the commit's tree (git archive) with configure: the
#               scratch copy mutants are applied to, restored after each
#   build/      its out-of-tree build (no coverage): incremental per mutant
#   cov-CLASSES/ the coverage build and each test's executed lines
# The cache's key is HEAD's tree without what no build or test it runs
# reads (tools/mutate*, check-all.sh, install-deps.sh, .ci/, doc/, *.md):
# a commit of those keeps the coverage.
MUT_COMMIT=$(git -C "$MUT_TOP" rev-parse HEAD) || exit 2
MUT_KEY=$(git -C "$MUT_TOP" ls-tree -r HEAD |
    grep -v -E '	(tools/mutate|tools/check-all\.sh|tools/install-deps\.sh|\.ci/|doc/|[^	]*\.md$)' |
    sha1sum | cut -c1-12)
MUT_CACHE=${HWR_MUTATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hwr-mutate}/$MUT_KEY
MUT_SRC=$MUT_CACHE/src
MUT_BUILD=$MUT_CACHE/build
MUT_COV=$MUT_CACHE/cov-$(echo "$MUT_CLASSES" | tr ' ' '+')
[ -z "${MUT_ALSO:-}" ] || MUT_COV=$MUT_COV-$(echo "$MUT_ALSO" | cksum | cut -d' ' -f1)

say() { printf 'mutate: %s\n' "$*"; }

# The tests and their class (1 unit, 2 mib, 3 integration), from a
# configured build's Makefile: "CLASS TEST" lines.
mut_tests() { # BUILDDIR
    make -s -C "$1" -f Makefile -f "$MUT_TOP/tools/mutate/tests.mk" mutate-tests |
        while read -r class t; do
            case " $MUT_CLASSES ${MUT_ALSO:-} " in
            *" $class "*|*" $t "*) echo "$class $t" ;;
            esac
        done | sed 's/^unit/1/; s/^mib/2/; s/^integration/3/'
}

# A test's name as a file name.
mut_id() { echo "$1" | tr '/.' '__'; }

# Run one test in BUILDDIR, with a timeout; its output in LOG.  The long
# tests run shortened, as CI's distcheck runs them.  MUT_VALGRIND: as
# make check-valgrind runs it (a unit test, or an integration test's
# agent, under memcheck: a definite leak or a read of uninitialised
# memory fails it), for what the plain build cannot see.
mut_run_test() { # BUILDDIR TEST SECONDS LOG
    if [ -n "${MUT_VALGRIND:-}" ]; then
        set -- "$1" "$2" "$3" "$4" check-valgrind QUICK_TESTS="$2"
    else
        set -- "$1" "$2" "$3" "$4" check TESTS="$2"
    fi
    nice -n "${MUT_NICE:-0}" timeout -k 10 "$3" make -s -C "$1" "$5" "$6" \
        TEST_SUITE_LOG="$4.suite" SOAK_SECONDS=5 HWR_MASTER_DOWN=5 >"$4" 2>&1
}
