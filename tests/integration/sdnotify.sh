#!/bin/sh
# Readiness, status and the watchdog as systemd sees them, without
# systemd: tests/sdnotify/listen.py plays systemd's side of
# $NOTIFY_SOCKET.  The agent starts before its master (as it is made to):
# READY=1 comes once its backend is open, with a STATUS saying no master
# is connected; the master comes, STATUS says connected; WATCHDOG=1
# comes every half WATCHDOG_USEC and stops while the agent's loop is
# stopped; a SIGHUP is RELOADING=1 then READY=1, a refused one too, its
# STATUS saying refused until a reload succeeds; SIGTERM is STOPPING=1.
# A WatchdogSec of whole seconds (WATCHDOG_USEC 4 s): fed every 2000 ms.
. "$(dirname "$0")/lib.sh"

NOTIFY=$TMP/notify.sock
python3 "$HWR_SRCDIR/tests/sdnotify/listen.py" "$NOTIFY" "$TMP/notify.log" &
EXTRA_PIDS="$!"
wait_until 10 test -S "$NOTIFY" || fail "the listener did not start"
seen() { grep -q "$1" "$TMP/notify.log"; }
more_than() { [ "$(grep -c "$1" "$TMP/notify.log")" -gt "$2" ]; } # more_than MSG N

printf 'backend sim\npollInterval 1\n' >"$TMP/agent.conf"
# WATCHDOG_PID: the agent's own pid (exec keeps the shell's)
NOTIFY_SOCKET=$NOTIFY WATCHDOG_USEC=1000000 sh -c \
    'WATCHDOG_PID=$$ exec $0 "$@"' $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" \
    -x "unix:$SOCK" -Lf "$TMP/agent.log" &
AGENT_PID=$!
wait_until 20 seen "READY=1" || fail "no READY=1: $(cat "$TMP/notify.log")"
grep "READY=1" "$TMP/notify.log" | grep -q "MAINPID=" || fail "READY=1 without MAINPID"
grep "READY=1" "$TMP/notify.log" | grep -q "STATUS=backend sim, .*master not connected (unix:$SOCK)" ||
    fail "READY=1's status: $(grep READY "$TMP/notify.log")"
ok "READY=1 before any master, its status says so: $(grep -o 'STATUS=[^|]*' "$TMP/notify.log" | head -1)"

start_master
wait_until 20 seen "master connected" || fail "no status when the master came: $(tail -3 "$TMP/notify.log")"
wait_until 20 agent_serving || fail "the agent does not serve"
ok "the master came: STATUS says connected"

# the watchdog: every 500 ms while the loop runs
n0=$(grep -c "WATCHDOG=1" "$TMP/notify.log")
sleep 3
n1=$(grep -c "WATCHDOG=1" "$TMP/notify.log")
[ $((n1 - n0)) -ge 4 ] || fail "only $((n1 - n0)) WATCHDOG=1 in 3 s (WATCHDOG_USEC 1 s)"
grep "WATCHDOG=1" "$TMP/notify.log" | tail -1 | grep -q "STATUS=.* [1-9][0-9]* polls" ||
    fail "the watchdog's status has no polls"
kill -STOP "$AGENT_PID"
sleep 2
m0=$(grep -c "WATCHDOG=1" "$TMP/notify.log")
sleep 1
m1=$(grep -c "WATCHDOG=1" "$TMP/notify.log")
kill -CONT "$AGENT_PID"
[ "$m0" = "$m1" ] || fail "WATCHDOG=1 while the agent was stopped"
wait_until 10 more_than "WATCHDOG=1" "$m1" ||
    fail "the watchdog was not fed again after SIGCONT"
ok "WATCHDOG=1 every half interval ($((n1 - n0)) in 3 s), none while the loop is stopped"

kill -HUP "$AGENT_PID"
wait_until 10 seen "RELOADING=1" || fail "no RELOADING=1 at SIGHUP"
wait_until 10 more_than "READY=1" 1 || fail "no READY=1 after the reload"

