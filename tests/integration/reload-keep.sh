#!/bin/sh
# SIGHUP as logrotate and config management send it, daily: a reload that
# leaves the backend's own settings as they are keeps the counters, the
# epoch and the discontinuity time (no notification, no dropped sample),
# for sim and replay (perf: perf.sh).  A reload that must reopen the
# backend reads the old one a last time first, so no count is lost.  The
# -Lf file is reopened, so logrotate's mv works.
. "$(dirname "$0")/lib.sh"

start_trapd
start_master
CONF="backend sim
pollInterval 1
simCpus 2"
start_agent "$CONF"
wait_until 20 agent_serving || fail "the subagent never answered"
sleep 1.5
disc() { snmpq snmpget hwR10kEvCtrDiscontinuityTime.0; }
d0=$(disc)

reload_with() { # reload_with CONFIG-TEXT: SIGHUP and wait for the reload
    printf '%s\n' "$1" >"$TMP/agent.conf"
    n=$(grep -c "reload: " "$TMP/agent.log")
    kill -HUP "$AGENT_PID"
    reloaded() { [ "$(grep -c "reload: " "$TMP/agent.log")" -gt "$n" ]; }
    wait_until 10 reloaded || fail "no reload logged"
}

reload_with "$CONF"
reload_with "$CONF
alarm busy hw.r10kevctr.tlb sum rate 1000000000 10"
reload_with "$CONF
pollInterval 2
alarm busy hw.r10kevctr.tlb sum rate 1000000000 10"
[ "$(grep -c "reload: kept backend sim" "$TMP/agent.log")" = 3 ] ||
    fail "unchanged, alarm-only and interval-only reloads did not keep the sim"
sleep 2.5
[ "$(disc)" = "$d0" ] || fail "the discontinuity time moved: $d0 -> $(disc)"
[ "$(snmpq snmpget hwR10kEvCtrPollInterval.0)" = 2 ] || fail "pollInterval not applied"
# (the agent's start under the running master is one: agent-restart.sh)
grep "restarted counting\|counter discontinuity" "$TMP/agent.log" | grep -qv "the agent started" &&
    fail "a keeping reload restarted the counters"
grep "hwR10kEvCtrCounterDiscontinuity" "$TMP/trapd.log" | grep -qv "the agent started" &&
    fail "a keeping reload sent a discontinuity notification"
ok "sim: unchanged, alarm-only and pollInterval-only reloads keep the epoch"

# A reopening reload (simCpus changes) reads the old sim a last time:
# polls before + 1 last read + the first new read.  A long interval first
# (a keeping reload), so that no regular poll falls in between.
reload_with "$CONF
pollInterval 3600"
polls=$(snmpq snmpget hwR10kEvCtrPolls.0)
reload_with "$CONF
simCpus 3
pollInterval 3600"
grep -q "reload: reopened backend sim" "$TMP/agent.log" || fail "simCpus did not reopen"
set -- $(snmpq snmpget hwR10kEvCtrPolls.0 hwR10kEvCtrNumCpus.0)
[ "$1" = $((polls + 2)) ] && [ "$2" = 3 ] ||
    fail "polls $polls -> $1 (want a last read and a first read), cpus $2"
ok "a reopening reload polls the old backend once more, then the new one"

# logrotate: mv the log, SIGHUP, the agent writes to a new file.
mv "$TMP/agent.log" "$TMP/agent.log.1"
kill -HUP "$AGENT_PID"
newlog() { grep -q "SIGHUP: reloading" "$TMP/agent.log"; }
wait_until 10 newlog || fail "SIGHUP did not reopen the -Lf file"
grep -q "SIGHUP: reloading" "$TMP/agent.log.1" || fail "the rotated log lost its lines"
ok "SIGHUP reopens the -Lf log file"

# replay: the same file keeps, a changed file reopens.
stop_agent
cp "$HWR_SRCDIR/tests/data/sample.replay" "$TMP/rec.replay"
RCONF="backend replay
replayFile $TMP/rec.replay
replayCounterWidth 32
pollInterval 1"
start_agent "$RCONF"
wait_until 20 agent_serving || fail "the replay agent never answered"
sleep 1.5
d0=$(disc)
fds() { ls "/proc/$AGENT_PID/fd" | wc -l; }
f0=$(fds)
reload_with "$RCONF"
reload_with "$RCONF
alarm busy hw.r10kevctr.cycles sum rate 1000000000 10"
[ "$(grep -c "reload: kept backend replay" "$TMP/agent.log")" = 2 ] ||
    fail "unchanged replay reloads did not keep the backend"
