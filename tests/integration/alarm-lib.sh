# alarm-lib.sh - sourced (after lib.sh) by the tests that write the alarm
# table through a real snmpd: the master gets conf/snmpd.conf.example's
# users, views and access lines; v3set/v3get are its alarm admin's
# snmpset/snmpget (SNMPv3 authPriv), as a manager runs them.
EX=$HWR_SRCDIR/conf/snmpd.conf.example
SNMPD_EXTRA=$(grep -E '^(view|createUser|rouser|group|access) ' "$EX")
phrase() { # phrase USER N: the Nth pass phrase of USER's createUser line
    sed -n "s/^createUser $1 SHA \"\([^\"]*\)\" AES \"\([^\"]*\)\".*/\\$2/p" "$EX"
}
ADMIN="-v3 -l authPriv -u hwr10kAlarmAdmin -a SHA -A $(phrase hwr10kAlarmAdmin 1) -x AES -X $(phrase hwr10kAlarmAdmin 2)"
MONITOR="-v3 -l authPriv -u hwr10kMonitor -a SHA -A $(phrase hwr10kMonitor 1) -x AES -X $(phrase hwr10kMonitor 2)"
[ -n "$(phrase hwr10kAlarmAdmin 1)" ] || fail "no hwr10kAlarmAdmin user in $EX"
STORE=$SNMP_PERSISTENT_DIR/hw-r10kevctr-alarms.conf
# shellcheck disable=SC2086
v3set() { snmpset $ADMIN ${RAW:-} -r 0 -t 5 $MIBOPTS "udp:127.0.0.1:$PORT" "$@" 2>&1; }
# shellcheck disable=SC2086
v3get() { snmpget $ADMIN -r 1 -t 2 -OUqv $MIBOPTS "udp:127.0.0.1:$PORT" "$@" 2>&1; }
table() { snmp snmpbulkwalk -Cr30 -OUq hwR10kEvCtrAlarmTable | grep -v 'Status\.\|Value\.\|Events\.\|Dropped\.'; }
traps() { grep -c "$1" "$TMP/trapd.log"; }
reached() { [ "$(traps "$1")" -ge "$2" ]; } # reached PATTERN N
await() { # await PATTERN N
    wait_until 20 reached "$1" "$2" ||
        fail "$(traps "$1") notifications matching $1, expected $2"
}
# quoted OUTPUT: doc/alarms.md quotes snmpset's Reason line word for word
quoted() {
    line=$(echo "$1" | grep '^Reason: ')
    grep -qF "\`$line\`" "$HWR_SRCDIR/doc/alarms.md" ||
        fail "doc/alarms.md does not quote snmpset's '$line'"
}
refused() { # refused REASON SNMPSET-ARGS...: the set fails with REASON, nothing changes
    reason=$1; shift
    before=$(table)
    out=$(v3set "$@")
    echo "$out" | grep -q "Reason: $reason" || fail "set $* gave: $out (expected $reason)"
    [ "$(table)" = "$before" ] || fail "a refused set ($*) changed the table"
    quoted "$out"
}


v3_serving() { [ "$(v3get hwR10kEvCtrNumCpus.0)" = 2 ]; }
# start_alarm_setup EXTRA-LINES: snmptrapd, the master and the agent on 2
# sim CPUs (3M/s of hw.r10kevctr.fail.brmp on CPU 0, 6M/s on CPU 1) with
# alarmSet yes, one config alarm (cfgbrmp), and EXTRA-LINES; in CONF.
start_alarm_setup() {
    CONF="backend sim
pollInterval 1
simCpus 2
simRate hw.r10kevctr.fail.brmp 3000000
alarmSet yes
$1
alarm cfgbrmp hw.r10kevctr.fail.brmp sum rate 100000000 50000000"
    start_trapd
    start_master
    start_agent "$CONF"
    wait_until 30 v3_serving || fail "the subagent never answered over SNMPv3"
}
