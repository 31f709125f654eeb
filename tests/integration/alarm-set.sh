#!/bin/sh
# Alarms a manager creates over SNMP, end to end: a real snmpd master with
# conf/snmpd.conf.example's users and access lines, real snmpset over
# SNMPv3 authPriv, a real snmptrapd.  createAndGo and createAndWait rows
# raise the same notifications as a config alarm; notInService stops a
# row, destroy removes it; the master refuses a v2c read-only community
# and the read-only v3 user; every error of a bad set, with the table
# unchanged; two managers racing on one row; a SIGHUP keeps every row, a
# restart the nonVolatile ones (the private persistent directory); the
# config file's row cannot be destroyed.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/alarm-lib.sh"

start_alarm_setup "alarmSetMaxRows 4"

# --- createAndGo: one varbind list, an active row, a rising alarm -------
out=$(v3set hwR10kEvCtrAlarmName.1025 s brmpset \
    hwR10kEvCtrAlarmMetric.1025 s hw.r10kevctr.fail.brmp \
    hwR10kEvCtrAlarmSampleType.1025 i ratePerSecond \
    hwR10kEvCtrAlarmRisingThresholdLow.1025 u 5000000 \
    hwR10kEvCtrAlarmFallingThresholdLow.1025 u 1000000 \
    hwR10kEvCtrAlarmRowStatus.1025 i createAndGo)
echo "$out"
echo "$out" | grep -q "RowStatus.1025 = INTEGER: createAndGo" || fail "createAndGo: $out"
# 3M/s on CPU 0, 6M/s on CPU 1: 9M/s summed, above 5M: the startup alarm
await 'hwR10kEvCtrAlarmName.1025 = STRING: brmpset' 1
line=$(grep 'hwR10kEvCtrAlarmName.1025 = STRING: brmpset' "$TMP/trapd.log")
echo "snmptrapd: $line"
for want in hwR10kEvCtrRisingAlarm 'hwR10kEvCtrAlarmEventValue.1025 = Counter64: 9000000' \
            'hwR10kEvCtrAlarmEventThreshold.1025 = Counter64: 5000000' \
            'hwR10kEvCtrAlarmEventCpu.1025 = INTEGER: -1'; do
    echo "$line" | grep -qF "$want" || fail "the notification lacks '$want': $line"
done
[ "$(v3get hwR10kEvCtrAlarmStatus.1025)" = risen ] || fail "status of row 1025"
grep -q "^alarmRow 1025 active nonVolatile brmpset hw.r10kevctr.fail.brmp sum rate 5000000 1000000 both -$" "$STORE" ||
    fail "row 1025 not in $STORE: $(cat "$STORE")"
grep -q "alarm table: row 1025 created over SNMP (AgentX session" "$TMP/agent.log" || fail "creation not logged"
grep "alarm table: row 1025 created" "$TMP/agent.log" | sed 's/^/agent: /'
grep "^alarmRow 1025 " "$STORE" | sed "s|^|$(basename "$STORE"): |"
ok "createAndGo over SNMPv3 authPriv: active, a rising notification (9000000 >= 5000000), stored"

# --- createAndWait: notReady, then notInService, then active ------------
out=$(v3set hwR10kEvCtrAlarmRowStatus.1026 i createAndWait hwR10kEvCtrAlarmStorageType.1026 i volatile)
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1026)" = notReady ] || fail "createAndWait: $out"
v3get hwR10kEvCtrAlarmMetric.1026 | grep -q "No Such Instance" || fail "a notReady row serves a metric"
refused inconsistentValue hwR10kEvCtrAlarmRowStatus.1026 i active
out=$(v3set hwR10kEvCtrAlarmMetric.1026 s hw.r10kevctr.fail.brmp hwR10kEvCtrAlarmScope.1026 i cpu \
    hwR10kEvCtrAlarmCpu.1026 i 1 hwR10kEvCtrAlarmSampleType.1026 i ratePerSecond \
    hwR10kEvCtrAlarmRisingThresholdLow.1026 u 4000000 hwR10kEvCtrAlarmName.1026 s cpu1set)
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1026)" = notInService ] || fail "complete row not notInService: $out"
v3set hwR10kEvCtrAlarmRowStatus.1026 i active >/dev/null
await 'hwR10kEvCtrAlarmName.1026 = STRING: cpu1set' 1
grep 'hwR10kEvCtrAlarmName.1026' "$TMP/trapd.log" | grep -q 'EventCpu.1026 = INTEGER: 1.*EventValue.1026 = Counter64: 6000000' ||
    fail "row 1026's notification: $(grep 'AlarmName.1026' "$TMP/trapd.log")"
