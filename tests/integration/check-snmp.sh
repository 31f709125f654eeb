#!/bin/sh
# Nagios' check_snmp (Debian's monitoring-plugins-standard) with the
# command of the shipped conf/check_snmp.cfg.example: OK below the
# thresholds, CRITICAL above, on sim rates set by a reload.
. "$(dirname "$0")/lib.sh"

PLUGINS=/usr/lib/nagios/plugins
[ -x "$PLUGINS/check_snmp" ] || { echo "SKIP: check_snmp not installed"; exit 77; }
conf() { printf 'backend sim\npollInterval 1\nsimCpus 3\nsimRate hw.r10kevctr.cycles %s\n' "$1"; }
start_master
start_agent "$(conf 100)"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 60 polls_past 2 || fail "no two polls" # two polls: the rates exist
# The example's command line, its macros filled in (arc 3 = cycles).
cmdline=$(sed -n 's/^ *command_line *//p' "$HWR_SRCDIR/conf/check_snmp.cfg.example" | head -n 1)
run_check() { # run_check WARN CRIT: prints the output, returns the exit code
    c=$(printf '%s' "$cmdline" | sed -e "s|\\\$USER1\\\$|$PLUGINS|" \
        -e "s|\\\$HOSTADDRESS\\\$|127.0.0.1 -p $PORT|" -e 's|\$ARG1\$|3|' \
        -e "s|\\\$ARG2\\\$|$1|" -e "s|\\\$ARG3\\\$|$2|" -e 's|\$ARG4\$|cycles|')
    eval "$c"
}
out=$(run_check 1000 2000); rc=$?
[ "$rc" = 0 ] || fail "600/s against 1000/2000: exit $rc ($out)"
echo "$out" | grep -q "^SNMP OK - cycles 600 events/s" || fail "OK output: $out"
conf 500 >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
rate3000() { [ "$(snmpq snmpget hwR10kEvCtrRateCycles.0)" = 3000 ]; }
wait_until 10 rate3000 || fail "the new rate did not apply"
out=$(run_check 1000 2000); rc=$?
[ "$rc" = 2 ] || fail "3000/s against 1000/2000: exit $rc ($out)"
echo "$out" | grep -q "^SNMP CRITICAL - cycles \*3000\*" || fail "CRITICAL output: $out"
out=$(run_check 2500 4000); rc=$?
[ "$rc" = 1 ] || fail "3000/s against 2500/4000: exit $rc ($out)"
ok "check_snmp (shipped command): OK at 600/s, CRITICAL at 3000/s, WARNING between"