# A refused reload (a bad line): READY=1 all the same (sd_notify(3) wants
# it after RELOADING=1), with a STATUS that says so, and so does every
# STATUS after it (the watchdog's) until a reload succeeds; the running
# config goes on serving and polling.
cpus0=$(snmpq snmpget hwR10kEvCtrNumCpus.0)
printf 'backend sim\npollInterval 1\nsimCpus %d\npollInterval 0\n' $((cpus0 + 1)) >"$TMP/agent.conf"
r=$(grep -c "READY=1" "$TMP/notify.log")
kill -HUP "$AGENT_PID"
wait_until 10 more_than "READY=1" "$r" || fail "no READY=1 after a refused reload"
last_ready() { grep "READY=1" "$TMP/notify.log" | tail -1; }
last_ready | grep -q "STATUS=reload refused: 1 config problem(s), running config kept; backend sim, $cpus0 CPUs" ||
    fail "the refused reload's READY=1: $(last_ready)"
grep -q "agent.conf: line 4: Error: pollInterval" "$TMP/agent.log" || fail "the bad line is not in the log"
grep -q "reload refused: 1 config problem(s), running config kept" "$TMP/agent.log" || fail "the log does not say refused"
w=$(grep -c "WATCHDOG=1" "$TMP/notify.log")
wait_until 10 more_than "WATCHDOG=1" "$w" || fail "no watchdog after a refused reload"
grep "WATCHDOG=1" "$TMP/notify.log" | tail -1 | grep -q "STATUS=reload refused: " ||
    fail "the watchdog's STATUS forgot the refused reload"
p0=$(snmpq snmpget hwR10kEvCtrPolls.0)
polled() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" -gt "$p0" ]; }
wait_until 10 polled || fail "no poll after a refused reload"
[ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = "$cpus0" ] || fail "a refused reload changed the table"
ok "a refused reload: READY=1 with STATUS 'reload refused: 1 config problem(s), running config kept', kept in the watchdog's STATUS; the old config polls on"
# the next good reload clears it
printf 'backend sim\npollInterval 1\nsimCpus %d\n' $((cpus0 + 1)) >"$TMP/agent.conf"
r=$(grep -c "READY=1" "$TMP/notify.log")
kill -HUP "$AGENT_PID"
wait_until 10 more_than "READY=1" "$r" || fail "no READY=1 after a good reload"
last_ready | grep -q "reload refused" && fail "a good reload's STATUS still says refused: $(last_ready)"
cpus_more() { [ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = $((cpus0 + 1)) ]; }
wait_until 10 cpus_more || fail "the good reload did not apply"
ok "a good reload after it: STATUS without 'refused', the new config applied"
kill -TERM "$AGENT_PID"
wait "$AGENT_PID" || fail "the agent exited badly"
AGENT_PID=
seen "STOPPING=1" || fail "no STOPPING=1"
ok "SIGHUP: RELOADING=1 then READY=1; SIGTERM: STOPPING=1"

# A NOTIFY_SOCKET that is no socket path (relative, vsock:): ignored as
# sd_notify(3) callers ignore it; the agent starts and serves, and
# -Dhwr10k/sdnotify says why nothing is sent.
for bad in relative vsock:2:1234; do
    NOTIFY_SOCKET=$bad WATCHDOG_USEC=1000000 $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" \
        -x "unix:$SOCK" -Lf "$TMP/bad.log" -Dhwr10k/sdnotify &
    AGENT_PID=$!
    wait_until 20 agent_serving || fail "NOTIFY_SOCKET=$bad: the agent does not serve: $(cat "$TMP/bad.log")"
    kill -0 "$AGENT_PID" || fail "NOTIFY_SOCKET=$bad: the agent exited"
    grep -q "NOTIFY_SOCKET '$bad' is not a socket path: ignored" "$TMP/bad.log" ||
        fail "NOTIFY_SOCKET=$bad: no debug line: $(cat "$TMP/bad.log")"
    kill -TERM "$AGENT_PID"
    wait "$AGENT_PID" || fail "NOTIFY_SOCKET=$bad: the agent exited badly"
    AGENT_PID=
