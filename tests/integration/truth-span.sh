#!/bin/sh
# A summed rate or statistic never spans a reset (issue 38): CPU 0's
# cycles restart while CPU 1 has no cycles reading, at the same set (the
# issue's 1000 2000 7 1007 and 1000 2000 - 4000), while CPU 1 waits
# since the set before, and before a set where CPU 0 has none
# (tests/pcp/gaps.py span).  Every poll's rates, counts and IPC, per CPU
# and summed, through a real snmpd, against the truth gaps.py computes
# from the recording: the sum and the summed IPC have no instance at
# the first set where every CPU reads again, while the rows are exact.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
python3 "$HWR_SRCDIR/tests/pcp/gaps.py" span "$TMP" || fail "gaps.py could not write the recording"
sets=$(awk '{ print $1 }' "$TMP/span.replay" | sort -un | wc -l)

OBJS=$(truth_objs)

start_master
start_agent "backend replay
pollInterval 2
replayFile $TMP/span.replay"
wait_until 20 agent_serving || fail "the subagent never answered"
# One GET of every object (one PDU sees one poll) until the recording
# has ended, each GET's lines closed by '--'; every poll must be seen.
: >"$TMP/samples"
ended=
for _ in $(seq 600); do
    # shellcheck disable=SC2086
    snmp snmpget -OQsUt $OBJS >>"$TMP/samples"
    echo -- >>"$TMP/samples"
    grep -q "end reached after $sets" "$TMP/agent.log" && { ended=yes; break; }
    sleep 0.1
done
[ -n "$ended" ] || fail "the recording did not end"
python3 "$HWR_SRCDIR/tests/pcp/gaps.py" check "$TMP/span.truth" "$TMP/samples" \
    >"$TMP/check" || { cat "$TMP/check"; fail "served values differ from the truth"; }
grep -q "span.replay:[0-9]*: hw.r10kevctr.cycles of CPU 0 goes backwards (2000 to 7)" "$TMP/agent.log" ||
    fail "the first reset's line was not named"
ok "resets behind missing readings: $(tail -n 1 "$TMP/check")"
# the issue's fourth set: rows of 1000 each, no summed rate, no summed IPC
awk '$1 == 4 && ($2 ~ /RateCycles|StatIpc/)' "$TMP/span.truth" | tr '\n' ' ' |
    grep -q "4 hwR10kEvCtrCpuRateCycles.0 1000 4 hwR10kEvCtrCpuRateCycles.1 1000 .*4 hwR10kEvCtrRateCycles.0 - 4 hwR10kEvCtrStatIpc.0 -" ||
    fail "the truth of the issue's fourth set: $(awk '$1 == 4' "$TMP/span.truth")"
ok "the fourth set: CPU rows 1000 + 1000 cycles/s, summed rate and IPC absent"
