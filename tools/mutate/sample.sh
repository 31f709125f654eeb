# tools/mutate/sample.sh: --sample N --seed S [PATH...]: N mutants drawn
# by tools/mutate/gen.py, each run as a patch; the tally per folder.
# Equivalent mutants (tools/mutate-equivalent.txt) are not run; those
# whose entry starts "valgrind:" (a leak or an uninitialised read that
# only memcheck sees) run under valgrind, as make check-valgrind does.

EQUIV=$MUT_TOP/tools/mutate-equivalent.txt

sample_run() { # N SEED PATH...
    n=$1 seed=$2; shift 2
    python3 "$MUT_TOP/tools/mutate/gen.py" list "$MUT_SRC" "$n" "$seed" "$@" |
        if [ -n "${MUT_REVERSE:-}" ]; then tac; else cat; fi >"$MUT_CACHE/sample.list" || return 2
    if [ -z "${MUT_RESUME:-}" ] || [ ! -f "$MUT_CACHE/sample.tally" ]; then
        : >"$MUT_CACHE/sample.tally"; : >"$MUT_CACHE/sample.survivors"
    fi
    i=0 total=$(wc -l <"$MUT_CACHE/sample.list")
    while IFS="$(printf '\t')" read -r mid file line op what; do
        i=$((i + 1))
        # --resume: a mutant the stopped run finished is not run again
        awk -v id="$mid" '$3 == id { f = 1 } END { exit !f }' \
            "$MUT_CACHE/sample.tally" && continue
        sample_one "$i/$total" "$mid" "$file" "$line" "$op" "$what"
    done <"$MUT_CACHE/sample.list"
    sample_report
}

sample_one() { # I/N ID FILE LINE OP WHAT
    folder=$(dirname "$3")
    say "[$1] $2 ($3:$4, $5): $6"
    why=$(grep "^$2[[:space:]]" "$EQUIV" 2>/dev/null | cut -f2-)
    case $why in
    "") vg= ;;
    valgrind:*) vg=1; say "  run under valgrind: ${why#valgrind: }" ;;
    *) say "  equivalent: $why"
        echo "$folder equivalent $2" >>"$MUT_CACHE/sample.tally"; return ;;
    esac
    patch=$MUT_CACHE/mutant.diff
    [ -n "${MUT_PATCH:-}" ] && cp "$MUT_PATCH" "$patch" ||
        python3 "$MUT_TOP/tools/mutate/gen.py" patch "$MUT_SRC" "$2" >"$patch"
    MUT_VALGRIND=${vg:-${MUT_VALGRIND:-}} run_patch "$patch" </dev/null
    say "  => $RUN_VERDICT"
    echo "$folder $RUN_VERDICT $2" >>"$MUT_CACHE/sample.tally"
    if [ "$RUN_VERDICT" = survived ]; then
        { echo "# $2 ($3:$4, $5)"; cat "$patch"; } >>"$MUT_CACHE/sample.survivors"
    fi
}

# Per folder: killed (of which by timeout), survived, not covered, could
# not run, equivalent; the kill rate of the covered, non-equivalent ones.
# (sample.tally: FOLDER VERDICT ID lines; tallies of two runs of one
# sample, one --reverse, can be joined: sort -u -k3,3.)
sample_report() {
    echo "==== mutants per folder (commit $MUT_COMMIT)"
    printf "%-22s %6s %8s %8s %8s %8s %6s %6s\n" folder killed timeout \
        survived uncover "not run" equiv rate
    awk '{ f[$1]; n[$1 " " $2]++; n["~all " $2]++; f["~all"]
           if (split($1, p, "/") > 1) { t = p[1] "/"; f[t]; n[t " " $2]++ } }
         END {
           for (k in f) {
             kl = n[k " killed"] + n[k " timeout"]; s = n[k " survived"]
             nr = n[k " nobuild"] + n[k " noapply"]
             printf "%-22s %6d %8d %8d %8d %8d %6d %5s\n", k, kl, n[k " timeout"], s,
                    n[k " uncovered"], nr, n[k " equivalent"],
                    (kl + s) ? sprintf("%d%%", 100 * kl / (kl + s)) : "-"
           }
         }' "$MUT_CACHE/sample.tally" | sort | sed 's/^~all /all  /'
    n_sur=$(grep -c ' survived ' "$MUT_CACHE/sample.tally")
    echo "mutate: $(grep -c ' \(killed\|timeout\) ' "$MUT_CACHE/sample.tally") killed, $n_sur survived"
    if [ -s "$MUT_CACHE/sample.survivors" ]; then
        echo "==== survivors"
        cat "$MUT_CACHE/sample.survivors"
    fi
}

# --again FILE: the survivors a sample printed (FILE: its "==== survivors"
# part, or sample.survivors), each run again on this commit, the
# equivalent file read afresh: what the tests added since kill.
again_run() { # FILE
    : >"$MUT_CACHE/sample.tally"; : >"$MUT_CACHE/sample.survivors"
    # one diff per ID (a run stopped while writing one leaves its
    # header twice: the later block is the whole one)
    awk -v dir="$MUT_CACHE" '
        /^# [^ ]+ \(/ { if (!($2 in k)) { k[$2] = ++n; w = substr($3, 2)
                                          sub(/,$/, "", w)
                                          print $2, w >(dir "/again.list") }
                        f = dir "/again." k[$2]; printf "" >f; next }
        /^====/ { f = "" }
        f != "" { print >f }' "$1"
    i=0 total=$(wc -l <"$MUT_CACHE/again.list")
    while read -r mid where; do
        i=$((i + 1))
        MUT_PATCH=$MUT_CACHE/again.$i sample_one "$i/$total" "$mid" \
            "${where%%:*}" "${where#*:}" again "(again)"
        rm -f "$MUT_CACHE/again.$i"
    done <"$MUT_CACHE/again.list"
    rm -f "$MUT_CACHE/again.list"
    sample_report
}