[ "$(fds)" = "$f0" ] || fail "two kept reloads: $f0 fds before, $(fds) after"
[ "$(disc)" = "$d0" ] || fail "replay: the discontinuity time moved"
echo "# appended" >>"$TMP/rec.replay"
reload_with "$RCONF"
grep -q "reload: reopened backend replay" "$TMP/agent.log" ||
    fail "a changed recording did not reopen the replay"
ok "replay: the same file keeps its position (no fd left open by the check), a changed file reloads"

# The recording truncated under a running agent: the loaded data goes on
# being served; a reload names the problem once and keeps the running one.
d1=$(disc)
: >"$TMP/rec.replay"
sleep 1.5
agent_serving || fail "a truncated recording stopped the serving"
kill -HUP "$AGENT_PID"
empty_named() { grep -q "rec.replay: no valid sample lines; keeping the running config" "$TMP/agent.log"; }
wait_until 10 empty_named || fail "a truncated recording at reload was not named"
sleep 1.5
[ "$(disc)" = "$d1" ] && agent_serving || fail "a failed reload disturbed the running replay"
ok "replay truncated while running: served on; the reload names it and keeps the running data"

# A storm of reloads that reopen the sim (its cpurev alternates, counting
# the same counters), faster than pollInterval: the counts follow the
# wall time, not the number of reads (they were 5.9x rate x time), and
# the scheduled polls go on (they were starved).
stop_agent
: >"$TMP/agent.log"
SCONF="backend sim
pollInterval 1
simCpus 1"
start_agent "$SCONF
simCpurev 3.4"
wait_until 20 agent_serving || fail "the subagent never answered (storm)"
sleep 1.2
rate=$(sed -n 's/^M([0-9]*, "cycles",.*, \([0-9]*\))$/\1/p' "$HWR_SRCDIR/lib/tables/metrics.def")
[ -n "$rate" ] || rate=$(snmpq snmpget hwR10kEvCtrRateCycles.0)
c0=$(snmpq snmpget hwR10kEvCtrCycles.0) p0=$(snmpq snmpget hwR10kEvCtrPolls.0)
t0=$(date +%s%N)
i=0
while [ $i -lt 30 ]; do # 30 reopens in about 6 s
    printf '%s\nsimCpurev 3.%d\n' "$SCONF" $((4 + i % 2)) >"$TMP/agent.conf"
    kill -HUP "$AGENT_PID"
    sleep 0.2
    i=$((i + 1))
done
sleep 1.5
c1=$(snmpq snmpget hwR10kEvCtrCycles.0) p1=$(snmpq snmpget hwR10kEvCtrPolls.0)
t1=$(date +%s%N)
reopens=$(grep -c "reload: reopened backend sim" "$TMP/agent.log")
[ "$reopens" -ge 25 ] || fail "the storm did not reopen the sim ($reopens)"
awk -v c="$((c1 - c0))" -v r="$rate" -v t0="$t0" -v t1="$t1" 'BEGIN {
    w = (t1 - t0) / 1e9; want = r * w
    printf "counted %d cycles in %.1f s at %d/s: %.2f x rate x time\n", c, w, r, c / want
    exit !(c <= want * 1.25 + r && c >= want * 0.6 - r)
}' || fail "the sim's counts do not follow the wall time through a reload storm"
scheduled=$((p1 - p0 - 2 * reopens)) # a reopen reads the old and the new one
[ "$scheduled" -ge 5 ] || fail "only $scheduled scheduled polls during the storm"
ok "a storm of 30 reopening reloads: counts = rate x wall time, $scheduled scheduled polls went on"
# Every SIGHUP reopened the -Lf file: no empty line in it (net-snmp's
# logging restart used to write one before each reload's first line)
n=$(grep -c "SIGHUP: reloading the config" "$TMP/agent.log")
if grep -n -x "" "$TMP/agent.log" >"$TMP/empty.lines"; then
    fail "empty lines in the log after $n reloads: $(head -3 "$TMP/empty.lines")"
fi
ok "$n reloads reopened the log file: no empty line in it"
