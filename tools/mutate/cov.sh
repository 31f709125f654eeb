# tools/mutate/cov.sh: per-test line coverage of the commit, once.
# A build with --coverage of the scratch copy (unmutated); each test runs
# once with its own GCOV_PREFIX, so its .gcda files, and the lines they
# say it executed, are its own.  In MUT_COV:
#   tests.tsv   CLASS SECONDS RC TEST, one line per test
#   lines/ID    FILE:LINE, every line the test executed
#   gcda/ID/    its .gcda files; merged/ all of them (for gcovr)

cov_prepare() {
    [ -f "$MUT_COV/done" ] && return 0
    say "per-test coverage of $MUT_COMMIT ($MUT_CLASSES) in $MUT_COV: each test once"
    rm -rf "$MUT_COV"; mkdir -p "$MUT_COV/build" "$MUT_COV/lines" "$MUT_COV/logs"
    (cd "$MUT_COV/build" && "$MUT_SRC/configure" -q CFLAGS='-O0 -g --coverage' \
        LDFLAGS=--coverage) >"$MUT_COV/configure.out" 2>&1 || return 1
    nice -n "${MUT_NICE:-0}" make -s -C "$MUT_COV/build" -j2 all >"$MUT_COV/make.out" 2>&1 &&
        nice -n "${MUT_NICE:-0}" make -s -C "$MUT_COV/build" -j2 check TESTS= >>"$MUT_COV/make.out" 2>&1 ||
        { tail -n 30 "$MUT_COV/make.out"; return 1; }
    cov_build_lines
    mut_tests "$MUT_COV/build" >"$MUT_COV/tests.list"
    # side by side (--jobs): the integration tests mostly wait
    xargs -P "${MUT_JOBS:-3}" -L 1 sh "$MUT_TOP/tools/mutate/covone.sh" "$MUT_COV" \
        <"$MUT_COV/tests.list"
    # drift.sh checks what the build generated (the MIB, the Zabbix
    # template, generator.yml): the lines the build's generators ran
    # are its own, though it runs none itself
    drift=$MUT_COV/lines/$(mut_id tests/mib/drift.sh)
    if [ -f "$drift" ]; then
        sort -u "$drift" "$MUT_COV/build.lines" >"$drift.new" && mv "$drift.new" "$drift"
    fi
    sort -n -k1,1 -k2,2 "$MUT_COV"/lines/*.tsv >"$MUT_COV/tests.tsv"
    cov_merge
    awk '$3 != 0 { print "mutate: unmutated, " $4 " fails (rc " $3 "): it is never run" }' \
        "$MUT_COV/tests.tsv"
    touch "$MUT_COV/done"
}

# Every test's .gcda summed into the coverage build's tree (gcov-tool
# merge), for gcovr's per-folder line and branch coverage.
cov_merge() {
    merged=$MUT_COV/merged
    rm -rf "$merged"
    for d in "$MUT_COV"/gcda/*/; do
        inner=$d${MUT_COV#/}/build
        [ -d "$inner" ] || continue
        if [ ! -d "$merged" ]; then
            cp -r "$inner" "$merged"
        else
            gcov-tool merge -o "$merged" "$merged" "$inner" 2>/dev/null
        fi
    done
    find "$MUT_COV/build" -name "*.gcda" -delete
    [ -d "$merged" ] || return 0
    (cd "$merged" && find . -name '*.gcda' -exec cp --parents {} "$MUT_COV/build/" \;)
}

# The tests that executed a line of FILE:LINE list LINES, fastest class
# first, then fastest: "SECONDS TEST" lines (only those that pass unmutated).
cov_tests_for() { # LINES-FILE
    ids=$( (cd "$MUT_COV/lines" && grep -lFx -f "$1" -- * 2>/dev/null) | grep -v '\.tsv$')
    for id in $ids; do cat "$MUT_COV/lines/$id.tsv"; done |
        awk '$3 == 0' | sort -n -k1,1 -k2,2 | awk '{ print $2, $4 }'
}

# The lines the build itself ran (genmib and the other generators of
# mib/, which make runs): their .gcda in the coverage build's tree, read
# as covlines.py reads a test's, then removed so that no test's count
# holds them.
cov_build_lines() {
    pre=$(mktemp -d /tmp/hwr-mutate-build.XXXXXX)
    (cd "$MUT_COV/build" && find . -name '*.gcda') | while read -r g; do
        mkdir -p "$pre$MUT_COV/build/$(dirname "$g")"
        mv "$MUT_COV/build/$g" "$pre$MUT_COV/build/$g"
    done
    python3 "$MUT_TOP/tools/mutate/covlines.py" "$pre" "$MUT_SRC" >"$MUT_COV/build.lines"
    rm -rf "$pre"
    say "coverage: the build's generators ran $(wc -l <"$MUT_COV/build.lines") lines (tests/mib/drift.sh checks what they made)"
}
