#!/bin/sh
# A stalled backend is said in systemd's STATUS with or without a
# watchdog: the agent on a private pmcd (backend pcp, pollInterval 1)
# under tests/sdnotify/listen.py's NOTIFY_SOCKET and no WATCHDOG_USEC
# (Type=notify without WatchdogSec); pmcd stopped with SIGSTOP (by PID):
# a STATUS says "backend pcp (stalled for N s)" within a few seconds, and
# after SIGCONT one without it.  (pcp-stall.sh covers the watchdog's.)
. "$(dirname "$0")/lib.sh"

[ -x "$HWR_BUILDDIR/tests/pcp/replay2archive" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
start_pmcd
EXPECT_STALL=1 # it stops the agent during a stall
PMCD_REQUEST_TIMEOUT=60 # the read stays in flight for the whole stop
export PMCD_REQUEST_TIMEOUT
NOTIFY=$TMP/notify.sock
python3 "$HWR_SRCDIR/tests/sdnotify/listen.py" "$NOTIFY" "$TMP/notify.log" &
EXTRA_PIDS="$!"
wait_until 10 test -S "$NOTIFY" || fail "the listener did not start"
printf 'backend pcp\npollInterval 1\npcpHost localhost:%s\npcpMetric hw.r10kevctr.cycles kernel.percpu.intr\n' \
    "$PMCD_PORT" >"$TMP/agent.conf"
env -u WATCHDOG_USEC -u WATCHDOG_PID NOTIFY_SOCKET="$NOTIFY" $HWR_VALGRIND "$AGENT" -f -C \
    -c "$TMP/agent.conf" -x "unix:$SOCK" -Lf "$TMP/agent.log" &
AGENT_PID=$!
seen() { grep -q "$1" "$TMP/notify.log"; }
wait_until 20 seen "READY=1" || fail "no READY=1: $(cat "$TMP/notify.log")"
seen "WATCHDOG=1" && fail "WATCHDOG=1 without WATCHDOG_USEC"
sleep 2 # a few polls
kill -STOP "$PMCD_PID"
wait_until 10 seen "STATUS=backend pcp (stalled for [0-9]* s)" || {
    kill -CONT "$PMCD_PID"
    fail "no STATUS said the stall without a watchdog: $(tail -3 "$TMP/notify.log")"
}
said=$(grep -o "STATUS=backend pcp (stalled for [0-9]* s)" "$TMP/notify.log" | tail -1)
n=$(wc -l <"$TMP/notify.log")
kill -CONT "$PMCD_PID"
over() { tail -n +"$((n + 1))" "$TMP/notify.log" | grep "STATUS=backend pcp, " | grep -qv stalled; }
wait_until 20 over || fail "no STATUS after the stall ended: $(tail -3 "$TMP/notify.log")"
ok "no watchdog: STATUS said '$said', then the stall's end"
kill -TERM "$AGENT_PID"
wait "$AGENT_PID" || fail "the agent exited badly"
AGENT_PID=
