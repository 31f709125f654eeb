#!/bin/sh
# The alarm table around a change, through a real snmpd with the
# example's SNMPv3 alarm admin, snmptrapd, SIGHUP and a restart:
# - a row the agent accepts it loads back (a statistic as a rate is
#   refused whatever the status);
# - the CPU column and the scope agree, and a SIGHUP is no change (no
#   second notification, Events kept); Events never go backwards;
# - a config alarm that takes a stored row's name wins, logged, and no
#   row is locked;
# - a store that cannot be written fails the set with the path and the
#   error in the log, changes nothing, and locks nothing;
# - a notReady row ages out; the owner column is kept; the next free
#   index is served, past the indexes whose default name a row has;
# - a set answered while a reload opens a slow backend is not lost.
# Each refused set's snmpset output is printed: doc/alarms.md quotes it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/alarm-lib.sh"

start_alarm_setup "alarmSetNotReadyTimeout 3"
reload() { # SIGHUP, and wait until the reload is done
    n=$(grep -c "reload: " "$TMP/agent.log")
    kill -HUP "$AGENT_PID"
    reloaded() { [ "$(grep -c "reload: " "$TMP/agent.log")" -gt "$n" ]; }
    wait_until 20 reloaded || fail "no reload"
}
shown() { # shown WHAT OUTPUT: snmpset's words, for doc/alarms.md
    echo "--- $1:"; echo "$2" | sed 's/^/    /'
}

# --- one rule: a statistic as a rate is refused, even createAndWait -----
out=$(v3set hwR10kEvCtrAlarmRowStatus.1030 i createAndWait \
    hwR10kEvCtrAlarmMetric.1030 s stat.ipc \
    hwR10kEvCtrAlarmSampleType.1030 i ratePerSecond \
    hwR10kEvCtrAlarmRisingThresholdLow.1030 u 5)
shown "a statistic as a rate" "$out"
echo "$out" | grep -q "Reason: inconsistentValue" &&
    echo "$out" | grep -q "Failed object: HW-R10KEVCTR-MIB::hwR10kEvCtrAlarmSampleType.1030" ||
    fail "stat.ipc as a rate: $out"
out=$(v3set hwR10kEvCtrAlarmRowStatus.1030 i createAndWait \
    hwR10kEvCtrAlarmMetric.1030 s stat.ipc \
    hwR10kEvCtrAlarmRisingThresholdLow.1030 u 5)
echo "$out" | grep -q "createAndWait" || fail "stat.ipc absolute: $out"
grep -q "^alarmRow 1030 notInService " "$STORE" || fail "row 1030 not stored"
reload
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1030)" = notInService ] || fail "row 1030 lost at SIGHUP"
ok "one rule: a statistic as a rate refused (inconsistentValue at its SampleType); what is accepted loads back"

# --- the CPU column and the scope ------------------------------------------
out=$(v3set hwR10kEvCtrAlarmName.1031 s cpu0 hwR10kEvCtrAlarmMetric.1031 s hw.r10kevctr.fail.brmp \
    hwR10kEvCtrAlarmSampleType.1031 i ratePerSecond hwR10kEvCtrAlarmScope.1031 i cpu \
    hwR10kEvCtrAlarmCpu.1031 i 0 hwR10kEvCtrAlarmRisingThresholdLow.1031 u 1000000 \
    hwR10kEvCtrAlarmRowStatus.1031 i createAndGo)
echo "$out" | grep -q "createAndGo" || fail "row 1031: $out"
await 'hwR10kEvCtrAlarmName.1031 = STRING: cpu0' 1
grep -q "^alarmRow 1031 active nonVolatile cpu0 hw.r10kevctr.fail.brmp 0 rate " "$STORE" ||
    fail "row 1031 stored without its CPU: $(grep 1031 "$STORE")"
out=$(v3set hwR10kEvCtrAlarmName.1032 s sumrow hwR10kEvCtrAlarmMetric.1032 s hw.r10kevctr.cycles \
    hwR10kEvCtrAlarmRisingThresholdLow.1032 u 5 hwR10kEvCtrAlarmCpu.1032 i 1 \
    hwR10kEvCtrAlarmRowStatus.1032 i createAndGo)
