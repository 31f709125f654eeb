#!/bin/sh
# GET, GETNEXT, walk and bulkwalk over v2c through a real snmpd master:
# every object with its type and the sim backend's predicted values.
. "$(dirname "$0")/lib.sh"

start_master
start_agent "backend sim
pollInterval 2
simCpus 3"
wait_until 20 agent_serving || fail "the subagent never answered"
ok "subagent registered with the master"
# Rates need two polls: wait for the second one, so the walk is complete.
two_polls() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" -ge 2 ]; }
wait_until 20 two_polls || fail "no second poll"

# One PDU is one poll: sums equal the rows, values follow the sim formula
# value(cpu) = rate * ((cpu mod 8) + 1) * pollInterval * (polls - 1): the
# first poll is the sim's base, each later one an interval on schedule.
set -- $(snmpq snmpget hwR10kEvCtrPolls.0 hwR10kEvCtrCycles.0 \
    hwR10kEvCtrCpuCycles.0 hwR10kEvCtrCpuCycles.1 hwR10kEvCtrCpuCycles.2 \
    hwR10kEvCtrTlb.0 hwR10kEvCtrCpuTlb.2 hwR10kEvCtrState.0 hwR10kEvCtrCpurev.0)
polls=$1
[ "$polls" -ge 2 ] || fail "polls=$polls"
[ "$3" = $((195000000 * 1 * 2 * (polls - 1))) ] || fail "cpu 0 cycles $3 (polls $polls)"
[ "$4" = $((195000000 * 2 * 2 * (polls - 1))) ] || fail "cpu 1 cycles $4"
[ "$5" = $((195000000 * 3 * 2 * (polls - 1))) ] || fail "cpu 2 cycles $5"
[ "$2" = $(($3 + $4 + $5)) ] || fail "total $2 is not the sum of $3 $4 $5"
[ "$6" = $((60000 * 6 * 2 * (polls - 1))) ] || fail "tlb total $6"
[ "$7" = $((60000 * 3 * 2 * (polls - 1))) ] || fail "cpu 2 tlb $7"
# Counts come from the tables: the counters of metrics.def, of which one
# (vcc) a 3.4 CPU does not have; the status columns and the agent's
# readable scalars of objects.def.
C=$(grep -c '^M([0-9]*, "[a-z.]*", COUNTER' "$HWR_SRCDIR/lib/tables/metrics.def")
K=$((C - 1))
STATUS=$(grep -c '^COLUMN("[A-Za-z0-9]*", "hwR10kEvCtrCpuStatusEntry"' "$HWR_SRCDIR/lib/tables/objects.def")
AGENT=$(grep -A3 '^SCALAR("[A-Za-z0-9]*", "hwR10kEvCtrAgent"' "$HWR_SRCDIR/lib/tables/objects.def" | grep -c ACC_READ_ONLY)
[ "$8" = "$K" ] || fail "state $8 ($K counters on a 3.4 CPU)"
[ "$9" = '"3.4"' ] || [ "$9" = 3.4 ] || fail "cpurev $9"
ok "predicted sim values, sums equal the rows (polls=$polls)"

# The sim's virtual clock makes rates exact: rate * ((cpu mod 8) + 1) per second.
set -- $(snmpq snmpget hwR10kEvCtrRateCycles.0 hwR10kEvCtrCpuRateCycles.0 \
    hwR10kEvCtrCpuRateCycles.2 hwR10kEvCtrRateTlb.0)
[ "$1" = $((195000000 * 6)) ] && [ "$2" = 195000000 ] &&
    [ "$3" = $((195000000 * 3)) ] && [ "$4" = $((60000 * 6)) ] || fail "rates: $*"
ok "rates per second, summed and per CPU"

out=$(snmp snmpget hwR10kEvCtrCpuCycles.7 hwR10kEvCtrVcc.0 hwR10kEvCtrCpuVcc.0 hwR10kEvCtrState.1)
[ "$(echo "$out" | grep -c 'No Such Instance')" = 4 ] || fail "missing instances: $out"
out=$(snmp snmpget -On .1.3.6.1.4.1.8072.9999.9999.59.1.1.99.0)
echo "$out" | grep -q 'No Such Object' || fail "unknown object: $out"
ok "noSuchInstance for absent CPUs and uncounted counters, noSuchObject"

out=$(snmp snmpgetnext hwR10kEvCtrState.0 hwR10kEvCtrCpuCycles.0 hwR10kEvCtrCpuVcc)
echo "$out" | sed -n 1p | grep -q '^HW-R10KEVCTR-MIB::hwR10kEvCtrCpurev.0 = STRING' || fail "getnext 1: $out"
echo "$out" | sed -n 2p | grep -q '^HW-R10KEVCTR-MIB::hwR10kEvCtrCpuCycles.1 = Counter64' || fail "getnext 2: $out"
echo "$out" | sed -n 3p | grep -q '^HW-R10KEVCTR-MIB::hwR10kEvCtrCpuFucomp.0 = Counter64' || fail "getnext 3: $out"
ok "getnext within rows, columns, and past an uncounted column"