grep -q "alarmRow 1026" "$STORE" && fail "a volatile row was stored"
ok "createAndWait: notReady (no metric served), notInService once complete, active: CPU 1's alarm"

# --- notInService stops a row; active again starts it afresh ------------
v3set hwR10kEvCtrAlarmRowStatus.1025 i notInService >/dev/null
[ "$(v3get hwR10kEvCtrAlarmStatus.1025)" = waiting ] || fail "notInService row still evaluated"
v3get hwR10kEvCtrAlarmValue.1025 | grep -q "No Such Instance" || fail "a stopped row serves a value"
polls=$(v3get hwR10kEvCtrPolls.0)
two_more_polls() { [ "$(v3get hwR10kEvCtrPolls.0)" -ge $((polls + 2)) ]; }
wait_until 10 two_more_polls
[ "$(v3get hwR10kEvCtrAlarmStatus.1025)" = waiting ] || fail "notInService row sampled"
grep -q "alarmRow 1025 notInService" "$STORE" || fail "notInService not stored"
v3set hwR10kEvCtrAlarmRowStatus.1025 i active >/dev/null
await 'hwR10kEvCtrAlarmName.1025 = STRING: brmpset' 2
ok "notInService: not sampled, no value; active again: a fresh startup notification"

# --- what a bad set gets, and nothing changes ---------------------------
refused notWritable hwR10kEvCtrAlarmRowStatus.1 i destroy
refused notWritable hwR10kEvCtrAlarmStatus.1025 i 2
refused noCreation hwR10kEvCtrAlarmRowStatus.7 i createAndGo
refused inconsistentValue hwR10kEvCtrAlarmFallingThresholdLow.1025 u 7
refused inconsistentValue hwR10kEvCtrAlarmRowStatus.1025 i createAndGo
refused inconsistentValue hwR10kEvCtrAlarmMetric.1027 s stat.ipc hwR10kEvCtrAlarmSampleType.1027 i ratePerSecond \
    hwR10kEvCtrAlarmRisingThresholdLow.1027 u 9 hwR10kEvCtrAlarmRowStatus.1027 i createAndGo
refused inconsistentValue hwR10kEvCtrAlarmMetric.1027 s hw.r10kevctr.cycles \
    hwR10kEvCtrAlarmRisingThresholdLow.1027 u 9 hwR10kEvCtrAlarmFallingThresholdLow.1027 u 10 \
    hwR10kEvCtrAlarmRowStatus.1027 i createAndGo
refused inconsistentName hwR10kEvCtrAlarmName.1027 s nobody
refused wrongValue hwR10kEvCtrAlarmMetric.1027 s hw.r10kevctr.nosuch hwR10kEvCtrAlarmRowStatus.1027 i createAndWait
refused wrongValue hwR10kEvCtrAlarmStorageType.1026 i permanent
# values snmpset would refuse itself (-Ir: not checked against the MIB's
# ranges and types, numeric OIDs): the agent's own checks answer
num() { echo "$(snmptranslate $MIBOPTS -On "HW-R10KEVCTR-MIB::$1").$2"; }
RAW=-Ir
refused wrongValue "$(num hwR10kEvCtrAlarmCpu 1026)" i 70000
refused wrongValue "$(num hwR10kEvCtrAlarmRowStatus 1026)" i 3
refused wrongLength "$(num hwR10kEvCtrAlarmName 1026)" s abcdefghijabcdefghijabcdefghijabc
refused wrongType "$(num hwR10kEvCtrAlarmName 1026)" i 3
refused wrongLength "$(num hwR10kEvCtrAlarmName 1026)" s ""
refused wrongLength "$(num hwR10kEvCtrAlarmOwner 1026)" s "$(printf '%0128d' 0)"
refused wrongValue "$(num hwR10kEvCtrAlarmName 1026)" s "no spaces"
refused noCreation "$(num hwR10kEvCtrAlarmRowStatus 65536)" i 4
RAW=
# without -Ir snmpset checks the MIB's range itself and sends nothing:
# its own words, as doc/alarms.md quotes them, and no set for the agent
n=$(grep -c "a set refused" "$TMP/agent.log")
out=$(v3set hwR10kEvCtrAlarmCpu.1026 i 70000)
[ "$out" = "hwR10kEvCtrAlarmCpu.1026: Value out of range (70000 :: {(-1..65535)})" ] ||
    fail "snmpset without -Ir, Cpu 70000: $out"
