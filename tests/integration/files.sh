#!/bin/sh
# The files the agent writes and reads, as an attacker or a careless
# operator would set them up: a pid file path with a planted symlink, a
# umask of 000, a log path that is a symlink, a FIFO or a huge file as the
# recording, and privilege tokens the agent cannot honour.
. "$(dirname "$0")/lib.sh"

"$AGENT" --help | grep -q "usage: " || fail "--help"
"$AGENT" --version | grep -q "^hw-r10kevctr " || fail "--version"
ok "--help and --version"

start_master
printf 'backend sim\npollInterval 1\n' >"$TMP/agent.conf"
echo "precious" >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/agent.pid"
(umask 000; $HWR_VALGRIND "$AGENT" -C -c "$TMP/agent.conf" -x "unix:$SOCK" \
    -Lf "$TMP/agent.log" -p "$TMP/agent.pid") || fail "the daemon did not start"
[ "$(cat "$TMP/victim")" = precious ] || fail "the pid file followed a planted symlink"
[ -f "$TMP/agent.pid" ] && [ ! -L "$TMP/agent.pid" ] || fail "the pid file is not a regular file"
mode=$(stat -c %a "$TMP/agent.pid")
[ "$mode" = 644 ] || fail "pid file mode $mode under umask 000, not 644"
DPID=$(cat "$TMP/agent.pid")
AGENT_PID=$DPID
kill -0 "$DPID" || fail "the pid file does not name a live process"
log_mode=$(stat -c %a "$TMP/agent.log")
[ "$log_mode" = 640 ] || fail "log file mode $log_mode under umask 000, not 640"
wait_until 20 agent_serving || fail "the daemon does not serve"
# -Lf lines carry the time, as snmpd's do
grep -Eq "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} hw-r10kevctr [^ ]* started" "$TMP/agent.log" ||
    fail "-Lf lines have no timestamps: $(head -3 "$TMP/agent.log")"
# The agent keeps the umask it was given (a unit's UMask=, umask 000
# here): it sets the modes of what it creates itself.
grep -q "^Umask:[[:space:]]*0000$" "/proc/$DPID/status" ||
    fail "the agent changed its umask: $(grep Umask "/proc/$DPID/status")"
# A second instance with the same pid file: refused, naming the first,
# before it touches the master; the first keeps its file and serves.
if "$AGENT" -C -c "$TMP/agent.conf" -x "unix:$SOCK" -Lf "$TMP/second.log" \
    -p "$TMP/agent.pid"; then
    fail "a second instance with the same pid file started"
fi
grep -q "agent.pid: held by process $DPID, another hw-r10kevctr-agent" "$TMP/second.log" ||
    fail "the second instance did not name the first: $(cat "$TMP/second.log")"
[ "$(cat "$TMP/agent.pid")" = "$DPID" ] || fail "the second instance changed the pid file"
grep -q "session" "$TMP/second.log" && fail "the second instance opened a master session"
kill -0 "$DPID" && agent_serving || fail "the first instance stopped serving"
stop_pid "$DPID"; AGENT_PID=
wait_until 5 test ! -e "$TMP/agent.pid" || fail "the pid file was not removed at exit"
ok "pid file: a planted symlink is replaced, not followed; mode 0644; locked (a second instance is refused, naming the first); removed at exit; the umask kept"

# The pid file's new directory is 0755 under a unit's UMask=0077, and
# the agent starts with that umask.
(umask 077; $HWR_VALGRIND "$AGENT" -C -c "$TMP/agent.conf" -x "unix:$SOCK" \
    -Lf "$TMP/agent77.log" -p "$TMP/run77/agent.pid") || fail "the daemon did not start under umask 077"
