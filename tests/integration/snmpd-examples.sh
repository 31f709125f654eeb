#!/bin/sh
# The shipped master configurations, started for real (private port,
# socket and persistent directory; the host's files only read):
#  - conf/snmpd.conf.example: SNMPv3 authPriv walks the module, v2c
#    'public' gets nothing, snmpd logs no complaint about users or groups;
#  - Debian's stock /etc/snmp/snmpd.conf + conf/snmpd.conf.d/: 'public'
#    (view systemonly) sees the module; without the drop-in it does not.
. "$(dirname "$0")/lib.sh"

ROOT=.1.3.6.1.4.1.8072.9999.9999.59
getent passwd Debian-snmp >/dev/null || { echo "SKIP: no Debian-snmp user (Debian's snmpd)"; exit 77; }
PORT=$((20000 + ($$ * 7) % 30000))

start_with() { # start_with CONF: snmpd on $PORT with that config
    rm -f "$SOCK"
    "$SNMPD" -f -C -c "$1" -Lf "$TMP/snmpd.log" -M "$MIBPATH" -m SNMPv2-MIB \
        -p "$TMP/snmpd.pid" &
    SNMPD_PID=$!
    wait_until 10 test -S "$SOCK" || fail "snmpd would not start with $1"
    sleep 0.3
    kill -0 "$SNMPD_PID" 2>/dev/null || fail "snmpd exited (port $PORT taken?): $(cat "$TMP/snmpd.log")"
}
# A free port: nothing answers there yet.
for try in 1 2 3 4 5 6; do
    snmpget -v2c -c public -r 0 -t 0.3 "udp:127.0.0.1:$PORT" .1.3.6.1.2.1.1.3.0 >/dev/null 2>&1 || break
    PORT=$((20000 + ($$ * 7 + try * 131) % 30000))
done

# --- the production example ---------------------------------------------
sed -e "s|^agentaddress .*|agentaddress udp:127.0.0.1:$PORT|" \
    -e "s|^agentXSocket .*|agentXSocket unix:$SOCK|" \
    "$HWR_SRCDIR/conf/snmpd.conf.example" >"$TMP/prod.conf"
start_with "$TMP/prod.conf"
[ "$(stat -c '%a %U %G' "$SOCK")" = "660 Debian-snmp Debian-snmp" ] ||
    fail "AgentX socket: $(stat -c '%a %U %G' "$SOCK")"
start_agent "backend sim
pollInterval 1
simCpus 2
alarmSet yes"
V3="-v3 -l authPriv -u hwr10kMonitor -a SHA -A change-this-auth-phrase -x AES -X change-this-priv-phrase"
v3_serving() {
    # shellcheck disable=SC2086
    snmpget $V3 -r 2 -t 1 $MIBOPTS "udp:127.0.0.1:$PORT" -Oqv hwR10kEvCtrNumCpus.0 | grep -qx 2
}
wait_until 20 v3_serving || fail "SNMPv3 authPriv does not reach the module"
# shellcheck disable=SC2086
n=$(snmpbulkwalk $V3 -r 2 -t 1 $MIBOPTS "udp:127.0.0.1:$PORT" hwR10kEvCtrMIB | grep -c "^HW-R10KEVCTR-MIB::")
[ "$n" -gt 100 ] || fail "v3 walk: $n objects"
# shellcheck disable=SC2086
out=$(snmpget $V3 -r 1 -t 1 $MIBOPTS -On "udp:127.0.0.1:$PORT" .1.3.6.1.2.1.1.1.0 2>&1)
echo "$out" | grep -q "No Such Object" || fail "the v3 view is wider than the module: $out"
out=$(snmp snmpget -Oqv hwR10kEvCtrNumCpus.0)
case "$out" in 2) fail "v2c 'public' reads the module without a community line" ;; esac
# the alarm managers' user writes the alarm table (and only it); the
# monitor cannot
ADMIN="-v3 -l authPriv -u hwr10kAlarmAdmin -a SHA -A change-this-admin-auth -x AES -X change-this-admin-priv"
# shellcheck disable=SC2086
out=$(snmpset $ADMIN -r 1 -t 2 $MIBOPTS "udp:127.0.0.1:$PORT" hwR10kEvCtrAlarmRowStatus.1025 i createAndWait 2>&1)
echo "$out" | grep -q "createAndWait(5)" || fail "the example's alarm admin cannot create a row: $out"
# shellcheck disable=SC2086
out=$(snmpset $V3 -r 1 -t 2 $MIBOPTS "udp:127.0.0.1:$PORT" hwR10kEvCtrAlarmRowStatus.1025 i destroy 2>&1)
echo "$out" | grep -q "noAccess\|notWritable" || fail "the example's monitor could write: $out"
grep -qi "can't identify\|unknown\|error" "$TMP/snmpd.log" && { cat "$TMP/snmpd.log"; fail "snmpd complained"; }
ok "snmpd.conf.example: v3 authPriv walks $n objects, only the module; the alarm admin alone writes the alarm table; no v2c; socket 0660 Debian-snmp"
stop_agent
stop_pid "$SNMPD_PID"; SNMPD_PID=

# --- Debian's stock snmpd.conf with the drop-in ---------------------------
STOCK=/etc/snmp/snmpd.conf
grep -q '^includeDir' "$STOCK" || fail "$STOCK has no includeDir: not Debian's stock file"
mkdir -p "$TMP/snmpd.conf.d"
sed -e "s|^agentaddress .*|agentaddress udp:127.0.0.1:$PORT|" \
    -e "s|^includeDir .*|includeDir $TMP/snmpd.conf.d|" "$STOCK" >"$TMP/stock.conf"
printf 'agentXSocket unix:%s\n' "$SOCK" >"$TMP/snmpd.conf.d/00-test-socket.conf"
start_with "$TMP/stock.conf"
start_agent "backend sim
pollInterval 1
simCpus 2"
sleep 3
out=$(snmp snmpget -Oqv hwR10kEvCtrNumCpus.0)
case "$out" in 2) fail "without the drop-in the stock view shows the module" ;; esac
stop_agent
stop_pid "$SNMPD_PID"; SNMPD_PID=
cp "$HWR_SRCDIR/conf/snmpd.conf.d/hw-r10kevctr.conf" "$TMP/snmpd.conf.d/"
start_with "$TMP/stock.conf"
start_agent "backend sim
pollInterval 1
simCpus 2
alarmSet yes"
wait_until 20 agent_serving || fail "with the drop-in, 'public' does not see the module"
n=$(snmp snmpbulkwalk hwR10kEvCtrMIB | grep -c "^HW-R10KEVCTR-MIB::")
[ "$n" -gt 100 ] || fail "stock + drop-in walk: $n objects"
# the drop-in gives nobody write access, even to an agent with alarmSet yes
out=$(snmp snmpset hwR10kEvCtrAlarmRowStatus.1025 i createAndWait)
echo "$out" | grep -q "noAccess\|notWritable\|authorizationError" || fail "stock + drop-in: a set went through: $out"
snmp snmpget hwR10kEvCtrAlarmRowStatus.1025 | grep -q "No Such" || fail "stock + drop-in: a row was created"
ok "Debian's stock snmpd.conf: the module is hidden; with the drop-in 'public' walks $n objects and cannot write"
