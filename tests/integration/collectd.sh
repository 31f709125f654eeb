#!/bin/sh
# collectd (Debian's collectd-core, snmp and csv plugins) reads the agent
# with the shipped conf/collectd.conf.example: one value per CPU of the
# table, instance = the CPU number, and the sum, as the sim's rates say.
. "$(dirname "$0")/lib.sh"

COLLECTD=$(command -v collectd || echo /usr/sbin/collectd)
[ -x "$COLLECTD" ] || { echo "SKIP: collectd not installed"; exit 77; }
start_master
start_agent "backend sim
pollInterval 1
simCpus 3
simRate hw.r10kevctr.cycles 1000000"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 60 polls_past 2 || fail "no two polls" # two polls: the rates exist
mkdir -p "$TMP/collectd"
{
    # A host name of its own: no lookup of the machine's (a machine whose
    # /etc/hosts lacks its name would stall collectd's FQDN lookup).
    printf 'Hostname "hwr-test"\nFQDNLookup false\n'
    printf 'BaseDir "%s"\nPIDFile "%s"\nTypesDB "/usr/share/collectd/types.db"\n' \
        "$TMP/collectd" "$TMP/collectd/collectd.pid"
    printf 'Interval 1\nLoadPlugin csv\n<Plugin csv>\n  DataDir "%s"\n  StoreRates false\n</Plugin>\n' \
        "$TMP/csv"
    sed -e "s|Address \"127.0.0.1\"|Address \"127.0.0.1:$PORT\"|" -e 's|Interval 60|Interval 1|' \
        "$HWR_SRCDIR/conf/collectd.conf.example"
} >"$TMP/collectd.conf"
"$COLLECTD" -f -C "$TMP/collectd.conf" >"$TMP/collectd.log" 2>&1 &
CD_PID=$!
got_all() {
    for i in cpu0 cpu1 cpu2 all; do
        [ "$(cat "$TMP"/csv/*/snmp/gauge-cycles_$i-* 2>/dev/null | grep -c '^[0-9]')" -ge 3 ] || return 1
    done
}
wait_until 20 got_all || { stop_pid "$CD_PID"; cat "$TMP/collectd.log"; fail "collectd wrote too few values"; }
stop_pid "$CD_PID"
grep -qi "error" "$TMP/collectd.log" && { cat "$TMP/collectd.log"; fail "collectd logged an error"; }
check() { # check INSTANCE RATE: every value collectd wrote
    bad=$(grep '^[0-9]' "$TMP"/csv/*/snmp/gauge-cycles_$1-* | awk -F, -v r="$2" '$2 + 0 != r' | head -n 1)
    [ -z "$bad" ] || fail "collectd cycles_$1: $bad, not $2"
}
check cpu0 1000000; check cpu1 2000000; check cpu2 3000000; check all 6000000
ok "collectd (shipped example): per-CPU instances 0..2 and the sum, as configured"