grep -qF "    $out" "$HWR_SRCDIR/doc/alarms.md" || fail "doc/alarms.md does not quote snmpset's '$out'"
[ "$(grep -c "a set refused" "$TMP/agent.log")" = "$n" ] || fail "a set snmpset refused reached the agent"
v3set hwR10kEvCtrAlarmRowStatus.1027 i createAndWait hwR10kEvCtrAlarmRowStatus.1028 i createAndWait >/dev/null
refused resourceUnavailable hwR10kEvCtrAlarmRowStatus.1029 i createAndWait
grep -q "the most alarmSetMaxRows allows is 4" "$TMP/agent.log" || fail "row limit not logged"
v3set hwR10kEvCtrAlarmRowStatus.1027 i destroy hwR10kEvCtrAlarmRowStatus.1028 i destroy >/dev/null
ok "bad sets: notWritable, noCreation, inconsistentValue, inconsistentName, wrongValue, wrongLength, wrongType (with -Ir: the agent's; without, snmpset's own range check), resourceUnavailable; nothing changed"

# --- who may write is the master's business -----------------------------
before=$(table)
out=$(snmp snmpset hwR10kEvCtrAlarmRowStatus.1030 i createAndGo)
echo "$out" | grep -q "noAccess\|notWritable\|authorizationError" || fail "v2c public could set: $out"
# shellcheck disable=SC2086
out=$(snmpset $MONITOR -r 0 -t 5 $MIBOPTS "udp:127.0.0.1:$PORT" hwR10kEvCtrAlarmRowStatus.1030 i createAndGo 2>&1)
echo "$out" | grep -q "noAccess\|notWritable\|authorizationError" || fail "the read-only v3 user could set: $out"
# the admin may write the alarm table only
out=$(v3set .1.3.6.1.2.1.1.4.0 s x)
echo "$out" | grep -q "noAccess\|notWritable" || fail "the admin could write outside the alarm table: $out"
[ "$(table)" = "$before" ] || fail "a refused manager changed the table"
ok "the master refuses the v2c read-only community, the read-only v3 user, and writes outside the table"

# --- two managers on one row --------------------------------------------
for round in 1 2 3 4 5; do
    v3set hwR10kEvCtrAlarmName.1031 s first hwR10kEvCtrAlarmMetric.1031 s hw.r10kevctr.cycles \
        hwR10kEvCtrAlarmRisingThresholdLow.1031 u 7 hwR10kEvCtrAlarmRowStatus.1031 i createAndGo >"$TMP/a.out" &
    a=$!
    v3set hwR10kEvCtrAlarmName.1031 s second hwR10kEvCtrAlarmMetric.1031 s hw.r10kevctr.tlb \
        hwR10kEvCtrAlarmRisingThresholdLow.1031 u 9 hwR10kEvCtrAlarmRowStatus.1031 i createAndGo >"$TMP/b.out"
    wait "$a"
    won=$(grep -l "createAndGo(4)" "$TMP/a.out" "$TMP/b.out" | wc -l)
    [ "$won" = 1 ] || fail "round $round: $won managers created the row: $(cat "$TMP/a.out" "$TMP/b.out")"
    grep -q "inconsistentValue\|resourceUnavailable" "$TMP/a.out" "$TMP/b.out" ||
        fail "round $round: the loser got: $(cat "$TMP/a.out" "$TMP/b.out")"
    set -- $(v3get hwR10kEvCtrAlarmName.1031 hwR10kEvCtrAlarmMetric.1031 hwR10kEvCtrAlarmRisingThreshold.1031)
    case "$*" in
        "first hw.r10kevctr.cycles 7" | "second hw.r10kevctr.tlb 9") ;;
        *) fail "round $round: a half-made row: $*" ;;
    esac
    v3set hwR10kEvCtrAlarmRowStatus.1031 i destroy >/dev/null
