#!/bin/sh
# A stalled backend never holds an answer: the agent on a private pmcd
# (backend pcp, pollInterval 1) while pmcd is stopped with SIGSTOP (by
# PID) for about 10 s, as a hung pmcd or a slow remote pcpHost would be.
# A loop of snmpget (-t 1 -r 0: the master's AgentX timeout is 1 s) runs
# all along and every GET is answered: the read runs off the main loop
# and answers come from the last poll's cache.  During the stall the
# polls are skipped, each counted in hwR10kEvCtrPollErrors (the test
# waits for 9 of them rather than sleeping), hwR10kEvCtrPolls stands
# still, the log says once that the backend stalls and, after SIGCONT,
# that it answered again and after how long; then the polls resume.
# Each GET's latency (snmpget's wall time, process start included) is
# recorded and its p50/p99 during the stall printed in the log.  Then a
# SIGHUP during a second stall: the reload waits for the stuck read,
# answering meanwhile, at most 10 s, is refused (the running config
# goes on), and no GET is lost while it waits.  The watchdog is fed all
# along (it means "the main loop runs") and STATUS says "backend pcp
# (stalled for N s)".  Last, SIGTERM during a third stall: exit 0 after
# at most 10 s, the stuck read left to the exiting process.
# libpcp's own request timeout is raised to 60 s, so that the read
# stays in flight for the whole stop (its default, 10 s, would end it
# with a failed fetch and a reconnect near the end of the stall).
. "$(dirname "$0")/lib.sh"

