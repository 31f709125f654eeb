#!/bin/sh
# A master that keeps 30 large GetBulk answers outstanding and reads them
# as they come (tests/agentx/outstanding.py): the subagent's memory is
# bounded by what the master has not read, not by what was ever sent
# (its output buffer grew by every byte sent: 764 MB in 60 s); at its
# stop, the Close goes behind the queued answers, whole.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
SECONDS_LOAD=${HWR_LOAD_SECONDS:-12}
# Under AddressSanitizer freed memory waits in its quarantine (256 MB):
# none here, so that the RSS is the agent's own.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0
export ASAN_OPTIONS
python3 "$HWR_SRCDIR/tests/agentx/outstanding.py" "$SOCK" .1.3.6.1.4.1.8072.9999.9999.59 \
    "$SECONDS_LOAD" >"$TMP/master.out" 2>&1 &
MASTER_PID=$!
EXTRA_PIDS=$MASTER_PID
wait_until 10 test -S "$SOCK" || fail "the test master did not listen"
start_agent "backend sim
pollInterval 1
simCpus 64"
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$AGENT_PID/status"; }
wait_until 20 grep -q "AgentX subagent connected" "$TMP/agent.log" || fail "no session"
sleep 2
r0=$(rss)
loaded() { grep -q "GetBulk answered" "$TMP/master.out"; }
wait_until $((SECONDS_LOAD + 30)) loaded || fail "the load did not end: $(cat "$TMP/master.out")"
r1=$(rss)
grow=$(( (r1 - r0) / 1024 ))
read_mb=$(sed -n 's/.* answered, \([0-9.]*\) MB read.*/\1/p' "$TMP/master.out")
# unread at any time: 30 answers of 1000 varbinds, about 1.5 MB.  Under
# valgrind the RSS is valgrind's (its freed-block quarantine alone is
# 20 MB): there the bound is not judged, the Close still is.
if [ -z "${HWR_VALGRIND:-}" ]; then
    [ "$grow" -le 16 ] || fail "RSS grew by $grow MB (from $((r0 / 1024)) MB) while the master read $read_mb MB"
fi
ok "30 GetBulk outstanding for $SECONDS_LOAD s, $read_mb MB sent: RSS $((r0 / 1024)) -> $((r1 / 1024)) MB"
stop_agent
wait "$MASTER_PID"; rc=$?; EXTRA_PIDS=
cat "$TMP/master.out"
[ "$rc" = 0 ] || fail "the test master failed"
ok "at the stop, the queued answers and then the Close, whole"
