# tools/mutate/run.sh: one patch (a mutant) against the tests that
# execute a line it changes.  run_patch PATCH prints each test run and
# its result, and sets RUN_VERDICT: killed, timeout (killed by a test's
# timeout), survived, uncovered (no test executes a changed line),
# noapply or nobuild.  Returns 0 killed, 1 survived or uncovered, 2 not run.

# The lines of the commit a patch changes: FILE:LINE, the old side's
# numbers (an insertion counts the lines around it).
patch_lines() { # PATCH
    awk '/^\+\+\+ b\// { f = substr($2, 3); next }
         /^--- / { next }
         /^@@/ { split($2, a, ","); old = substr(a[1], 2) + 0; next }
         f == "" { next }
         /^-/ { print f ":" old; old++; minus = 1; next }
         /^\+/ { if (!minus) { print f ":" (old > 1 ? old - 1 : 1); print f ":" old }
                 next }
         /^ / { old++; minus = 0 }' "$1" | sort -u
}

# The change PATCH made to the scratch copy, as a diff against the
# commit: its line numbers are the commit's even when PATCH was written
# against an older tree and applied with an offset (tests/mutants/).
applied_diff() { # PATCH
    for f in $(patch_files "$1"); do
        git -C "$MUT_TOP" show "$MUT_COMMIT:$f" >"$MUT_CACHE/orig" 2>/dev/null || : >"$MUT_CACHE/orig"
        diff -U0 --label "a/$f" --label "b/$f" "$MUT_CACHE/orig" "$MUT_SRC/$f"
    done
    rm -f "$MUT_CACHE/orig"
}

run_patch() { # PATCH
    RUN_VERDICT=noapply
    scratch_apply "$1" || return 2
    applied_diff "$1" >"$MUT_CACHE/applied.lines.diff"
    patch_lines "$MUT_CACHE/applied.lines.diff" >"$MUT_CACHE/lines.want"
    cov_tests_for "$MUT_CACHE/lines.want" >"$MUT_CACHE/tests.want"
    if [ ! -s "$MUT_CACHE/tests.want" ]; then
        RUN_VERDICT=uncovered
        say "  no test executes a changed line: not covered"
        scratch_restore "$1"; return 1
    fi
    if ! scratch_make; then
        RUN_VERDICT=nobuild
        say "  the mutated tree does not build:"; grep -m 5 'error' "$MUT_BUILD/make.out"
        scratch_restore "$1"; return 2
    fi
    run_tests "$MUT_CACHE/tests.want"
    rc=$?
    scratch_restore "$1"
    return $rc
}

# Run the tests listed ("SECONDS TEST", fastest first) until one fails,
# MUT_JOBS (default 3) at a time: the integration tests mostly wait, and
# a survivor runs every test that executes its line (11 minutes of them
# one at a time).  A test that fails beside others is run again alone
# before it counts: a failure that the load made, and not the mutant, is
# not a kill.
run_tests() { # LIST
    RUN_VERDICT=survived
    jobs=${MUT_JOBS:-3}
    : >"$MUT_CACHE/batch"
    while read -r secs t; do
        echo "$secs $t" >>"$MUT_CACHE/batch"
        [ "$(wc -l <"$MUT_CACHE/batch")" -lt "$jobs" ] && continue
        run_batch "$MUT_CACHE/batch" && return 0
        : >"$MUT_CACHE/batch"
    done <"$1"
    [ -s "$MUT_CACHE/batch" ] && run_batch "$MUT_CACHE/batch" && return 0
    return 1
}

# A test's timeout: 3 x its unmutated time, at least 60 s (under
# valgrind 20 x, at least 300 s).
test_timeout() { # SECONDS
    awk -v s="$1" -v vg="${MUT_VALGRIND:-}" 'BEGIN {
        f = vg == "" ? 3 : 20; m = vg == "" ? 60 : 300
        t = int(f * s + 1); print (t < m ? m : t) }'
}

# The tests of BATCH side by side; 0 when one of them kills the mutant
# (RUN_VERDICT killed or timeout).
run_batch() { # BATCH
    n=0
    while read -r secs t; do
        n=$((n + 1))
        (
            t0=$(date +%s)
            mut_run_test "$MUT_BUILD" "$t" "$(test_timeout "$secs")" \
                "$MUT_CACHE/test.$n.log" </dev/null
            echo "$? $(($(date +%s) - t0))" >"$MUT_CACHE/test.$n.rc"
        ) &
    done <"$1"
    wait
    n=0
    while read -r secs t; do
        n=$((n + 1))
        read -r rc took <"$MUT_CACHE/test.$n.rc"
        if [ "$rc" = 0 ]; then
            say "  $t: passed (${took} s)"
            continue
        fi
        if [ "$(wc -l <"$1")" -gt 1 ]; then
            say "  $t: failed beside others (rc $rc, ${took} s): again alone"
            t0=$(date +%s)
            mut_run_test "$MUT_BUILD" "$t" "$(test_timeout "$secs")" "$MUT_CACHE/test.log" </dev/null
            rc=$? took=$(($(date +%s) - t0))
            [ "$rc" = 0 ] && { say "  $t: passed alone (${took} s): not a kill"; continue; }
        fi
        verdict "$t" "$rc" "$took" "$(test_timeout "$secs")" "$secs"
        return 0
    done <"$1"
    return 1
}

verdict() { # TEST RC TOOK TIMEOUT SECONDS
    case $2 in
    124|137) say "  $1: timed out after $4 s (its unmutated time $5 s): killed by timeout"
        RUN_VERDICT=timeout ;;
    *) say "  $1: FAILED ($3 s): killed"
        grep -m 3 -E '^(FAIL|not ok|\[  ERROR|\[   LINE)' "$MUT_BUILD/${1%.sh}.log" 2>/dev/null |
            sed 's/^/mutate:     /'
        RUN_VERDICT=killed ;;
    esac
}
