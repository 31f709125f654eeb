#!/bin/sh
# The pcp backend against a real pmlogger archive of a private pmcd:
# pmlogger records kernel.percpu.intr (per CPU, 64-bit) and
# kernel.all.intr (system-wide) once a second; the agent serves the
# archive record by record, and at its end every row and the sums equal
# what pmdumplog shows the archive counted (last value minus first, per
# instance), and the number of records served is pmdumplog's; then the
# rows read ended(3) and no rate has an instance.
. "$(dirname "$0")/lib.sh"

[ -x "$HWR_BUILDDIR/tests/pcp/replay2archive" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
PMLOGGER=${PMLOGGER:-$(command -v pmlogger || echo /usr/lib/pcp/bin/pmlogger)}
PMDUMPLOG=${PMDUMPLOG:-$(command -v pmdumplog)}
[ -x "$PMLOGGER" ] && [ -n "$PMDUMPLOG" ] || fail "pmlogger or pmdumplog not installed (package pcp)"
start_pmcd
cat >"$TMP/pmlogger.conf" <<CONF
log mandatory on every 1 second {
    kernel.percpu.intr
    kernel.all.intr
}
CONF
mkdir -p "$TMP/pcp/tmp/pmlogger"
# its control port: a unix socket only (PMLOGGER_LOCAL), files under $TMP
(cd "$TMP" && PCP_TMP_DIR="$TMP/pcp/tmp" PCP_RUN_DIR="$TMP/pcp/run" PMLOGGER_LOCAL=1 \
    exec "$PMLOGGER" -h "localhost:$PMCD_PORT" -c "$TMP/pmlogger.conf" -T 7sec \
    -l "$TMP/pmlogger.log" "$TMP/real") || fail "pmlogger: $(cat "$TMP/pmlogger.log")"
"$PMDUMPLOG" "$TMP/real" kernel.percpu.intr kernel.all.intr >"$TMP/dump" 2>&1 ||
    fail "pmdumplog: $(cat "$TMP/dump")"
# "N intr" per CPU instance and "sum", plus "all" for kernel.all.intr:
# last value minus first, from pmdumplog's lines.
awk '
    /\(kernel.percpu.intr\):/ { m = "percpu"; next }
    /\(kernel.all.intr\): value/ { v = $NF; if (all == "") all = v; alllast = v; m = ""; next }
    m == "percpu" && /inst \[.*"cpu[0-9]+"\] value/ {
        match($0, /"cpu[0-9]+"/); cpu = substr($0, RSTART + 4, RLENGTH - 5)
        v = $NF; if (!(cpu in first)) first[cpu] = v; last[cpu] = v
        next
    }
    { m = "" }
    END {
        s = 0
        for (c in first) { print c, last[c] - first[c]; s += last[c] - first[c] }
        print "sum", s; print "all", alllast - all
    }' "$TMP/dump" >"$TMP/truth"
records=$(grep -c 'kernel.all.intr' "$TMP/dump")
[ "$(grep -c '^[0-9]' "$TMP/truth")" -ge 1 ] || fail "no CPU in the archive: $(head "$TMP/dump")"

start_master
start_agent "backend pcp
pollInterval 1
pcpArchive $TMP/real
pcpMetric hw.r10kevctr.cycles kernel.percpu.intr
pcpMetric hw.r10kevctr.tlb kernel.all.intr"
wait_until 20 agent_serving || fail "the subagent never answered"
ended() { grep -q "end reached after" "$TMP/agent.log"; }
wait_polls 40 ended || fail "the archive did not reach its end within 40 polls"
more_polls 1 # one more poll served: the ending reading is folded in (publish.c holds a reading while requests come)
served=$(sed -n 's/.*end reached after \([0-9]*\) records.*/\1/p' "$TMP/agent.log")
[ "$served" -ge 3 ] || fail "only $served records served"
sleep 1.5
while read -r what want; do
    case $what in
    sum) oid=hwR10kEvCtrCycles.0 ;;
    all) oid=hwR10kEvCtrTlb.0 ;;
    *) oid=hwR10kEvCtrCpuCycles.$what ;;
    esac
    got=$(snmpq snmpget "$oid")
    [ "$got" = "$want" ] || fail "$oid: served $got, pmdumplog counted $want"
done <"$TMP/truth"
ok "pmlogger archive ($served records, pmdumplog lists $records): rows, sum and system-wide equal pmdumplog's counts ($(tr '\n' ' ' <"$TMP/truth"))"
for o in hwR10kEvCtrCpuStatus.0 hwR10kEvCtrCpuStatus.1; do
    out=$(snmp snmpget "$o")
    echo "$out" | grep -q "No Such Instance" && continue # a one-CPU host
    echo "$out" | grep -q "ended(3)" || fail "$o after the archive's end: $out"
done
for o in hwR10kEvCtrRateCycles.0 hwR10kEvCtrRateTlb.0 hwR10kEvCtrCpuRateCycles.0; do
    out=$(snmp snmpget "$o")
    echo "$out" | grep -q "No Such Instance" || fail "$o after the archive's end: $out"
done
ok "after the archive's end: rows ended(3), no summed, system-wide or per-CPU rate"
