#!/bin/sh
# Every poll's rates and statistics against a truth computed from the
# readings (tests/pcp/gaps.py): a counter that restarts (CPU 0's cycles
# go from 3000 to 5) and a counter logged only in every other record
# (grad.instrg, as pmlogger logs metric groups at different intervals),
# as a PCP archive written with pcp.pmi and as the same replay file.
# Where an input has no reading, or restarted, the rate, the sum and the
# statistic have no instance; after a missing reading they cover the time
# since the last one (IPC over two intervals' instructions and cycles);
# a restart moves hwR10kEvCtrDiscontinuityTime and sends
# hwR10kEvCtrCounterDiscontinuity, a missing reading does neither.
# --dump prints '-' for the rate of a counter without a reading.
# truth-span.sh's recording as an archive: no sum spans a CPU's reset.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3 # Debian's: python3-pcp installs pcp.pmi for it
"$PY" -c 'import pcp.pmi' 2>/dev/null || { echo "SKIP: python3-pcp not installed"; exit 77; }
"$PY" "$HWR_SRCDIR/tests/pcp/gaps.py" write "$TMP" || fail "gaps.py could not write the recordings"

OBJS=$(truth_objs)

# sample NAME RECORDS: one GET of every object (one PDU sees one poll)
# until the recording has ended, each GET's lines closed by '--'; at most
# RECORDS + 10 polls (counted, not timed: under load polls come late)
sample_once() { # NAME RECORDS
    # shellcheck disable=SC2086
    snmp snmpget -OQsUt $OBJS >>"$TMP/$1.samples"
    echo -- >>"$TMP/$1.samples"
    grep -q "end reached after $2 " "$TMP/agent.log"
}
sample() {
    : >"$TMP/$1.samples"
    wait_polls $(($2 + 10)) sample_once "$1" "$2" ||
        fail "$1: the recording did not end within $(($2 + 10)) polls"
}
run() { # run NAME CONFIG-LINES [TRUTH RECORDS]: 8 records of $TMP/truth
    : >"$TMP/agent.log"
    start_agent "pollInterval 2
$2"
    wait_until 20 agent_serving || fail "$1: the subagent never answered"
    sample "$1" "${4:-8}"
    stop_agent
    "$PY" "$HWR_SRCDIR/tests/pcp/gaps.py" check "${3:-$TMP/truth}" "$TMP/$1.samples" \
        >"$TMP/$1.check" || { cat "$TMP/$1.check"; fail "$1: served values differ from the truth"; }
    grep -q "went backwards" "$TMP/agent.log" || fail "$1: the restart was not logged"
    ok "$1: $(tail -n 1 "$TMP/$1.check")"
}

start_trapd
start_master
run replay "backend replay
replayFile $TMP/gaps.replay"
grep -q "gaps.replay:[0-9]*: hw.r10kevctr.cycles of CPU 0 goes backwards (3000 to 5)" "$TMP/agent.log" ||
    fail "replay: the restart's line was not named"
run pcp "backend pcp
pcpArchive $TMP/gaps"
wait_until 10 grep -q "CPU 0 hw.r10kevctr.cycles went backwards (reset)" "$TMP/trapd.log" ||
    fail "no hwR10kEvCtrCounterDiscontinuity naming the restart: $(cat "$TMP/trapd.log")"
ok "the restart sent hwR10kEvCtrCounterDiscontinuity"

# Resets of one CPU while the other has no reading (truth-span.sh's
# recording) as a PCP archive: the sums never span them.
"$PY" "$HWR_SRCDIR/tests/pcp/gaps.py" span "$TMP" &&
    "$PY" "$HWR_SRCDIR/tests/pcp/gaps.py" span-archive "$TMP" ||
    fail "gaps.py could not write the span recordings"
run pcp-span "backend pcp
pcpArchive $TMP/span" "$TMP/span.truth" 13

# An instance domain that changes over time: instances 0 and 1 swap
# names between two archives joined by pmlogextract.  Each CPU's count
# is its own, by the names the archive has at each record.
pmlogextract "$TMP/part0" "$TMP/part1" "$TMP/renamed" >"$TMP/extract.log" 2>&1 ||
    fail "pmlogextract: $(cat "$TMP/extract.log")"
: >"$TMP/agent.log"
start_agent "pollInterval 1
backend pcp
pcpArchive $TMP/renamed"
wait_until 20 agent_serving || fail "renamed: the subagent never answered"
renamed_end() { grep -q "end reached after" "$TMP/agent.log"; }
wait_polls 30 renamed_end || fail "renamed: the archive did not end within 30 polls"
more_polls 1 # one more poll served: the ending reading is folded in (publish.c holds a reading while requests come)
while read -r cpu want; do
    got=$(snmpq snmpget "hwR10kEvCtrCpuCycles.$cpu")
    [ "$got" = "$want" ] || fail "renamed: CPU $cpu served $got cycles, its instances counted $want"
done <"$TMP/renamed.truth"
stop_agent
ok "an instance domain that changes: each CPU counts by its name at each record ($(tr '\n' ' ' <"$TMP/renamed.truth"))"

# An instance domain that grows within one archive, without a mark (a
# CPU hot-added while pmlogger ran): the new CPU counts from its first
# record, learnt from the archive's instance domain at that record.
"$PY" "$HWR_SRCDIR/tests/pcp/gaps.py" grown "$TMP" || fail "gaps.py could not write the grown archive"
: >"$TMP/agent.log"
start_agent "pollInterval 1
backend pcp
pcpArchive $TMP/grown"
wait_until 20 agent_serving || fail "grown: the subagent never answered"
wait_polls 30 renamed_end || fail "grown: the archive did not end within 30 polls"
more_polls 1
while read -r cpu want; do
    got=$(snmpq snmpget "hwR10kEvCtrCpuCycles.$cpu")
    [ "$got" = "$want" ] || fail "grown: CPU $cpu served $got cycles, its readings counted $want"
done <"$TMP/grown.truth"
[ "$(grep -c "instance domain 1.35 changed at record 4" "$TMP/agent.log")" = 1 ] ||
    fail "grown: the change (of the domain of two metrics) is not logged once: $(grep 'instance domain' "$TMP/agent.log")"
stop_agent
ok "an instance domain that grows within one archive: the new CPU counts from its first record ($(tr '\n' ' ' <"$TMP/grown.truth"))"

# --dump: the first two records; the second has no grad.instrg
for b in replay pcp; do
    case $b in
    replay) conf="backend replay
replayFile $TMP/gaps.replay" ;;
    pcp) conf="backend pcp
pcpArchive $TMP/gaps" ;;
    esac
    printf '%s\npollInterval 1\n' "$conf" >"$TMP/dump.conf"
    "$AGENT" --dump -C -c "$TMP/dump.conf" >"$TMP/dump.out" 2>"$TMP/dump.err" ||
        fail "$b: --dump failed: $(cat "$TMP/dump.err")"
    grep -qx "hw.r10kevctr.grad.instrg 0 0 -" "$TMP/dump.out" &&
        grep -qx "hw.r10kevctr.grad.instrg sum 0 -" "$TMP/dump.out" &&
        grep -qx "hw.r10kevctr.cycles 0 1000 1000" "$TMP/dump.out" &&
        grep -qx "hw.r10kevctr.cycles sum 4000 4000" "$TMP/dump.out" ||
        fail "$b: --dump: $(cat "$TMP/dump.out")"
done
ok "--dump: '-' for the rate of a counter without a reading, the others exact"
