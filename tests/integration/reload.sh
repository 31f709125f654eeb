#!/bin/sh
# SIGHUP reloads the config: a new CPU count changes the table and the
# discontinuity time and sends hwR10kEvCtrCounterDiscontinuity to the
# master's trap sink (a real snmptrapd); sums never go backwards; a bad
# config on reload is reported with FILE: line N and the running one stays.
. "$(dirname "$0")/lib.sh"

start_trapd
start_master
start_agent "backend sim
pollInterval 1
simCpus 2"
wait_until 20 agent_serving || fail "the subagent never answered"

set -- $(snmpq snmpget hwR10kEvCtrNumCpus.0 hwR10kEvCtrDiscontinuityTime.0 hwR10kEvCtrCycles.0)
[ "$1" = 2 ] && [ "$2" = 0 ] || fail "before reload: cpus=$1 disc=$2"
before=$3

sed -i 's/^simCpus 2$/simCpus 4/' "$TMP/agent.conf"
kill -HUP "$AGENT_PID"
cpus4() { [ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = 4 ]; }
wait_until 10 cpus4 || fail "the table did not grow to 4 CPUs"
set -- $(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0 hwR10kEvCtrCycles.0 \
    hwR10kEvCtrCpuCycles.3 hwR10kEvCtrLastPollTime.0)
[ "$1" -gt 0 ] || fail "discontinuity time not set: $1"
[ "$2" -ge "$before" ] || fail "total went backwards: $before -> $2"
[ "$3" -gt 0 ] || fail "CPU 3 has no cycles: $3"
[ "$1" -le "$4" ] || fail "discontinuity $1 after the last poll $4"
disc=$1
grep -q "counter discontinuity: .*CPU 2 joined the table" "$TMP/agent.log" ||
    fail "the log does not say why"
ok "SIGHUP with simCpus 4: 4 rows, discontinuity at $disc, total $before -> $2"

got_trap() { grep -q "hwR10kEvCtrCounterDiscontinuity" "$TMP/trapd.log"; }
wait_until 10 got_trap || fail "no discontinuity notification at snmptrapd"
grep -q "hwR10kEvCtrDiscontinuityTime.0 = Timeticks: ($disc)" "$TMP/trapd.log" ||
    fail "notification varbinds disagree with GET ($disc)"
grep -q "hwR10kEvCtrNumCpus.0 = Gauge32: 4" "$TMP/trapd.log" || fail "NumCpus varbind"
ok "snmptrapd received hwR10kEvCtrCounterDiscontinuity with the GET values"

printf 'backend sim\nsimCpus 1\npollInterval 0\n' >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
bad_logged() { grep -q "agent.conf: line 3: Error: pollInterval" "$TMP/agent.log"; }
wait_until 10 bad_logged || fail "bad reload line not reported"
grep -q "reload: 1 bad config line(s); keeping the running config" "$TMP/agent.log" ||
    fail "no 'keeping the running config'"
sleep 1.5
set -- $(snmpq snmpget hwR10kEvCtrNumCpus.0 hwR10kEvCtrPollInterval.0 hwR10kEvCtrDiscontinuityTime.0)
[ "$1" = 4 ] && [ "$2" = 1 ] && [ "$3" = "$disc" ] || fail "bad reload changed things: $*"
ok "a bad reload is named and ignored"

printf 'backend sim\nsimCpus 4\npollInterval 1\nsimRate hw.r10kevctr.cycles 7\n' >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
rate7() {
    set -- $(snmpq snmpget hwR10kEvCtrCpuCycles.0 hwR10kEvCtrPolls.0)
    a=$1; sleep 1.2
    set -- $(snmpq snmpget hwR10kEvCtrCpuCycles.0)
    [ $(($1 - a)) -eq 7 ]
}
wait_until 10 rate7 || fail "the new rate did not apply"
ok "a good reload applies the new rates"
