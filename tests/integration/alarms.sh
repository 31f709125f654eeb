#!/bin/sh
# Threshold alarms end to end: a real snmptrapd, the master's trap sink,
# receives exactly the rising and falling notifications (with the values
# a GET gives) when SIGHUP reloads change the sim backend's rates, and
# none while the rates stay between the thresholds.  With
# HWR_ALARMS_VIA=snmp (alarms-snmp.sh) the same two alarms are created
# over SNMP (rows 1025 and 1026, kept across the reloads) instead of
# config lines (rows 1 and 2): every expectation holds for both.
. "$(dirname "$0")/lib.sh"

if [ "${HWR_ALARMS_VIA:-config}" = snmp ]; then
    I1=1025 I2=1026
    ALARMS="alarmSet yes"
else
    I1=1 I2=2
    ALARMS="alarm brmp hw.r10kevctr.fail.brmp sum rate 5000000 2000000 rising
alarm brmpcpu hw.r10kevctr.fail.brmp each rate 2500000 1000000 rising"
fi
create() { # create INDEX NAME SCOPE RISING FALLING: as the alarm line would
    out=$(snmp snmpset hwR10kEvCtrAlarmName.$1 s "$2" \
        hwR10kEvCtrAlarmMetric.$1 s hw.r10kevctr.fail.brmp hwR10kEvCtrAlarmScope.$1 i "$3" \
        hwR10kEvCtrAlarmSampleType.$1 i ratePerSecond hwR10kEvCtrAlarmStartupAlarm.$1 i risingAlarm \
        hwR10kEvCtrAlarmRisingThresholdLow.$1 u "$4" hwR10kEvCtrAlarmFallingThresholdLow.$1 u "$5" \
        hwR10kEvCtrAlarmRowStatus.$1 i createAndGo)
    echo "$out" | grep -q "createAndGo" || fail "row $1 not created: $out"
}
conf() { # conf RATE: fail.brmp events per second on CPU 0 (CPU 1: twice)
    printf 'backend sim\npollInterval 1\nsimCpus 2\nsimRate hw.r10kevctr.fail.brmp %s\n%s\n' \
        "$1" "$ALARMS" >"$TMP/agent.conf"
}
count() { grep -c "$1" "$TMP/trapd.log"; }
await() { # await PATTERN N: until snmptrapd has N notifications matching
    got=0
    for _ in $(seq 50); do
        got=$(count "$1")
        [ "$got" -ge "$2" ] && break
        sleep 0.2
    done
    [ "$got" -eq "$2" ] || fail "$got notifications matching $1, expected $2"
}

start_trapd
start_master
start_agent "$(conf 1200000; cat "$TMP/agent.conf")"
wait_until 20 agent_serving || fail "the subagent never answered"
if [ "$I1" = 1025 ]; then
    SNMP_COMMUNITY=private # the test master's read-write community
    create 1025 brmp sum 5000000 2000000
    create 1026 brmpcpu eachCpu 2500000 1000000
fi
three_polls() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" -ge 4 ]; }
wait_until 20 three_polls || fail "no polls"

# 1.2M and 2.4M per CPU, 3.6M summed: between the thresholds.
[ "$(count 'Alarm')" = 0 ] || fail "alarm notifications while between thresholds: $(cat "$TMP/trapd.log")"
set -- $(snmpq snmpget hwR10kEvCtrAlarmStatus.$I1 hwR10kEvCtrAlarmValue.$I1 hwR10kEvCtrAlarmStatus.$I2 \
    hwR10kEvCtrRateFailBrmp.0)
[ "$1" = armed ] && [ "$2" = 3600000 ] && [ "$3" = armed ] && [ "$4" = 3600000 ] ||
    fail "alarm table while between: $*"
ok "between the thresholds: no notification, alarms armed at 3600000/s"

