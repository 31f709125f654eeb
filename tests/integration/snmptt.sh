#!/bin/sh
# snmptt (Debian's) translates the agent's real notifications with the
# shipped conf/snmptt/hw-r10kevctr.snmptt.conf: snmptrapd hands each to
# snmptt (standalone mode, private ini and log), whose log lines carry
# the MIB's first DESCRIPTION line, whole, and the values.  The shipped
# file is what tools/snmptt-convert.sh makes of the MIB now.
. "$(dirname "$0")/lib.sh"

SNMPTT=${SNMPTT:-$(command -v snmptt || true)}
[ -n "$SNMPTT" ] && command -v snmpttconvertmib >/dev/null ||
    { echo "SKIP: snmptt not installed"; exit 77; }
perl -MNet::IP -e1 2>/dev/null || { echo "SKIP: libnet-ip-perl not installed (snmptt needs it)"; exit 77; }

SHIPPED=$HWR_SRCDIR/conf/snmptt/hw-r10kevctr.snmptt.conf
MIBDIRS="$TMP/mibs:$MIBPATH" sh "$HWR_SRCDIR/tools/snmptt-convert.sh" "$TMP/converted.conf" ||
    fail "tools/snmptt-convert.sh failed"
grep -v ' converted on ' "$SHIPPED" >"$TMP/a"
grep -v ' converted on ' "$TMP/converted.conf" >"$TMP/b"
diff -u "$TMP/a" "$TMP/b" || fail "$SHIPPED differs from the MIB's conversion (run tools/snmptt-convert.sh)"
ok "the shipped snmptt.conf is the MIB's conversion"

cat >"$TMP/snmptt.ini" <<INI
[General]
mode = standalone
multiple_event = 1
dns_enable = 0
net_snmp_perl_enable = 0
translate_integers = 1
description_mode = 0
[Logging]
stdout_enable = 0
log_enable = 1
log_file = $TMP/snmptt.log
log_system_enable = 1
log_system_file = $TMP/snmpttsystem.log
unknown_trap_log_enable = 1
unknown_trap_log_file = $TMP/snmpttunknown.log
syslog_enable = 0
syslog_system_enable = 0
[Debugging]
DEBUGGING = 0
[TrapFiles]
snmptt_conf_files = <<END
$SHIPPED
END
INI
# snmptt without Net-SNMP's perl module matches numeric OIDs: snmptrapd
# hands them over as numbers (-On), as snmptt's documentation says.
printf '#!/bin/sh\nexec "%s" --ini="%s/snmptt.ini" 2>>"%s/snmptt.stderr"\n' "$SNMPTT" "$TMP" "$TMP" >"$TMP/snmptt.sh"
chmod +x "$TMP/snmptt.sh"
cat >"$TMP/snmptrapd.conf" <<CONF
authCommunity log,execute public
traphandle default $TMP/snmptt.sh
CONF
TRAPD_OPTS=-On start_trapd
start_master
conf() { # conf RATE: fail.brmp per second on CPU 0 (CPU 1 twice)
    printf 'backend sim\npollInterval 1\nsimCpus 2\nsimRate hw.r10kevctr.fail.brmp %s\nalarm brmp hw.r10kevctr.fail.brmp sum rate 5000000 2000000 rising\n' "$1" >"$TMP/agent.conf"
}
start_agent "$(conf 1000000; cat "$TMP/agent.conf")"
wait_until 20 agent_serving || fail "the subagent never answered"
sleep 2.5
logged() { grep -c "$1" "$TMP/snmptt.log" 2>/dev/null || true; }
# 9M/s summed: a reload (a discontinuity), then the alarm rises; down to
# 1.5M/s: another discontinuity, and it falls.
conf 3000000; kill -HUP "$AGENT_PID"
wait_until 20 sh -c "grep -q 'alarm rose' '$TMP/snmptt.log'" || fail "snmptt logged no rising alarm"
conf 500000; kill -HUP "$AGENT_PID"
wait_until 20 sh -c "grep -q 'alarm fell' '$TMP/snmptt.log'" || fail "snmptt logged no falling alarm"
sleep 1
grep -q '59\.0\.2 Warning .*Event counter alarm rose; name metric type CPU value threshold: brmp hw.r10kevctr.fail.brmp ratePerSecond -1 9000000 5000000' "$TMP/snmptt.log" ||
    fail "the rising alarm's line (a Warning)"
grep -q 'Event counter alarm fell; name metric type CPU value threshold: brmp hw.r10kevctr.fail.brmp ratePerSecond -1 1500000 2000000' "$TMP/snmptt.log" ||
    fail "the falling alarm's line"
# (and the agent's start under the running master: agent-restart.sh)
[ "$(logged 'Event counters restarted; time CPUs backend reason: .* 2 sim ')" = 3 ] &&
    [ "$(logged 'Event counters restarted; time CPUs backend reason: .* 2 sim the agent started')" = 1 ] ||
    fail "not the start's and two reloads' discontinuity lines"
! grep -q '8072\.9999\.9999\.59\.' "$TMP/snmpttunknown.log" 2>/dev/null ||
    fail "snmptt did not know a notification of ours: $(cat "$TMP/snmpttunknown.log")"
ok "snmptt: $(wc -l <"$TMP/snmptt.log") notifications translated, each a whole line with its values"

# doc/nms.md: an snmptrapd that loads no MIB (Debian's stock snmp.conf
# says "mibs :"; -C here, so --mibs=: says it) hands snmptt the alarm's
# sample type as its number, 2.
stop_pid "$TRAPD_PID"; TRAPD_PID=
: >"$TMP/trapd.log"
"$SNMPTRAPD" --mibs=: -On -f -C -c "$TMP/snmptrapd.conf" -Lf "$TMP/trapd.log" "udp:127.0.0.1:$TPORT" &
TRAPD_PID=$!
wait_until 5 grep -q 'NET-SNMP version' "$TMP/trapd.log" || fail "snmptrapd without MIBs would not start"
! grep -q "Cannot find module" "$TMP/trapd.log" || fail "snmptrapd without MIBs loaded some: $(head -3 "$TMP/trapd.log")"
conf 3000000; kill -HUP "$AGENT_PID"
wait_until 20 sh -c "[ \$(grep -c 'alarm rose' '$TMP/snmptt.log') = 2 ]" || fail "snmptt logged no second rising alarm"
grep 'alarm rose' "$TMP/snmptt.log" | tail -n 1 | grep -q 'name metric type CPU value threshold: brmp hw.r10kevctr.fail.brmp 2 -1 9000000 5000000$' ||
    fail "without MIBs the rising alarm's line is not doc/nms.md's: $(grep 'alarm rose' "$TMP/snmptt.log" | tail -n 1)"
grep -qF 'brmp hw.r10kevctr.fail.brmp 2 -1 9000000 5000000`' "$HWR_SRCDIR/doc/nms.md" ||
    fail "doc/nms.md does not give the line an snmptrapd without MIBs logs"
ok "snmptrapd without MIBs: snmptt logs the sample type as 2, as doc/nms.md says"
