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

run_patch() { # PATCH
    RUN_VERDICT=noapply
    scratch_apply "$1" || return 2
    patch_lines "$1" >"$MUT_CACHE/lines.want"
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

# Run the tests listed ("SECONDS TEST") until one fails.
run_tests() { # LIST
    RUN_VERDICT=survived
    while read -r secs t; do
        to=$(awk -v s="$secs" 'BEGIN { t = int(3 * s + 1); print (t < 60 ? 60 : t) }')
        log=$MUT_CACHE/test.log
        t0=$(date +%s)
        mut_run_test "$MUT_BUILD" "$t" "$to" "$log" </dev/null
        rc=$? took=$(($(date +%s) - t0))
        case $rc in
        0) say "  $t: passed (${took} s)" ;;
        124|137) say "  $t: timed out after ${to} s (3 x its ${secs} s): killed by timeout"
            RUN_VERDICT=timeout; return 0 ;;
        *) say "  $t: FAILED (${took} s): killed"
            grep -m 3 -E '^(FAIL|not ok|\[  ERROR|\[   LINE)' "$MUT_BUILD/${t%.sh}.log" 2>/dev/null |
                sed 's/^/mutate:     /'
            RUN_VERDICT=killed; return 0 ;;
        esac
    done <"$1"
    return 1
}
