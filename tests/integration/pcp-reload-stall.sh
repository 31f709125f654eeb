#!/bin/sh
# A reload never costs an answer: the agent on a private pmcd (backend
# pcp, pollInterval 1) gets a SIGHUP that changes pcpHost while pmcd is
# stopped (SIGSTOP, by PID), so the read in flight waits for libpcp's
# request timeout and the new backend's open waits for libpcp's connect
# timeout (both 4 s here).  Both wait on the reading thread: every GET of
# a loop running all along (snmpget -t 1 -r 0: the master's AgentX timeout
# is 1 s) is answered by the subagent from the last cache, the watchdog
# is fed, and the reload is refused (the new backend cannot open) with
# the running config kept.  After SIGCONT the same reload is applied: the
# counters go on from the new backend.  Each GET is timed; the test prints
# how many were answered and the worst latency.  Last, a stop while a
# reload's new backend opens on a stopped pmcd (libpcp's timeouts 60 s):
# the reload says the agent stops, the agent exits 0 after its waits.
. "$(dirname "$0")/lib.sh"

[ -x "$HWR_BUILDDIR/tests/pcp/replay2archive" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
command -v snmpget >/dev/null || { echo "SKIP: snmpget not installed"; exit 77; }
start_pmcd
start_master
PMCD_REQUEST_TIMEOUT=4 PMCD_CONNECT_TIMEOUT=4
export PMCD_REQUEST_TIMEOUT PMCD_CONNECT_TIMEOUT
conf() { # conf HOST
    printf 'backend pcp\npollInterval 1\npcpHost %s:%s\npcpMetric hw.r10kevctr.cycles kernel.percpu.intr\n' \
        "$1" "$PMCD_PORT" >"$TMP/agent.conf"
}
conf localhost
start_watched_agent # the watchdog in $TMP/notify.log
wait_until 20 agent_serving || fail "the subagent never answered"
p0=$(get_count hwR10kEvCtrPolls)
wait_until 10 get_at_least hwR10kEvCtrPolls $((p0 + 2)) || fail "the polls do not come"

timed_gets "$TMP/gets" &
GET_PID=$!
EXTRA_PIDS="$LISTEN_PID $GET_PID"
lines() { [ "$(wc -l <"$TMP/gets" 2>/dev/null || echo 0)" -ge "$1" ]; }
wait_until 10 lines 5 || fail "the GET loop does not run"
logged() { grep -q "$1" "$TMP/agent.log"; }
watchdogs() { grep -c "WATCHDOG=1" "$TMP/notify.log"; }

# pmcd stopped; the reload that changes pcpHost comes while the read is
# stuck.  Its refusal is waited for in polls of the log (the GET loop
# measures the time), never a fixed sleep.
e0=$(get_count hwR10kEvCtrPollErrors)
kill -STOP "$PMCD_PID"
s0=$(date +%s%N)
w0=$(watchdogs)
wait_until 10 get_at_least hwR10kEvCtrPollErrors $((e0 + 1)) || fail "no poll skipped while pmcd is stopped"
conf 127.0.0.1
kill -HUP "$AGENT_PID"
wait_until 60 logged "reload refused: the new config could not be applied, running config kept" ||
    fail "the reload during the stall was neither applied nor refused: $(tail -n 5 "$TMP/agent.log")"
s1=$(date +%s%N)
w1=$(watchdogs)
grep "reload:" "$TMP/agent.log"
logged "reload: .*pcp.*127.0.0.1.*keeping the running config" ||
    fail "the refusal does not say the new pcpHost could not be opened"
kill -CONT "$PMCD_PID"
# the GETs that began between the stop and the refusal
awk -v a="$s0" -v b="$s1" '$1 >= a && $1 <= b { print $2, $3 }' "$TMP/gets" | sort -n >"$TMP/during"
n=$(wc -l <"$TMP/during")
bad=$(grep -c -v " ok$" "$TMP/during")
worst=$(tail -n 1 "$TMP/during" | cut -d' ' -f1)
echo "GETs during the stalled reload ($(((s1 - s0) / 1000000)) ms): $n, not answered by the subagent: $bad, worst $worst ms"
[ "$n" -ge 5 ] || fail "only $n GETs during the stalled reload"
[ "$bad" = 0 ] || fail "$bad of $n GETs were not answered during the stalled reload"
[ $((w1 - w0)) -ge $(((s1 - s0) * 2 / 1000000000 - 3)) ] ||
    fail "only $((w1 - w0)) WATCHDOG=1 in $(((s1 - s0) / 1000000)) ms (WATCHDOG_USEC 1 s): the main loop stopped"
ok "a reload changing pcpHost while pmcd is stopped: refused after $(((s1 - s0) / 1000000)) ms, all $n GETs answered (worst $worst ms), $((w1 - w0)) WATCHDOG=1"

# pmcd back: the same reload is applied, and the polls go on from the
# new backend (a new epoch: the reload's discontinuity).
p1=$(get_count hwR10kEvCtrPolls)
wait_until 20 get_at_least hwR10kEvCtrPolls $((p1 + 2)) || fail "the polls did not resume after SIGCONT"
kill -HUP "$AGENT_PID"
wait_until 30 logged "reload: reopened backend pcp" || fail "the reload after SIGCONT was not applied"
p2=$(get_count hwR10kEvCtrPolls)
wait_until 20 get_at_least hwR10kEvCtrPolls $((p2 + 2)) || fail "the polls did not go on after the reload"
touch "$TMP/gets.stop"
wait "$GET_PID"
EXTRA_PIDS=$LISTEN_PID
all=$(wc -l <"$TMP/gets")
bad=$(grep -c -v " ok$" "$TMP/gets")
[ "$bad" = 0 ] || fail "$bad of $all GETs were not answered by the subagent"
logged "pcp: pmcd at 127.0.0.1:$PMCD_PORT: 1 counters mapped" || fail "the new backend is not the new pcpHost: $(grep pcp: "$TMP/agent.log" | tail -3)"
# the reading thread's log lines are queued; a long one (the 30 counters
# the metric does not map) is cut but still ends its line
grep -q "not counted (pcpMetric maps them):.*pcp: pmcd at" "$TMP/agent.log" &&
    fail "a long log line of the reading thread ran into the next one"
ok "after SIGCONT the reload is applied (pcpHost 127.0.0.1), the polls go on; $all GETs in all, every one answered"

# SIGTERM while the reload's new backend opens: no read in flight (a
# 30 s interval), pmcd stopped, libpcp's timeouts longer than the
# agent's wait at a stop (POLL_WAIT_S, 10 s).  The reload gives up
# saying why, the stop leaves the stuck open to the exiting process.
stop_agent
kill -STOP "$PMCD_PID"
PMCD_REQUEST_TIMEOUT=60 PMCD_CONNECT_TIMEOUT=60
EXPECT_STALL=1
printf 'backend pcp\npollInterval 30\npcpHost localhost:%s\npcpMetric hw.r10kevctr.cycles kernel.percpu.intr\n' \
    "$PMCD_PORT" >"$TMP/agent.conf"
kill -CONT "$PMCD_PID"
stop_pid "$LISTEN_PID"
rm -f "$TMP/notify.sock" "$TMP/notify.log"
: >"$TMP/agent.log"
start_watched_agent
wait_until 20 agent_serving || fail "the subagent (pollInterval 30) never answered"
kill -STOP "$PMCD_PID"
conf 127.0.0.1
sed -i 's/^pollInterval 1$/pollInterval 30/' "$TMP/agent.conf"
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "RELOADING=1" "$TMP/notify.log" || fail "no RELOADING=1 after SIGHUP"
kill -TERM "$AGENT_PID"
wait "$AGENT_PID"
rc=$?
AGENT_PID=
kill -CONT "$PMCD_PID"
[ "$rc" = 0 ] || fail "the agent stopped during a reload's open exited $rc"
logged "reload: the agent stops while backend pcp opens; keeping the running config" ||
    fail "the reload cut short by the stop did not say so: $(grep reload "$TMP/agent.log")"
ok "SIGTERM while a reload's backend opens on a stopped pmcd: the reload says the agent stops, exit 0"
