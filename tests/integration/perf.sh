#!/bin/sh
# The perf backend on this machine (no hardware PMU; root): software
# events mapped onto three metrics through perfEvent serve per-CPU values
# that grow and sums equal to the rows; with hardware events only the
# state is -1 and no counter has an instance; 100 reloads leak no fd.
. "$(dirname "$0")/lib.sh"

SW="backend perf
pollInterval 1
perfEvent hw.r10kevctr.cycles software:cpu-clock
perfEvent hw.r10kevctr.tlb software:page-faults+software:context-switches
perfEvent hw.r10kevctr.grad.instrg software:task-clock"
HWONLY="backend perf
pollInterval 1
perfEvent hw.r10kevctr.cycles hardware:cpu-cycles
perfEvent hw.r10kevctr.grad.instrg hardware:instructions"

start_master
start_agent "$SW"
wait_until 20 agent_serving || fail "the subagent never answered"
sleep 1.2
n=$(nproc)

[ "$(snmpq snmpget hwR10kEvCtrState.0)" = 3 ] || fail "state is not 3"
[ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = "$n" ] || fail "not $n CPUs"
oids="hwR10kEvCtrCycles.0"
i=0; while [ $i -lt "$n" ]; do oids="$oids hwR10kEvCtrCpuCycles.$i"; i=$((i + 1)); done
# shellcheck disable=SC2086
set -- $(snmpq snmpget $oids)
total=$1; shift; sum=0
for v in "$@"; do [ "$v" -gt 0 ] || fail "a CPU counts 0"; sum=$((sum + v)); done
[ "$total" = "$sum" ] || fail "total $total is not the sum $sum of the rows"
sleep 1.5
later=$(snmpq snmpget hwR10kEvCtrCycles.0)
[ "$later" -gt "$total" ] || fail "cycles did not grow: $total -> $later"
ok "software events: $n CPUs counting, sum equals rows ($total), grows ($later)"

snmp snmpwalk hwR10kEvCtrMIB >"$TMP/walk"
c64=$(grep -cE 'hwR10kEvCtr(Cpu)?(Cycles|Tlb|GradInstrg)\.[0-9]+ = Counter64' "$TMP/walk")
[ "$c64" = $((3 + 3 * n)) ] || fail "$c64 counter instances, expected $((3 + 3 * n))"
grep -E 'hwR10kEvCtr(Cpu)?(IssueBrd|PcacheDmiss|FailBrmp)' "$TMP/walk" &&
    fail "unopenable default hardware events have instances"
grep -q "hwR10kEvCtrCpuDutyCycle.0 = Gauge32: 100 percent" "$TMP/walk" || fail "duty cycle"
ok "only the counted metrics have instances"

# A reload with the same settings keeps the events open: no new epoch.
disc=$(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0)
kill -HUP "$AGENT_PID"
kept() { grep -q "reload: kept backend perf" "$TMP/agent.log"; }
wait_until 10 kept || fail "an unchanged reload did not keep the perf backend"
sleep 1.2
[ "$(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0)" = "$disc" ] ||
    fail "an unchanged reload moved the discontinuity time"
grep -q "restarted counting" "$TMP/agent.log" && fail "an unchanged reload restarted counting"
ok "an unchanged reload keeps the events, the epoch and the discontinuity time"

# 100 reloads that do reopen (perfGroupSize alternates): no fd leaks.
fds() { ls "/proc/$AGENT_PID/fd" | wc -l; }
before=$(fds)
i=0
while [ $i -lt 100 ]; do
    printf '%s\nperfGroupSize %s\n' "$SW" $((3 + i % 2)) >"$TMP/agent.conf"
    kill -HUP "$AGENT_PID"; sleep 0.03; i=$((i + 1))
done
printf '%s\n' "$SW" >"$TMP/agent.conf"; kill -HUP "$AGENT_PID"
sleep 1.5
agent_serving || fail "not serving after 100 reloads"
after=$(fds)
[ "$after" = "$before" ] || fail "fds $before before 100 reloads, $after after"
grep -q "reload: reopened backend perf" "$TMP/agent.log" || fail "no reload reopened"
ok "100 reopening reloads: $after fds before and after"

printf '%s\n' "$HWONLY" >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
minus1() { [ "$(snmpq snmpget hwR10kEvCtrState.0)" = -1 ]; }
wait_until 10 minus1 || fail "state is not -1 with hardware events only"
snmp snmpwalk hwR10kEvCtrMIB >"$TMP/walk"
grep -E 'hwR10kEvCtr(Cpu)?[A-Z][a-zA-Z]*\.[0-9]+ = Counter64: [0-9]+ events' "$TMP/walk" &&
    fail "counter instances without a PMU"
grep -q "perf: no usable performance counters" "$TMP/agent.log" || fail "no log line"
grep -q "hwR10kEvCtrCpuStatus.0 = INTEGER: stopped(2)" "$TMP/walk" ||
    fail "a CPU with nothing to count is not 'stopped'"
ok "hardware events only: state -1, no counter instances, CPUs stopped"

# libpfm4 is loaded on the first pfm: name, never before (2 MiB of
# relocated tables an agent without such names would carry).
if "$AGENT" --version | grep -q "pfm:): libpfm4"; then
    grep -q libpfm "/proc/$AGENT_PID/maps" && fail "libpfm4 loaded with no pfm: name in use"
    printf '%s\nperfEvent hw.r10kevctr.fucomp pfm:perf::PERF_COUNT_SW_CPU_CLOCK\n' \
        "$SW" >"$TMP/agent.conf"
    kill -HUP "$AGENT_PID"
    four() { [ "$(snmpq snmpget hwR10kEvCtrState.0)" = 4 ]; }
    wait_until 10 four || fail "a pfm: name was not counted (state $(snmpq snmpget hwR10kEvCtrState.0))"
    [ "$(snmpq snmpget hwR10kEvCtrCpuFucomp.0)" -gt 0 ] 2>/dev/null || sleep 1.2
    [ "$(snmpq snmpget hwR10kEvCtrCpuFucomp.0)" -gt 0 ] || fail "the pfm: event does not count"
    grep -q libpfm "/proc/$AGENT_PID/maps" || fail "libpfm4 not loaded for a pfm: name"
    ok "libpfm4 loaded on the first pfm: name only; its event counts"
fi

# --dump on perf: software events count, hardware-only events do not.
printf '%s\n' "$SW" >"$TMP/dump.conf"
"$AGENT" --dump -C -c "$TMP/dump.conf" >"$TMP/dump.out" 2>"$TMP/dump.err" ||
    { cat "$TMP/dump.err"; fail "--dump on perf (software events) exited $?"; }
grep -q "^state 3$" "$TMP/dump.out" || fail "--dump state: $(cat "$TMP/dump.out")"
rate=$(awk '$1 == "hw.r10kevctr.cycles" && $2 == "sum" { print $4 }' "$TMP/dump.out")
[ "${rate:-0}" -gt 100000000 ] || fail "--dump: cpu-clock rate $rate ns/s summed over CPUs"
printf '%s\n' "$HWONLY" >"$TMP/dump.conf"
if "$AGENT" --dump -C -c "$TMP/dump.conf" >"$TMP/dump.out" 2>"$TMP/dump.err"; then
    fail "--dump with no PMU exited 0"
fi
grep -q "counts nothing (state -1: no usable counters)" "$TMP/dump.err" || fail "--dump: reason"
ok "--dump on perf: software events counted (cpu-clock $rate ns/s); no PMU: exit 1 with the reason"