shown "a CPU on a sum row" "$out"
echo "$out" | grep -q "Reason: inconsistentValue" &&
    echo "$out" | grep -q "Failed object: HW-R10KEVCTR-MIB::hwR10kEvCtrAlarmCpu.1032" ||
    fail "a CPU on a sum row: $out"
events=$(v3get hwR10kEvCtrAlarmEvents.1031)
reload
more_polls 2
[ "$(v3get hwR10kEvCtrAlarmEvents.1031)" = "$events" ] ||
    fail "Events.1031 $events -> $(v3get hwR10kEvCtrAlarmEvents.1031) across a SIGHUP"
[ "$(traps 'hwR10kEvCtrAlarmName.1031 = STRING: cpu0')" = 1 ] ||
    fail "a SIGHUP raised the alarm of row 1031 again"
ok "CPU and scope agree (a CPU on a sum row: inconsistentValue at the Cpu); a SIGHUP changes nothing: Events $events, one notification"

# --- counters never go backwards -------------------------------------------
v3set hwR10kEvCtrAlarmRowStatus.1031 i notInService >/dev/null
v3set hwR10kEvCtrAlarmRowStatus.1031 i active >/dev/null
after=$(v3get hwR10kEvCtrAlarmEvents.1031)
[ "$after" -ge "$events" ] || fail "Events.1031 went back from $events to $after at notInService -> active"
ok "Events kept at notInService -> active ($events -> $after)"

# --- a config alarm takes a stored row's name: the config wins ------------
out=$(v3set hwR10kEvCtrAlarmName.1033 s clash hwR10kEvCtrAlarmMetric.1033 s hw.r10kevctr.cycles \
    hwR10kEvCtrAlarmRisingThresholdLow.1033 u 5 hwR10kEvCtrAlarmRowStatus.1033 i createAndGo)
echo "$out" | grep -q createAndGo || fail "row 1033: $out"
CONF="$CONF
alarm clash hw.r10kevctr.cycles sum rate 10 5"
printf '%s\n' "$CONF" >"$TMP/agent.conf"
reload
grep -q "$STORE: line [0-9]*: name 'clash' is the config file's alarm 2, which wins" "$TMP/agent.log" ||
    fail "the name clash is not logged: $(grep clash "$TMP/agent.log")"
v3get hwR10kEvCtrAlarmName.1033 | grep -q "No Such Instance" || fail "row 1033 still served"
[ "$(v3get hwR10kEvCtrAlarmName.2)" = clash ] || fail "the config's row 2 is not 'clash'"
out=$(v3set hwR10kEvCtrAlarmRowStatus.1031 i notInService hwR10kEvCtrAlarmName.1031 s renamed)
echo "$out" | grep -q renamed || fail "a set on row 1031 after the clash: $out"
# the next write of the store keeps the line, as a comment
grep -q "^# not loaded (line [0-9]*: name 'clash' .*alarmRow 1033 " "$STORE" || fail "row 1033 not kept in the file"
v3set hwR10kEvCtrAlarmRowStatus.1031 i active >/dev/null
ok "a config alarm with a stored row's name wins: logged, the row kept in the file as a comment, nothing locked"

# --- a store that cannot be written -----------------------------------------
mkdir "$STORE.tmp" # (root writes anywhere: a directory where the file goes)
go1035() {
    v3set hwR10kEvCtrAlarmName.1035 s saved hwR10kEvCtrAlarmMetric.1035 s hw.r10kevctr.cycles \
        hwR10kEvCtrAlarmRisingThresholdLow.1035 u 5 hwR10kEvCtrAlarmRowStatus.1035 i createAndGo
}
out=$(go1035)
shown "the store cannot be written" "$out"
# the agent answers commitFailed; snmpd 5.9 tells the manager genError,
# naming the request's first varbind
echo "$out" | grep -q "Reason: (genError) A general failure occured" || fail "a failed save: $out"
quoted "$out"
grep -q "alarm table: the set of AgentX session [0-9]*, transaction [0-9]* failed, nothing changed: cannot write $STORE.tmp: " \
    "$TMP/agent.log" || fail "the failed save does not name the file: $(grep 'nothing changed' "$TMP/agent.log")"