DPID=$(cat "$TMP/run77/agent.pid"); AGENT_PID=$DPID
[ "$(stat -c %a "$TMP/run77")" = 755 ] || fail "the pid directory is $(stat -c %a "$TMP/run77") under umask 077, not 755"
[ "$(stat -c %a "$TMP/agent77.log")" = 640 ] || fail "the log file is not 0640 under umask 077"
grep -q "^Umask:[[:space:]]*0077$" "/proc/$DPID/status" || fail "the agent did not keep umask 077"
stop_pid "$DPID"; AGENT_PID=
ok "umask 077: the agent keeps it; the pid directory 0755, the log 0640"

# A stale pid file (no lock: its agent died) longer than our pid is
# replaced whole: the file holds our pid and its newline, nothing after.
printf '1234567890\n67890\n' >"$TMP/stale.pid"
$HWR_VALGRIND "$AGENT" -C -c "$TMP/agent.conf" -x "unix:$SOCK" \
    -Lf "$TMP/stale.log" -p "$TMP/stale.pid" || fail "the daemon did not start over a stale pid file"
DPID=$(head -n 1 "$TMP/stale.pid"); AGENT_PID=$DPID
kill -0 "$DPID" || fail "the stale pid file was not rewritten: $(od -c "$TMP/stale.pid")"
[ "$(wc -c <"$TMP/stale.pid")" -eq $((${#DPID} + 1)) ] ||
    fail "the stale pid file kept bytes after the pid: $(od -c "$TMP/stale.pid")"
stop_pid "$DPID"; AGENT_PID=
ok "a longer stale pid file: replaced by exactly the pid and a newline"

# Started with stderr closed (its /dev/null lands on fd 2): after it
# detaches, 0, 1 and 2 are /dev/null, never closed for a later file or
# socket to take.
"$AGENT" -C -c "$TMP/agent.conf" -x "unix:$SOCK" -Lf "$TMP/closed2.log" \
    -p "$TMP/closed2.pid" 2>&- || fail "the daemon did not start with stderr closed"
DPID=$(cat "$TMP/closed2.pid"); AGENT_PID=$DPID
wait_until 20 agent_serving || fail "the daemon started with stderr closed does not serve"
for n in 0 1 2; do
    [ "$(readlink "/proc/$DPID/fd/$n")" = /dev/null ] ||
        fail "fd $n is '$(readlink "/proc/$DPID/fd/$n")', not /dev/null, when started with stderr closed"
done
kill -HUP "$DPID"
wait_until 10 grep -q "reload" "$TMP/closed2.log" || fail "started with stderr closed, the log lost what came after ready: $(cat "$TMP/closed2.log")"
stop_pid "$DPID"; AGENT_PID=
ok "started with stderr closed: fds 0, 1 and 2 are /dev/null"

# In the foreground with stdin and stderr closed, -Le (logging to
# stderr): fds 0 and 2 are /dev/null from the start, so that no file or
# socket the agent opens takes them (its log would be written into it).
"$AGENT" -f -C -c "$TMP/agent.conf" -x "unix:$SOCK" -Le <&- 2>&- & # not under valgrind: its own stderr is closed here
AGENT_PID=$!
wait_until 20 agent_serving || fail "the agent started with stdin and stderr closed does not serve"
for n in 0 2; do
    [ "$(readlink "/proc/$AGENT_PID/fd/$n")" = /dev/null ] ||
        fail "fd $n is '$(readlink "/proc/$AGENT_PID/fd/$n")', not /dev/null, when started with 0 and 2 closed"
done
stop_agent "the agent started with 0 and 2 closed"
ok "started in the foreground with stdin and stderr closed: fds 0 and 2 are /dev/null"

# The daemon's exit status tells the truth about the pid file.
if "$AGENT" -C -c "$TMP/agent.conf" -x "unix:$SOCK" -Lf "$TMP/nopid.log" \
    -p "$TMP/no/such/dir/agent.pid"; then
    fail "a daemon that could not write its pid file exited 0"
fi
grep -q "no/such/dir/agent.pid.*cannot write the pid file" "$TMP/nopid.log" ||
    fail "no message for the pid file"
ok "an unwritable pid file: the starting command exits 1, the log says why"

# -Lf never writes through a symlink; -A appends, the default truncates.
ln -s "$TMP/victim" "$TMP/link.log"
if "$AGENT" -f -C -c "$TMP/agent.conf" -x "unix:$SOCK" -Lf "$TMP/link.log" 2>"$TMP/out"; then
    fail "a symlinked log file was accepted"
fi
grep -q "link.log: the log file is a symbolic link" "$TMP/out" || { cat "$TMP/out"; fail "no message"; }
[ "$(cat "$TMP/victim")" = precious ] || fail "the log went through the symlink"
echo "old line" >"$TMP/append.log"
start_agent_log() { # start_agent_log ARGS...: foreground agent, our log options
    $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x "unix:$SOCK" "$@" &
    AGENT_PID=$!
}
start_agent_log -Lf "$TMP/append.log" -A
wait_until 20 agent_serving || fail "the -A agent does not serve"
stop_agent "the -A agent"
grep -q "old line" "$TMP/append.log" || fail "-A truncated the log"
start_agent_log -Lf "$TMP/append.log"
wait_until 20 agent_serving || fail "the agent does not serve"
stop_agent
grep -q "old line" "$TMP/append.log" && fail "without -A the log was not truncated (as snmpd does)"
ok "-Lf refuses a symlink; -A appends"

# -Lf /dev/null is accepted, as snmpd accepts it: the agent serves, a
# SIGHUP reopens nothing; a device is never handed to the -u user (a
# private node of /dev/null's numbers shows it stays root's).
start_agent_log -Lf /dev/null
wait_until 20 agent_serving || fail "the agent with -Lf /dev/null does not serve"
polls=$(snmpq snmpget hwR10kEvCtrPolls.0)
kill -HUP "$AGENT_PID"
polled_since() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" -ge $((polls + 2)) ]; }
wait_until 20 polled_since || fail "the agent with -Lf /dev/null does not poll after SIGHUP"
stop_agent "the -Lf /dev/null agent"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null &&
    mknod -m 666 "$TMP/null" c 1 3 2>/dev/null && echo x >"$TMP/null"; then
    chmod 755 "$TMP"
    start_agent_log -Lf "$TMP/null" -u nobody -g nogroup
    wait_until 20 agent_serving || fail "the -u agent with -Lf on a device does not serve"
    stop_agent "the -u agent with -Lf on a device"
    [ "$(stat -c '%U %G %a' "$TMP/null")" = "root root 666" ] ||
        fail "-u handed the device over: $(stat -c '%U %G %a' "$TMP/null")"
    ok "-Lf /dev/null accepted (served, SIGHUP); a device under -u stays root's"
else
    ok "-Lf /dev/null accepted (served, SIGHUP); the -u case needs root and mknod in \$TMP (skipped)"
fi

# Privilege tokens net-snmp accepts but this agent cannot honour.
printf 'backend sim\nagentuser nobody\nagentgroup nogroup\n' >"$TMP/priv.conf"
if "$AGENT" -f -C -c "$TMP/priv.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
    fail "agentuser/agentgroup accepted"
fi
grep -q "priv.conf: line 2: Error: agentuser: not supported" "$TMP/out" || { cat "$TMP/out"; fail "agentuser"; }
grep -q "priv.conf: line 3: Error: agentgroup: not supported" "$TMP/out" || { cat "$TMP/out"; fail "agentgroup"; }
grep -q "agentuser: not supported: the agent takes its user and group from the command line (-u USER, -g GROUP)" "$TMP/out" ||
    { cat "$TMP/out"; fail "the agentuser error does not point at -u/-g"; }
ok "agentuser/agentgroup: refused with FILE: line N, pointing at -u/-g"

# An unknown token: net-snmp's warning, then the agent's error; exit 1.
printf 'backend sim
pollIntervall 5
' >"$TMP/typo.conf"
if "$AGENT" -f -C -c "$TMP/typo.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
    fail "an unknown token was accepted"
fi
grep -q "typo.conf: line 2: Error: 'pollIntervall' is not a token of hw-r10kevctr.conf" "$TMP/out" ||
    { cat "$TMP/out"; fail "no Error line for the unknown token"; }
ok "unknown token: an Error with FILE: line N, exit 1"

# A FIFO as the recording is refused at once (it would block the loop).
mkfifo "$TMP/rec.fifo"
printf 'backend replay\nreplayFile %s\n' "$TMP/rec.fifo" >"$TMP/fifo.conf"
if timeout 10 "$AGENT" -f -C -c "$TMP/fifo.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
    fail "a FIFO replayFile was accepted"
fi
grep -q "rec.fifo: not a regular file" "$TMP/out" || { cat "$TMP/out"; fail "FIFO message"; }
ok "a FIFO as replayFile: refused at once"

# SIGTERM while a large recording loads stops the agent promptly.
# (3M lines: about 2 s to load without sanitizers; under valgrind 300k.)
BIGLINES=3000000; [ -n "$HWR_VALGRIND" ] && BIGLINES=300000  The agent connects
# to the master, then loads: SIGTERM as soon as it has connected.
awk -v n="$BIGLINES" 'BEGIN { for (t = 1; t <= n; t++) printf "%d 0 hw.r10kevctr.tlb %d\n", t, t }' \
    >"$TMP/big.replay"
printf 'backend replay\nreplayFile %s\n' "$TMP/big.replay" >"$TMP/big.conf"
$HWR_VALGRIND "$AGENT" -f -C -c "$TMP/big.conf" -x "unix:$SOCK" -Lf "$TMP/big.log" &
AGENT_PID=$!
for _ in $(seq 600); do
    grep -q "subagent connected" "$TMP/big.log" 2>/dev/null && break; sleep 0.05
done
grep -q "sample sets" "$TMP/big.log" && fail "the recording loaded before the test could stop it"
kill -TERM "$AGENT_PID"
t0=$(date +%s)
for _ in $(seq 100); do kill -0 "$AGENT_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$AGENT_PID" 2>/dev/null && fail "SIGTERM ignored while loading a large recording"
wait "$AGENT_PID"; rc=$?; AGENT_PID=
[ "$rc" = 0 ] || fail "stopping while loading exited $rc"
grep -q "stopped while starting" "$TMP/big.log" || fail "no log of the stop while loading"
ok "SIGTERM while loading a large recording: stopped within $(( $(date +%s) - t0 )) s"

# A reload that loads the large recording: the agent answers its master
# all along (from the cache of the running backend), so no GET times out.
printf 'backend sim\npollInterval 1\n' >"$TMP/agent.conf"
start_agent "$(cat "$TMP/agent.conf")"
wait_until 20 agent_serving || fail "the sim agent never answered"
printf 'backend replay\nreplayFile %s\n' "$TMP/big.replay" >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
gets=0
while ! grep -q "reload: reopened backend replay" "$TMP/agent.log"; do
    out=$(snmpq snmpget -t 3 -r 0 hwR10kEvCtrNumCpus.0) ||
        fail "a GET timed out while the agent loaded a recording: $out"
    gets=$((gets + 1))
    [ "$gets" -lt 3000 ] || fail "the reload never finished"
done
[ "$gets" -ge 3 ] || fail "the load was too quick to test ($gets GETs)"
[ "$(snmpq snmpget hwR10kEvCtrBackend.0)" = '"replay"' ] ||
    [ "$(snmpq snmpget hwR10kEvCtrBackend.0)" = replay ] || fail "the reload did not finish"
ok "a reload loading $BIGLINES lines: $gets GETs answered meanwhile, none timed out"