# Up: 3M and 6M per CPU, 9M summed.  The reload is a discontinuity whose
# sample is dropped; the next one raises the sum alarm and both CPUs'.
conf 3000000; kill -HUP "$AGENT_PID"
await hwR10kEvCtrRisingAlarm 3
more_polls 2
[ "$(count hwR10kEvCtrRisingAlarm)" = 3 ] || fail "more rising alarms while above (hysteresis)"
[ "$(count hwR10kEvCtrFallingAlarm)" = 0 ] || fail "falling alarm while rising"
line=$(grep hwR10kEvCtrRisingAlarm "$TMP/trapd.log" | grep "hwR10kEvCtrAlarmName.$I1 ")
for want in "hwR10kEvCtrAlarmName.$I1 = STRING: brmp" \
            "hwR10kEvCtrAlarmMetric.$I1 = STRING: hw.r10kevctr.fail.brmp" \
            "hwR10kEvCtrAlarmSampleType.$I1 = INTEGER: ratePerSecond(2)" \
            "hwR10kEvCtrAlarmEventCpu.$I1 = INTEGER: -1" \
            "hwR10kEvCtrAlarmEventValue.$I1 = Counter64: 9000000" \
            "hwR10kEvCtrAlarmEventThreshold.$I1 = Counter64: 5000000"; do
    echo "$line" | grep -qF "$want" || fail "rising notification lacks '$want': $line"
done
grep hwR10kEvCtrRisingAlarm "$TMP/trapd.log" | grep -q "hwR10kEvCtrAlarmEventCpu.$I2 = INTEGER: 0.*EventValue.$I2 = Counter64: 3000000" ||
    fail "no rising alarm for CPU 0"
grep hwR10kEvCtrRisingAlarm "$TMP/trapd.log" | grep -q "hwR10kEvCtrAlarmEventCpu.$I2 = INTEGER: 1.*EventValue.$I2 = Counter64: 6000000" ||
    fail "no rising alarm for CPU 1"
set -- $(snmpq snmpget hwR10kEvCtrAlarmStatus.$I1 hwR10kEvCtrAlarmEvents.$I1 hwR10kEvCtrAlarmDropped.$I1 \
    hwR10kEvCtrAlarmName.$I1)
[ "$1" = risen ] && [ "$2" = 1 ] && [ "$3" -ge 1 ] && { [ "$4" = brmp ] || [ "$4" = '"brmp"' ]; } || fail "alarm table after rising: $*"
set -- $(snmpq snmpget hwR10kEvCtrRateFailBrmp.0 hwR10kEvCtrAlarmValue.$I1 hwR10kEvCtrCpuRateFailBrmp.1)
[ "$1" = 9000000 ] && [ "$2" = 9000000 ] && [ "$3" = 6000000 ] || fail "GET disagrees: $*"
grep -q "alarm brmp: sum: sample across a counter discontinuity dropped" "$TMP/agent.log" ||
    fail "the dropped sample is not noted"
ok "above: exactly 3 rising notifications (sum, CPU 0, CPU 1), values as GET shows"

# Down: 100k and 200k per CPU, 300k summed.
conf 100000; kill -HUP "$AGENT_PID"
await hwR10kEvCtrFallingAlarm 3
more_polls 2
[ "$(count hwR10kEvCtrFallingAlarm)" = 3 ] || fail "more falling alarms"
[ "$(count hwR10kEvCtrRisingAlarm)" = 3 ] || fail "rising alarm while falling"
grep hwR10kEvCtrFallingAlarm "$TMP/trapd.log" | grep "AlarmName.$I1 " |
    grep -q "EventValue.$I1 = Counter64: 300000.*EventThreshold.$I1 = Counter64: 2000000" ||
    fail "falling notification values"
[ "$(snmpq snmpget hwR10kEvCtrAlarmStatus.$I1)" = fallen ] || fail "status not fallen"
ok "below: exactly 3 falling notifications"

snmp snmpwalk hwR10kEvCtrAlarmTable >"$TMP/alarms"
grep -q "hwR10kEvCtrAlarmRisingThreshold.$I1 = Counter64: 5000000" "$TMP/alarms" || fail "table: rising"
grep -q "hwR10kEvCtrAlarmScope.$I2 = INTEGER: eachCpu(3)" "$TMP/alarms" || fail "table: scope"
grep -q "hwR10kEvCtrAlarmStartupAlarm.$I1 = INTEGER: risingAlarm(1)" "$TMP/alarms" || fail "table: startup"
grep -q 'EventCpu' "$TMP/alarms" && fail "notify-only objects in a walk"
ok "the alarm table shows the settings and state; notify-only objects stay hidden"

# The agent sends its notifications straight to the master's AgentX
# session: no SNMPv1 copy is attempted, so no v1 warning in its log.
grep -q "send_trap" "$TMP/agent.log" && { grep send_trap "$TMP/agent.log" | head -3; fail "v1 trap warnings in the agent's log"; }
ok "the agent's log has no SNMPv1 conversion warnings"