v3get hwR10kEvCtrAlarmRowStatus.1035 | grep -q "No Such Instance" || fail "row 1035 made anyway"
rmdir "$STORE.tmp"
out=$(go1035)
echo "$out" | grep -q createAndGo || fail "the same set once the store can be written: $out"
grep -q "^alarmRow 1035 active" "$STORE" || fail "row 1035 not stored"
ok "a store that cannot be written: genError through snmpd (commitFailed from the agent), the path and the error logged, nothing changed, the row not locked"

# --- the table as snmptable shows it (doc/alarms.md's command) ----------------
# shellcheck disable=SC2086
snmptable $ADMIN -Cb -Ci -Cw 120 $MIBOPTS "udp:127.0.0.1:$PORT" hwR10kEvCtrAlarmTable >"$TMP/table" 2>&1 ||
    fail "snmptable: $(cat "$TMP/table")"
grep -q "RowStatus" "$TMP/table" && grep -q "saved" "$TMP/table" && ! grep -q "hwR10kEvCtrAlarmRowStatus" "$TMP/table" ||
    fail "snmptable -Cb: $(cat "$TMP/table")"
ok "snmptable -Cb -Ci -Cw 120: brief headings, the rows ($(wc -l <"$TMP/table") lines)"

# --- notReady ages out; owner; next free index --------------------------------
v3set hwR10kEvCtrAlarmRowStatus.1036 i createAndWait >/dev/null
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1036)" = notReady ] || fail "row 1036 is not notReady"
wait_until 20 grep -q "alarm table: row 1036 (alarm1036) removed: notReady for [0-9]* s" "$TMP/agent.log" ||
    fail "the notReady row did not age out"
v3get hwR10kEvCtrAlarmRowStatus.1036 | grep -q "No Such Instance" || fail "row 1036 still served"
out=$(v3set hwR10kEvCtrAlarmOwner.1031 s "noc 127.0.0.1")
echo "$out" | grep -q "noc 127.0.0.1" || fail "owner: $out"
[ "$(v3get hwR10kEvCtrAlarmOwner.1)" = monitor ] || fail "the config row's owner"
[ "$(v3get hwR10kEvCtrAlarmNextIndex.0)" = 1025 ] || fail "next index $(v3get hwR10kEvCtrAlarmNextIndex.0)"
ok "a notReady row removed after alarmSetNotReadyTimeout; the owner written; the next free index served"

# --- the next free index skips the indexes whose default name is taken ---------
CONF="$CONF
alarm alarm1025 hw.r10kevctr.cycles sum absolute 4000000000000000 1 rising
alarm alarm1026 hw.r10kevctr.tlb sum absolute 4000000000000000 1 rising"
printf '%s\n' "$CONF" >"$TMP/agent.conf"
reload
[ "$(v3get hwR10kEvCtrAlarmName.3) $(v3get hwR10kEvCtrAlarmName.4)" = "alarm1025 alarm1026" ] ||
    fail "config rows 3 and 4: $(v3get hwR10kEvCtrAlarmName.3 hwR10kEvCtrAlarmName.4)"
i=$(v3get hwR10kEvCtrAlarmNextIndex.0)
[ "$i" = 1027 ] || fail "next index $i with alarm1025 and alarm1026 in the config file (expected 1027)"
# a row made without a name at an index whose default name is taken
out=$(v3set hwR10kEvCtrAlarmMetric.1025 s hw.r10kevctr.cycles \
    hwR10kEvCtrAlarmRisingThresholdLow.1025 u 5 hwR10kEvCtrAlarmRowStatus.1025 i createAndGo)
shown "a default name taken" "$out"
echo "$out" | grep -q "Reason: inconsistentValue" &&
    echo "$out" | grep -q "Failed object: HW-R10KEVCTR-MIB::hwR10kEvCtrAlarmRowStatus.1025" ||
    fail "a default name taken: $out"
quoted "$out"
grep -qF "alarm table: row 1025 not created: the name 'alarm1025' (its default name: the request sets no hwR10kEvCtrAlarmName.1025) is taken by row 3 (the config file's); inconsistentValue at varbind 3" \
    "$TMP/agent.log" || fail "the taken name is not logged: $(grep 'not created' "$TMP/agent.log")"