snmp snmpwalk hwR10kEvCtrMIB >"$TMP/walk" || fail "walk failed: $(cat "$TMP/walk")"
n=$(wc -l <"$TMP/walk")
# totals + state + cpurev + columns * 3 CPUs + status * 3 + agent + rates
# + rate columns * 3 CPUs + statistics summed and * 3 CPUs (the sim at 3.4
# counts every input of each) (no alarms configured) + the alarm table's
# next free index
STATS=$(grep -c '^S([0-9]*,' "$HWR_SRCDIR/lib/tables/stats.def")
want=$((K + 2 + K * 3 + STATUS * 3 + AGENT + K + K * 3 + STATS * 4 + 1))
[ "$n" = "$want" ] || { cat "$TMP/walk"; fail "walk has $n lines, not $want"; }
tail -n 2 "$TMP/walk" | head -n 1 | grep -q '^HW-R10KEVCTR-MIB::hwR10kEvCtrCpuStatScacheDmiss.2 = Gauge32: ' ||
    fail "the per-CPU statistics do not end the tables"
tail -n 1 "$TMP/walk" | grep -q '^HW-R10KEVCTR-MIB::hwR10kEvCtrAlarmNextIndex.0 = Gauge32: 1025$' ||
    fail "walk does not end at the module's last instance (the next free alarm index, 1025)"
grep -q 'Vcc' "$TMP/walk" && fail "uncounted vcc in the walk"
check_type() { # check_type REGEX TYPE COUNT
    c=$(grep -E "::$1 = $2: " "$TMP/walk" | wc -l)
    [ "$c" = "$3" ] || fail "$c lines of $1 with type $2, expected $3"
}
check_type 'hwR10kEvCtr(Cycles|Tlb|FailBrmp|Fucomp|ScacheUpshare)\.0' Counter64 5
# statistics: Gauge32 ratios, Counter64 (Gauge64) differences
sg=$(grep -cE '::hwR10kEvCtr(Cpu)?Stat[A-Za-z]*\.[0-2] = (Gauge32|Counter64): ' "$TMP/walk")
[ "$sg" = $((STATS * 4)) ] || fail "$sg statistics lines, not $((STATS * 4))"
cstat=$(grep -cE '::hwR10kEvCtrCpuStat[A-Za-z]*\.[0-2] = Counter64: ' "$TMP/walk")
# status columns not Counter64: status, duty cycle, discontinuity time,
# group name
check_type 'hwR10kEvCtrCpu[A-Z][A-Za-z]*\.[0-2]' Counter64 $(((K + (STATUS - 4) + K) * 3 + cstat))
check_type 'hwR10kEvCtrRate[A-Z][A-Za-z]*\.0' Counter64 "$K"
check_type 'hwR10kEvCtrState\.0' INTEGER 1
check_type 'hwR10kEvCtrCpurev\.0' STRING 1
check_type 'hwR10kEvCtrCpuStatus\.[0-2]' INTEGER 3
check_type 'hwR10kEvCtrCpuDutyCycle\.[0-2]' Gauge32 3
check_type 'hwR10kEvCtrCpuDiscontinuityTime\.[0-2]' Timeticks 3
check_type 'hwR10kEvCtr(PollInterval|NumCpus)\.0' Gauge32 2
check_type 'hwR10kEvCtr(LastPollTime|DiscontinuityTime)\.0' Timeticks 2
check_type 'hwR10kEvCtr(Polls|PollErrors)\.0' Counter32 2
check_type 'hwR10kEvCtrBackend\.0' STRING 1
grep -q 'hwR10kEvCtrCpuStatus.1 = INTEGER: counting(1)' "$TMP/walk" || fail "status"
ok "snmpwalk: $n objects with their types, ends at the end of the module"

snmp snmpbulkwalk -Cr25 hwR10kEvCtrMIB >"$TMP/bulk" || fail "bulkwalk failed"
strip() { sed 's/ = \([A-Za-z0-9]*\):.*/ \1/' "$1"; }
strip "$TMP/walk" >"$TMP/walk.names"
strip "$TMP/bulk" >"$TMP/bulk.names"
diff -u "$TMP/walk.names" "$TMP/bulk.names" || fail "bulkwalk differs from walk"
ok "snmpbulkwalk returns the same objects and types"

# The module is read-only: a SET that reaches it through the master is
# refused (the master's rwcommunity lets it through).
out=$(snmpset -v2c -c private -r 2 -t 1 $MIBOPTS "udp:127.0.0.1:$PORT" \
    hwR10kEvCtrPollInterval.0 u 7 2>&1)
echo "$out" | grep -qi "notWritable\|not writable" || fail "SET not refused: $out"
[ "$(snmpq snmpget hwR10kEvCtrPollInterval.0)" = 2 ] || fail "a refused SET changed the interval"
ok "SET refused with notWritable"

out=$(snmp snmpgetnext -On hwR10kEvCtrAlarmNextIndex.0)
case "$out" in .1.3.6.1.4.1.8072.9999.9999.59.*) fail "getnext stayed inside: $out" ;; esac
ok "getnext after the last object leaves the module"

snmpwalk -v1 -c public -r 2 -t 1 $MIBOPTS "udp:127.0.0.1:$PORT" hwR10kEvCtrMIB >"$TMP/v1" 2>&1
grep -q Counter64 "$TMP/v1" && fail "SNMPv1 walk shows Counter64"
grep -q 'hwR10kEvCtrState.0 = INTEGER' "$TMP/v1" || fail "SNMPv1 walk: $(cat "$TMP/v1")"
ok "SNMPv1 sees the module without its Counter64 objects"

snmp snmpwalk -m SNMPv2-MIB -On .1.3.6.1.2.1.1.9.1.3 | grep -q 'HW-R10KEVCTR-MIB: CPU hardware event counters' ||
    fail "no sysORTable entry"
ok "sysORTable lists the module"