[ -x "$HWR_BUILDDIR/tests/pcp/replay2archive" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
command -v snmpget >/dev/null || { echo "SKIP: snmpget not installed"; exit 77; }
start_pmcd
start_master
EXPECT_STALL=1 # the last part stops the agent during a stall
PMCD_REQUEST_TIMEOUT=60
export PMCD_REQUEST_TIMEOUT
printf 'backend pcp\npollInterval 1\npcpHost localhost:%s\npcpMetric hw.r10kevctr.cycles kernel.percpu.intr\n' \
    "$PMCD_PORT" >"$TMP/agent.conf"
start_watched_agent # the watchdog and STATUS in $TMP/notify.log
watchdogs() { grep -c "WATCHDOG=1" "$TMP/notify.log"; }
wait_until 20 agent_serving || fail "the subagent never answered"
p0=$(get_count hwR10kEvCtrPolls)
wait_until 10 get_at_least hwR10kEvCtrPolls $((p0 + 2)) || fail "the polls do not come"

timed_gets "$TMP/gets" &
GET_PID=$!
EXTRA_PIDS="$LISTEN_PID $GET_PID"
lines() { [ "$(wc -l <"$TMP/gets" 2>/dev/null || echo 0)" -ge "$1" ]; }
wait_until 10 lines 5 || fail "the GET loop does not run"

# by_then SECONDS CMD...: retry CMD until it succeeds or SECONDS have
# passed by the clock (a GET of an agent that stalls takes its 1 s)
by_then() {
    end=$(($(date +%s) + $1)); shift
    until "$@"; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.2; done
}
e0=$(get_count hwR10kEvCtrPollErrors)
w0=$(watchdogs)
s0=$(date +%s%N)
kill -STOP "$PMCD_PID"
by_then 3 get_at_least hwR10kEvCtrPollErrors $((e0 + 1))
p_mid=$(get_count hwR10kEvCtrPolls)
# about 10 s: 9 polls skipped at pollInterval 1 (bounded by the clock:
# an agent that stalls with its backend counts none, nor answers)
by_then 10 get_at_least hwR10kEvCtrPollErrors $((e0 + 9))
p_end=$(get_count hwR10kEvCtrPolls)
e_end=$(get_count hwR10kEvCtrPollErrors)
w1=$(watchdogs)
stalled_status=$(grep -o "STATUS=backend pcp (stalled for [0-9]* s)" "$TMP/notify.log" | tail -1)
kill -CONT "$PMCD_PID"
s1=$(date +%s%N)
echo "pmcd stopped for $(((s1 - s0) / 1000000)) ms"
wait_until 20 get_at_least hwR10kEvCtrPolls $((p_end + 2))
resumed=$?
touch "$TMP/gets.stop"
wait "$GET_PID"
EXTRA_PIDS=$LISTEN_PID

# latencies of the GETs that began while pmcd was stopped
awk -v a="$s0" -v b="$s1" '$1 >= a && $1 <= b { print $2, $3 }' "$TMP/gets" |
    sort -n >"$TMP/during"
n=$(wc -l <"$TMP/during")
lost=$(grep -c -v " ok$" "$TMP/during")
pct() { awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; print v[i] }' "$TMP/during"; }
echo "GETs during the stall: $n, timed out: $(grep -c timeout "$TMP/during"), answered without the subagent: $(grep -c lost "$TMP/during"), p50 $(pct 50) ms, p99 $(pct 99) ms, max $(pct 100) ms"
all=$(wc -l <"$TMP/gets")
echo "GETs in all: $all, not answered by the subagent: $(grep -c -v " ok$" "$TMP/gets")"

[ "$n" -ge 5 ] || fail "only $n GETs during the stall"
[ "$lost" = 0 ] || fail "$lost of $n GETs were not answered by the subagent while pmcd was stopped"
grep -q -v " ok$" "$TMP/gets" && fail "a GET was not answered by the subagent (before or after the stall)"
ok "all $n GETs during a $(((s1 - s0) / 1000000)) ms pmcd stop answered (p50 $(pct 50) ms, p99 $(pct 99) ms)"

[ $((e_end - e0)) -ge 9 ] || fail "poll errors rose by $((e_end - e0)) during the stall, not the 9 skipped polls"
# the watchdog means "the main loop runs": fed every 0.5 s all along
[ $((w1 - w0)) -ge $(((s1 - s0) * 2 / 1000000000 - 3)) ] ||
    fail "only $((w1 - w0)) WATCHDOG=1 in $(((s1 - s0) / 1000000)) ms of stall (WATCHDOG_USEC 1 s)"
[ -n "$stalled_status" ] || fail "STATUS never said the backend stalls: $(tail -2 "$TMP/notify.log")"
ok "the watchdog fed through the stall ($((w1 - w0)) WATCHDOG=1), STATUS said: $stalled_status"
[ "$p_end" = "$p_mid" ] || fail "hwR10kEvCtrPolls went on from $p_mid to $p_end while pmcd was stopped"
[ "$(grep -c "backend pcp stalls" "$TMP/agent.log")" = 1 ] ||
    fail "the stall was not logged once"
grep -q "backend pcp answered again after [0-9.]* s; [0-9]* poll(s) skipped" "$TMP/agent.log" ||
    fail "the end of the stall was not logged"
[ "$resumed" = 0 ] || fail "the polls did not resume after SIGCONT"
ok "polls skipped and counted during the stall ($((e_end - e0)) poll errors), logged once when it began and when it ended, resumed after SIGCONT"
grep "stalls\|answered again" "$TMP/agent.log"

# A reload while a read is stuck: the backend cannot be asked whether it
# can be kept, nor closed, under its read.  The reload waits for it,
# answering meanwhile, at most 10 s (POLL_WAIT_S), then is refused and
# the running config goes on; no GET is lost while it waits.
rm -f "$TMP/gets.stop" "$TMP/gets"
timed_gets "$TMP/gets" &
GET_PID=$!
EXTRA_PIDS="$LISTEN_PID $GET_PID"
wait_until 10 lines 3 || fail "the GET loop does not run"
e1=$(get_count hwR10kEvCtrPollErrors)
kill -STOP "$PMCD_PID"
by_then 5 get_at_least hwR10kEvCtrPollErrors $((e1 + 1)) || fail "no poll skipped in the second stall"
kill -HUP "$AGENT_PID"
refused() { grep -q "reload: backend pcp stalls (a read in flight for [0-9]* s); keeping the running config" "$TMP/agent.log"; }
by_then 20 refused
was_refused=$?
kill -CONT "$PMCD_PID"
p2=$(get_count hwR10kEvCtrPolls)
wait_until 20 get_at_least hwR10kEvCtrPolls $((p2 + 2)) || fail "the polls did not resume after the refused reload"
touch "$TMP/gets.stop"
wait "$GET_PID"
EXTRA_PIDS=$LISTEN_PID
n=$(wc -l <"$TMP/gets")
lost=$(grep -c -v " ok$" "$TMP/gets")
sort -n -k2 "$TMP/gets" | awk '{ print $2 }' >"$TMP/during"
echo "GETs around the refused reload: $n, not answered: $lost, p50 $(pct 50) ms, p99 $(pct 99) ms, max $(pct 100) ms"
[ "$was_refused" = 0 ] || fail "a reload during a stall was not refused after POLL_WAIT_S"
grep -q "reload refused: the new config could not be applied, running config kept" "$TMP/agent.log" ||
    fail "the refusal was not said"
[ "$lost" = 0 ] || fail "$lost of $n GETs were not answered while the reload waited"
ok "a reload during a stall waited, answering ($n GETs, none lost), and was refused; the polls went on after SIGCONT"

# SIGTERM while a read is stuck: the agent waits for it at most 10 s,
# then exits 0 without closing the backend under its read (nor freeing
# the sample the read writes into: ASan would say so).
e2=$(get_count hwR10kEvCtrPollErrors)
kill -STOP "$PMCD_PID"
by_then 5 get_at_least hwR10kEvCtrPollErrors $((e2 + 1)) || fail "no poll skipped in the third stall"
kill -TERM "$AGENT_PID"
wait "$AGENT_PID"
rc=$?
AGENT_PID=
kill -CONT "$PMCD_PID"
[ "$rc" = 0 ] || fail "the agent stopped during a stall exited $rc"
grep -q "stopping: backend pcp stalls; exiting without closing it" "$TMP/agent.log" ||
    fail "the stop during a stall did not say it left the backend"
ok "SIGTERM during a stall: exit 0 within POLL_WAIT_S, the stuck read left to the exiting process"