# doc/alarms.md's recipe at the index served; the name makes 1028's taken
out=$(v3set hwR10kEvCtrAlarmOwner.$i s "noc 192.0.2.1" hwR10kEvCtrAlarmName.$i s alarm1028 \
    hwR10kEvCtrAlarmMetric.$i s hw.r10kevctr.cycles \
    hwR10kEvCtrAlarmRisingThresholdLow.$i u 4000000000 hwR10kEvCtrAlarmRowStatus.$i i createAndGo)
echo "$out" | grep -q "RowStatus.1027 = INTEGER: createAndGo" || fail "createAndGo at the next index $i: $out"
i=$(v3get hwR10kEvCtrAlarmNextIndex.0)
[ "$i" = 1029 ] || fail "next index $i with a row at 1027 named alarm1028 (expected 1029)"
out=$(v3set hwR10kEvCtrAlarmName.1029 s alarm1028 hwR10kEvCtrAlarmRowStatus.1029 i createAndWait)
echo "$out" | grep -q "Failed object: HW-R10KEVCTR-MIB::hwR10kEvCtrAlarmName.1029" || fail "a name taken: $out"
grep -qF "alarm table: row 1029 not created: the name 'alarm1028' (hwR10kEvCtrAlarmName.1029, varbind 1) is taken by row 1027 (created over SNMP)" \
    "$TMP/agent.log" || fail "the taken name is not logged: $(grep 'not created' "$TMP/agent.log")"
ok "next index 1027 past the config's alarm1025 and alarm1026, 1029 past a row named alarm1028; a default name taken: inconsistentValue at the RowStatus, the name and its row logged"

# --- a set answered while a reload opens a slow backend is kept ----------------
BIGLINES=3000000; [ -n "$HWR_VALGRIND" ] && BIGLINES=300000
awk -v n="$BIGLINES" 'BEGIN { for (t = 1; t <= n; t++) printf "%d 0 hw.r10kevctr.tlb %d\n", t, t }' \
    >"$TMP/big.replay"
printf '%s\n' "$CONF" | sed "s|^backend sim|backend replay\nreplayFile $TMP/big.replay|" >"$TMP/agent.conf"
go1037() {
    v3set hwR10kEvCtrAlarmName.1037 s during hwR10kEvCtrAlarmMetric.1037 s hw.r10kevctr.tlb \
        hwR10kEvCtrAlarmRisingThresholdLow.1037 u 5 hwR10kEvCtrAlarmRowStatus.1037 i createAndGo
}
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "SIGHUP: reloading" "$TMP/agent.log" || fail "no SIGHUP logged"
out=$(go1037)
echo "$out" | grep -q createAndGo || fail "the set during the reload: $out"
wait_until 60 grep -q "reload: reopened backend replay" "$TMP/agent.log" || fail "the reload never finished"
created=$(grep -n "row 1037 created" "$TMP/agent.log" | cut -d: -f1)
reopened=$(grep -n "reload: reopened backend replay" "$TMP/agent.log" | cut -d: -f1)
[ "$created" -lt "$reopened" ] || fail "the set came after the reload ($created, $reopened): the load was too quick to test"
[ "$(v3get hwR10kEvCtrAlarmRowStatus.1037)" = active ] || fail "the set answered during the reload is lost"
ok "a set answered while a reload opened a slow backend is in the table after it"

# --- a restart: what the store kept ---------------------------------------------
stop_agent
printf '%s\n' "$CONF" >"$TMP/agent.conf"
start_agent "$(cat "$TMP/agent.conf")"
wait_until 30 v3_serving || fail "the restarted subagent never answered"
set -- $(v3get hwR10kEvCtrAlarmRowStatus.1030 hwR10kEvCtrAlarmRowStatus.1031 hwR10kEvCtrAlarmOwner.1031 \
    hwR10kEvCtrAlarmCpu.1031 hwR10kEvCtrAlarmRowStatus.1035 hwR10kEvCtrAlarmRowStatus.1037)
[ "$*" = "notInService active noc 127.0.0.1 0 active active" ] || fail "after a restart: $*"
ok "after a restart: every stored row as it was, owner and CPU included"