done
ok "a NOTIFY_SOCKET that is no socket path is ignored (the agent serves; -D says so)"

# WatchdogSec=4 (systemd's WATCHDOG_USEC 4000000): half of it, 2 s, is
# split into seconds and microseconds for the alarm; the log line says
# the interval registered.
NOTIFY_SOCKET=$NOTIFY WATCHDOG_USEC=4000000 sh -c \
    'WATCHDOG_PID=$$ exec $0 "$@"' $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" \
    -x "unix:$SOCK" -Lf "$TMP/wd4.log" &
AGENT_PID=$!
wait_until 20 grep -q "systemd watchdog: fed every" "$TMP/wd4.log" || fail "WATCHDOG_USEC 4 s: no watchdog line: $(cat "$TMP/wd4.log")"
grep -q "systemd watchdog: fed every 2000 ms while the main loop runs" "$TMP/wd4.log" ||
    fail "WATCHDOG_USEC 4 s: $(grep 'systemd watchdog' "$TMP/wd4.log")"
kill -TERM "$AGENT_PID"
wait "$AGENT_PID" || fail "WATCHDOG_USEC 4 s: the agent exited badly"
AGENT_PID=
ok "WATCHDOG_USEC 4000000: fed every 2000 ms"

# A host that counts nothing (state 0: counting not permitted, or -1: no
# PMU): the service is up and serves no counter; STATUS says so.
for st in 0 -1; do
    printf '0 - hw.r10kevctr.state %s\n0 0 hw.r10kevctr.cycles 100\n1 - hw.r10kevctr.state %s\n1 0 hw.r10kevctr.cycles 200\n' \
        "$st" "$st" >"$TMP/state.replay"
    printf 'backend replay\nreplayFile %s\npollInterval 1\n' "$TMP/state.replay" >"$TMP/state.conf"
    : >"$TMP/notify.log"
    NOTIFY_SOCKET=$NOTIFY $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/state.conf" \
        -x "unix:$SOCK" -Lf "$TMP/state.log" &
    AGENT_PID=$!
    wait_until 20 seen "READY=1" || fail "state $st: no READY=1: $(cat "$TMP/state.log")"
    last_status() { grep -o "STATUS=[^|]*" "$TMP/notify.log" | tail -1; }
    said_state() { last_status | grep -q "state $st (no counter counts: see the log);"; }
    wait_until 10 said_state || fail "state $st: $(last_status)"
    stop_agent "the state $st agent"
done
ok "state 0 and -1: STATUS says no counter counts"

# The longest socket path sockaddr_un holds (107 bytes and its NUL): the
# address's length is exactly the structure's, and READY=1 arrives.
long=$TMP/$(printf '%0*d' $((107 - ${#TMP} - 1 - 5)) 0).sock
[ ${#long} = 107 ] || fail "the test's long path is ${#long} bytes, not 107"
python3 "$HWR_SRCDIR/tests/sdnotify/listen.py" "$long" "$TMP/long.log" &
EXTRA_PIDS="$EXTRA_PIDS $!"
wait_until 10 test -S "$long" || fail "the listener on a 107-byte path did not start"
NOTIFY_SOCKET=$long $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" \
    -x "unix:$SOCK" -Lf "$TMP/long-agent.log" &
AGENT_PID=$!
wait_until 20 grep -q "READY=1" "$TMP/long.log" || fail "NOTIFY_SOCKET of 107 bytes: no READY=1: $(cat "$TMP/long-agent.log")"
stop_agent "the agent on a 107-byte NOTIFY_SOCKET"
ok "a NOTIFY_SOCKET of 107 bytes, the most sockaddr_un holds: READY=1"
