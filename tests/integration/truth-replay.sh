#!/bin/sh
# Served numbers against the truth computed here from a recording: two
# CPUs counting different amounts per set, CPU 1 missing from one set
# (a replay set, a PCP record without it).  The rows and the sum served
# at the end equal what each CPU counted (last value minus first), for
# the replay backend and for the same recording as a PCP archive; the
# sum is never more than its CPUs counted.  At the end (no loop) the rows
# say ended(3), the rates and statistics have no instance, and the
# enabled time stands still.
. "$(dirname "$0")/lib.sh"

rec="$TMP/gap.replay"
awk 'BEGIN {
    print "# CPU 1 is missing from the set at time 3"
    for (t = 0; t <= 5; t++) {
        printf "%d 0 hw.r10kevctr.cycles %d\n", t, 1000 + 100 * t
        printf "%d 0 hw.r10kevctr.grad.instrg %d\n", t, 10 + 40 * t
        if (t == 3) continue
        printf "%d 1 hw.r10kevctr.cycles %d\n", t, 5000 + 37 * t
        printf "%d 1 hw.r10kevctr.grad.instrg %d\n", t, 20 + 11 * t
    }
}' >"$rec"
# The truth: per CPU and counter, last value minus first; sums of those.
truth() { # truth METRIC CPU|sum
    awk -v m="hw.r10kevctr.$1" -v c="$2" '
        $3 == m && (c == "sum" || $2 == c) {
            if (!($2 in first)) first[$2] = $4
            last[$2] = $4
        }
        END { s = 0; for (k in first) s += last[k] - first[k]; print s }' "$rec"
}
check_walk() { # check_walk BACKEND: the served values equal the truth
    for m in cycles grad.instrg; do
        case $m in cycles) obj=Cycles ;; *) obj=GradInstrg ;; esac
        for cpu in 0 1; do
            got=$(snmpq snmpget "hwR10kEvCtrCpu$obj.$cpu")
            want=$(truth "$m" "$cpu")
            [ "$got" = "$want" ] || fail "$1: CPU $cpu $m served $got, counted $want"
        done
        got=$(snmpq snmpget "hwR10kEvCtr$obj.0")
        want=$(truth "$m" sum)
        [ "$got" = "$want" ] || fail "$1: summed $m served $got, its CPUs counted $want"
    done
    ok "$1: rows and sums equal what the CPUs counted ($(truth cycles sum) cycles; CPU 1 missing from one set)"
}
check_ended() { # check_ended BACKEND
    for o in hwR10kEvCtrCpuStatus.0 hwR10kEvCtrCpuStatus.1; do
        [ "$(snmpq snmpget "$o")" = "ended" ] || fail "$1: $o is not ended: $(snmp snmpget "$o")"
    done
    for o in hwR10kEvCtrRateCycles.0 hwR10kEvCtrCpuRateCycles.0 hwR10kEvCtrStatIpc.0 \
        hwR10kEvCtrCpuStatIpc.1; do
        out=$(snmp snmpget "$o")
        echo "$out" | grep -q "No Such Instance" || fail "$1: $o at the end: $out"
    done
    e1=$(snmpq snmpget hwR10kEvCtrCpuTimeEnabled.0)
    sleep 2.2
    e2=$(snmpq snmpget hwR10kEvCtrCpuTimeEnabled.0)
    [ "$e1" = "$e2" ] || fail "$1: the enabled time grows after the end ($e1, $e2)"
    ok "$1: at the end: ended(3), no rate or statistic, the enabled time stands ($e1 ns)"
}

start_master
start_agent "backend replay
pollInterval 1
replayFile $rec
replayLoop no"
wait_until 20 agent_serving || fail "the subagent never answered"
ended() { grep -q "end reached after 6 sets" "$TMP/agent.log"; }
wait_until 20 ended || fail "the replay did not reach its end"
more_polls 1 # one more poll served: the ending reading is folded in (publish.c holds a reading while requests come)
sleep 1.5
check_walk replay
check_ended replay
grep -q "CPU 1 returned to the table" "$TMP/agent.log" || fail "the return of CPU 1 was not logged"
stop_agent

R2A="$HWR_BUILDDIR/tests/pcp/replay2archive"
[ -x "$R2A" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
"$R2A" "$rec" "$TMP/gap" >"$TMP/convert.log" 2>&1 || fail "replay2archive: $(cat "$TMP/convert.log")"
: >"$TMP/agent.log"
start_agent "backend pcp
pollInterval 1
pcpArchive $TMP/gap
pcpLoop no"
wait_until 20 agent_serving || fail "the subagent never answered (archive)"
ended() { grep -q "end reached after 6 records" "$TMP/agent.log"; }
wait_until 20 ended || fail "the archive did not reach its end"
sleep 1.5
check_walk pcp
check_ended pcp