done
ok "two managers racing on one row: one creates it whole, the other gets an error (5 rounds)"

# --- SIGHUP keeps every row; a restart keeps the nonVolatile ones ------
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1026)" = active ] || fail "row 1026 before the reload"
# a hand-edited line that cannot load: named, counted, the good row kept
echo "alarmRow 1040 active nonVolatile typo hw.r10kevctr.nosuch sum rate 10 5 both" >>"$STORE"
bad=$(wc -l <"$STORE")
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "alarm row(s) created over SNMP loaded" "$TMP/agent.log" || fail "no reload"
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1026)" = active ] ||
    fail "the volatile row did not survive a SIGHUP (a reload keeps it)"
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1025)" = active ] || fail "row 1025 lost at SIGHUP"
grep -q "$STORE: line $bad: alarm: not a counter metric or a statistic" "$TMP/agent.log" ||
    fail "the bad store line is not named: $(grep alarms.conf "$TMP/agent.log")"
grep -q "1 alarm row(s) created over SNMP loaded, 1 line(s) not loaded" "$TMP/agent.log" || fail "the load is not counted"
stop_agent
start_agent "$CONF"
wait_until 30 v3_serving || fail "the restarted subagent never answered"
set -- $(v3get hwR10kEvCtrAlarmRowStatus.1025 hwR10kEvCtrAlarmStorageType.1025 hwR10kEvCtrAlarmName.1025 \
    hwR10kEvCtrAlarmRisingThreshold.1025)
[ "$*" = "active nonVolatile brmpset 5000000" ] || fail "row 1025 after a restart: $*"
v3get hwR10kEvCtrAlarmRowStatus.1026 | grep -q 'No Such Instance' ||
    fail "the volatile row survived a restart"
await 'hwR10kEvCtrAlarmName.1025 = STRING: brmpset' 3
grep "hwR10kEvCtrAlarmName.1025 = STRING: brmpset" "$TMP/trapd.log" | tail -n 1 | sed 's/^/snmptrapd after the restart: /'
ok "SIGHUP keeps both rows; a restart brings the nonVolatile row back (and it alarms again), the volatile one is gone; a bad store line named and kept"

# --- destroy -------------------------------------------------------------
v3set hwR10kEvCtrAlarmRowStatus.1025 i destroy
grep "alarm table: row 1025" "$TMP/agent.log" | sed 's/^/agent: /'
v3get hwR10kEvCtrAlarmRowStatus.1025 | grep -q "No Such Instance" || fail "row 1025 still there"
grep -q "alarmRow 1025" "$STORE" && fail "row 1025 still stored"
grep -q "alarm table: row 1025 destroyed over SNMP" "$TMP/agent.log" || fail "destroy not logged"
grep -q "^# not loaded (line $bad: alarm: not a counter metric.*alarmRow 1040" "$STORE" ||
    fail "the bad line was not kept in the store: $(cat "$STORE")"
echo "the store after the destroy:"; cat "$STORE"
stop_agent
start_agent "$CONF"
wait_until 30 v3_serving || fail "the restarted subagent never answered"
v3get hwR10kEvCtrAlarmRowStatus.1025 | grep -q "No Such Instance" || fail "row 1025 back after a restart"
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1)" = active ] || fail "the config row"
ok "destroy: gone, from the store too, and stays gone after a restart"
