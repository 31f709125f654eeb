#!/bin/sh
# The pcp backend on a live, private pmcd (linux PMDA, loopback port):
# three counters mapped with pcpMetric onto per-CPU and system-wide kernel
# counters walk as pminfo reports them (each value within what the
# kernel counted between a pminfo before the agent started and one after
# the walk; sums equal the rows; the system-wide one has no per-CPU
# instances).  A pmcd killed stops the CPUs: state 0, no summed rate
# (never a 0); started again after the back-off reached its cap, it is
# reconnected within 8 s + one poll, and counting restarts (logged
# once).  Refused at start, each named: pmcd not running, a bad host
# spec (libpcp's reason in the -Lf log), a metric without counter
# semantics, one whose instances are not CPUs (network.interface,
# kernel.percpu.interrupts' lines), one in milliseconds, one PCP metric
# on two pcpMetric lines (FILE:LINE).  With no counter mapped the agent
# fetches nothing and logs no false fetch failure.  The linux PMDA
# killed: hwR10kEvCtrPollErrors counts one per metric without values per
# poll.
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
pcpMetric hw.r10kevctr.grad.instrg kernel.percpu.sirq
pcpMetric hw.r10kevctr.tlb kernel.all.intr"
start_agent "$CONF"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 60 polls_past 2 || fail "no two polls" # two polls: the rates exist
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
sleep 2
for o in hwR10kEvCtrRateCycles.0 hwR10kEvCtrRateTlb.0 hwR10kEvCtrCpuRateCycles.0; do
    out=$(snmp snmpget "$o")
    echo "$out" | grep -q "No Such Instance" || fail "$o while pmcd is down: $out"
done
[ "$(snmpq snmpget hwR10kEvCtrState.0)" = 0 ] || fail "state is not 0 while pmcd is down"
ok "pmcd killed: logged once, the CPUs stopped, state 0, no summed or per-CPU rate"
sleep 14 # the back-off reaches its cap (1, 2, 4, 8 s)
start_pmcd
t0=$(date +%s)
back() { grep -q "pcp: pmcd at localhost:$PMCD_PORT: connected again" "$TMP/agent.log"; }
wait_until 20 back || fail "the agent did not reconnect to pmcd"
took=$(($(date +%s) - t0))
[ "$took" -le 11 ] || fail "reconnected $took s after pmcd answered (bound: 8 s + 1 poll)"
counting() { [ "$(snmpq snmpget hwR10kEvCtrCpuStatus.0)" = counting ]; }
wait_until 10 counting || fail "CPU 0 did not count again"
[ "$(grep -c "fetch failed" "$TMP/agent.log")" = 1 ] || fail "the loss was logged more than once"
more_polls 2 # the polls after it read on the connection they have
[ "$(grep -c "connected again" "$TMP/agent.log")" = 1 ] ||
    fail "one reconnection, said $(grep -c "connected again" "$TMP/agent.log") times"
ok "pmcd back: reconnected $took s after it answered (said once), counting again"

# The linux PMDA dies (pmcd answers; each of the 3 mapped metrics has no
# values until pmcd restarts the PMDA): hwR10kEvCtrPollErrors counts
# problems, one per metric without values per poll (the MIB's
# DESCRIPTION, doc/pcp.md: 3 a poll, never 1), each metric logged once
# when it fails and once when it is back.
e0=$(snmpq snmpget hwR10kEvCtrPollErrors.0)
pmda=$(ps -o pid= -o comm= --ppid "$PMCD_PID" | awk '$2 == "pmdalinux" { print $1 }')
[ -n "$pmda" ] || fail "no pmdalinux under pmcd $PMCD_PID"
kill -KILL "$pmda"
said() { [ "$(grep -c "$1" "$TMP/agent.log")" = 3 ]; }
wait_until 10 said "not counted until it has values again" || fail "the 3 metrics without values were not each logged"
wait_until 20 said "has values again" || fail "the metrics did not come back (pmcd restarts its PMDA)"
d=$(($(snmpq snmpget hwR10kEvCtrPollErrors.0) - e0))
[ "$d" -ge 3 ] && [ $((d % 3)) = 0 ] || fail "poll errors rose by $d, not 3 for each poll without values"
ok "the linux PMDA died and came back: poll errors +$d, 3 (one per metric) for each poll without values; each metric logged once"

stop_agent
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

# A metric that is not per CPU, one in milliseconds, one PCP metric for
# two counters: refused, each named.
refused() { # refused WHAT EXPECTED-TEXT CONF-LINES...
    what=$1 want=$2; shift 2
    printf 'backend pcp\npcpHost localhost:%s\n' "$PMCD_PORT" >"$TMP/r.conf"
    for l in "$@"; do echo "$l" >>"$TMP/r.conf"; done
    if timeout 20 "$AGENT" -f -C -c "$TMP/r.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
        fail "$what was accepted"
    fi
    grep -qF "$want" "$TMP/out" || { cat "$TMP/out"; fail "$what: no '$want'"; }
}
refused "network.interface.in.packets" \
    "hw.r10kevctr.tlb: PCP metric network.interface.in.packets is not per CPU" \
    "pcpMetric hw.r10kevctr.tlb network.interface.in.packets"
grep -q '(lo' "$TMP/out" || grep -q ', lo' "$TMP/out" || { cat "$TMP/out"; fail "the lo instance is not named"; }
refused "kernel.percpu.interrupts" \
    "PCP metric kernel.percpu.interrupts is not per CPU" \
    "pcpMetric hw.r10kevctr.tlb kernel.percpu.interrupts"
refused "kernel.percpu.cpu.idle" \
    "PCP metric kernel.percpu.cpu.idle is in units of 'millisec' (time)" \
    "pcpMetric hw.r10kevctr.tlb kernel.percpu.cpu.idle"
refused "one PCP metric for two counters" \
    "r.conf: line 4: Error: pcpMetric: PCP metric kernel.percpu.intr already feeds hw.r10kevctr.cycles" \
    "pcpMetric hw.r10kevctr.cycles kernel.percpu.intr" "pcpMetric hw.r10kevctr.tlb kernel.percpu.intr"
ok "refused, named: a non-CPU instance domain, units of time, one PCP metric for two counters"

# A bad host spec: libpcp's reason reaches the -Lf log, not just stderr.
printf 'backend pcp\npcpHost localhost:abc\n' >"$TMP/spec.conf"
if timeout 20 "$AGENT" -f -C -c "$TMP/spec.conf" -x "unix:$SOCK" -Lf "$TMP/spec.log" 2>/dev/null; then
    fail "a bad host spec was accepted"
fi
grep -q "cannot reach pmcd at localhost:abc: bad host specification: non-numeric port at character 11" \
    "$TMP/spec.log" || { cat "$TMP/spec.log"; fail "the bad spec's reason is not in the log file"; }
ok "a bad pcpHost: libpcp's reason in the -Lf log"

# No counter mapped (the linux PMDA has no hw.r10kevctr): nothing is
# fetched, state -1, no false "fetch failed" / "connected again".
: >"$TMP/agent.log"
start_agent "backend pcp
pollInterval 1
pcpHost localhost:$PMCD_PORT"
wait_until 20 agent_serving || fail "the subagent never answered (nothing mapped)"
sleep 3
[ "$(snmpq snmpget hwR10kEvCtrState.0)" = -1 ] || fail "state is not -1 with nothing mapped"
if grep -q "fetch failed\|connected again" "$TMP/agent.log"; then
    cat "$TMP/agent.log"; fail "false fetch failures with nothing mapped"
fi
ok "nothing mapped: state -1, no fetch, no false failure in the log"
