#!/bin/sh
# The pcp backend on a live, private pmcd (linux PMDA, loopback port):
# three counters mapped with pcpMetric onto per-CPU and system-wide kernel
# counters walk as pminfo reports them (each value within what the
# kernel counted between a pminfo before the agent started and one after
# the walk; sums equal the rows; the system-wide one has no per-CPU
# instances).  A pmcd killed and started again stops the CPUs, is
# reconnected with back-off, and counting restarts (logged).  pmcd not
# running and a metric without counter semantics are refused at start.
. "$(dirname "$0")/lib.sh"

[ -x "$HWR_BUILDDIR/tests/pcp/replay2archive" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
start_pmcd
pm() { "$PMINFO" -h "localhost:$PMCD_PORT" -f "$1"; }
# cpuN value lines of pminfo -f METRIC, as "N VALUE"
per_cpu() { pm "$1" | sed -n 's/^ *inst \[[0-9]* or "cpu\([0-9]*\)"\] value \([0-9]*\)$/\1 \2/p'; }
system_wide() { pm "$1" | sed -n 's/^ *value \([0-9]*\)$/\1/p'; }

per_cpu kernel.percpu.intr >"$TMP/intr.before"
all0=$(system_wide kernel.all.intr)
ncpu=$(wc -l <"$TMP/intr.before")
[ "$ncpu" -ge 1 ] || fail "pminfo shows no cpuN instances of kernel.percpu.intr"

start_master
CONF="backend pcp
pollInterval 1
pcpHost localhost:$PMCD_PORT
pcpMetric hw.r10kevctr.cycles kernel.percpu.intr
pcpMetric hw.r10kevctr.grad.instrg kernel.percpu.cpu.user
pcpMetric hw.r10kevctr.tlb kernel.all.intr"
start_agent "$CONF"
wait_until 20 agent_serving || fail "the subagent never answered"
sleep 2.5
[ "$(snmpq snmpget hwR10kEvCtrState.0)" = 3 ] || fail "state is not 3 (counters mapped)"
[ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = "$ncpu" ] || fail "not $ncpu CPUs"
oids="hwR10kEvCtrCycles.0 hwR10kEvCtrTlb.0"
while read -r cpu _; do oids="$oids hwR10kEvCtrCpuCycles.$cpu"; done <"$TMP/intr.before"
# shellcheck disable=SC2086
set -- $(snmpq snmpget $oids)
total=$1 tlb=$2; shift 2
per_cpu kernel.percpu.intr >"$TMP/intr.after"
all1=$(system_wide kernel.all.intr)
sum=0
while read -r cpu before; do
    after=$(awk -v c="$cpu" '$1 == c { print $2 }' "$TMP/intr.after")
    v=$1; shift
    [ "$v" -gt 0 ] && [ "$v" -le $((after - before)) ] ||
        fail "CPU $cpu: $v interrupts, pminfo counted $((after - before))"
    sum=$((sum + v))
done <"$TMP/intr.before"
[ "$sum" = "$total" ] || fail "hwR10kEvCtrCycles.0 $total is not the sum of the rows $sum"
[ "$tlb" -gt 0 ] && [ "$tlb" -le $((all1 - all0)) ] ||
    fail "system-wide: $tlb, pminfo counted $((all1 - all0))"
out=$(snmp snmpget hwR10kEvCtrCpuTlb.0)
echo "$out" | grep -q "No Such Instance" || fail "a system-wide metric has per-CPU instances: $out"
ok "per-CPU and system-wide counts within pminfo's ($ncpu CPUs, sum $total, system-wide $tlb)"

# pmcd dies: the CPUs stop; pmcd is back: reconnected, counting restarts.
kill -KILL "$PMCD_PID"; wait "$PMCD_PID" 2>/dev/null; PMCD_PID=
lost() { grep -q "pcp: pmcd at localhost:$PMCD_PORT: fetch failed" "$TMP/agent.log"; }
wait_until 10 lost || fail "a dead pmcd was not noticed"
stopped() { [ "$(snmpq snmpget hwR10kEvCtrCpuStatus.0)" = stopped ]; }
wait_until 10 stopped || fail "CPU 0 did not stop without pmcd"
ok "pmcd killed: logged once, the CPUs stopped"
start_pmcd
back() { grep -q "pcp: pmcd at localhost:$PMCD_PORT: connected again" "$TMP/agent.log"; }
wait_until 30 back || fail "the agent did not reconnect to pmcd"
counting() { [ "$(snmpq snmpget hwR10kEvCtrCpuStatus.0)" = counting ]; }
wait_until 10 counting || fail "CPU 0 did not count again"
[ "$(grep -c "fetch failed" "$TMP/agent.log")" = 1 ] || fail "the loss was logged more than once"
ok "pmcd back: reconnected with back-off, counting again"

stop_pid "$AGENT_PID"; AGENT_PID=
# Refusals at start: pmcd not there, a metric that is not a counter.
printf 'backend pcp\npcpHost localhost:1\n' >"$TMP/down.conf"
if timeout 20 "$AGENT" -f -C -c "$TMP/down.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
    fail "an unreachable pmcd was accepted"
fi
grep -q "cannot reach pmcd at localhost:1" "$TMP/out" || { cat "$TMP/out"; fail "unreachable pmcd message"; }
printf 'backend pcp\npcpHost localhost:%s\npcpMetric hw.r10kevctr.cycles kernel.all.load\n' \
    "$PMCD_PORT" >"$TMP/instant.conf"
if timeout 20 "$AGENT" -f -C -c "$TMP/instant.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
    fail "an instant metric was accepted for a counter"
fi
grep -q "kernel.all.load has instant semantics" "$TMP/out" || { cat "$TMP/out"; fail "instant metric message"; }
ok "refused: pmcd not running, a metric without counter semantics"
