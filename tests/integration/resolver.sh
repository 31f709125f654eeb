#!/bin/sh
# -x tcp:HOST:PORT with a name server that never answers: the master's
# host is looked up off the main loop, so the polls and systemd's
# watchdog go on (a blocking getaddrinfo() stalled the loop 3 to 10 s at
# every attempt), and the log gives the resolver's own reason (it said
# "No route to host").  Runs in a private mount and network namespace
# (unshare -mn): its own loopback, a silent name server on 127.0.0.1:53,
# and a resolv.conf bind-mounted over /etc/resolv.conf there only.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (unshare -mn)"; exit 77; }
for t in unshare ip python3 mount; do
    command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"$TMP/resolv.conf"
printf 'backend sim\npollInterval 1\n' >"$TMP/agent.conf"
cat >"$TMP/inner.sh" <<'EOF'
set -eu
ip link set lo up
mount --bind "$TMP/resolv.conf" /etc/resolv.conf
# a name server that takes every query and answers none
python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))
while True:
    s.recvfrom(4096)
' &
DNS=$!
python3 "$HWR_SRCDIR/tests/sdnotify/listen.py" "$TMP/notify.sock" "$TMP/notify.log" &
LISTEN=$!
for _ in $(seq 50); do [ -S "$TMP/notify.sock" ] && break; sleep 0.1; done
# shellcheck disable=SC2016
NOTIFY_SOCKET=$TMP/notify.sock WATCHDOG_USEC=1000000 sh -c 'WATCHDOG_PID=$$ exec "$@"' sh \
    $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x tcp:master.hwr-test.invalid:705 \
    -Lf "$TMP/agent.log" &
A=$!
# 8 s of running from READY (a start under valgrind takes seconds)
for _ in $(seq 300); do grep -q "READY=1" "$TMP/notify.log" 2>/dev/null && break; sleep 0.1; done
sleep 8
kill -TERM "$A"
wait "$A" || echo "the agent exited with $?" >"$TMP/agent.exit"
kill "$LISTEN" "$DNS"
EOF
TMP=$TMP HWR_SRCDIR=$HWR_SRCDIR AGENT=$AGENT HWR_VALGRIND=${HWR_VALGRIND:-} \
    unshare -mn sh "$TMP/inner.sh" >"$TMP/inner.out" 2>&1 || fail "the namespace run failed: $(cat "$TMP/inner.out")"
[ ! -e "$TMP/agent.exit" ] || fail "$(cat "$TMP/agent.exit"); its stderr (valgrind's report, if any): $(cat "$TMP/inner.out")"
grep -q "cannot resolve the master's host 'master.hwr-test.invalid' (tcp:master.hwr-test.invalid:705): " "$TMP/agent.log" ||
    fail "no resolver failure logged: $(cat "$TMP/agent.log")"
reason=$(sed -n "s/.*cannot resolve the master's host [^:]*:[^:]*:[^:]*: \(.*\); trying every.*/\1/p" "$TMP/agent.log" | head -1)
case $reason in *"No route to host"*) fail "the resolver's reason was replaced: $reason" ;; esac
# the watchdog's ticks: every 500 ms, none late by more than 500 ms
gaps=$(awk '/WATCHDOG=1/ { if (last) { d = $1 - last; if (d > max) max = d }; last = $1; n++ }
    END { printf "%d %d", n, max }' "$TMP/notify.log")
n=${gaps% *} max=${gaps#* }
[ "$n" -ge 10 ] || fail "only $n watchdog ticks in 8 s after READY: $(cat "$TMP/notify.log")"
[ "$max" -le 1000 ] || fail "the main loop stalled: a watchdog gap of $max ms while the name was looked up"
polls=$(grep "WATCHDOG=1" "$TMP/notify.log" | tail -1 | sed -n 's/.*; \([0-9]*\) polls.*/\1/p')
[ "${polls:-0}" -ge 6 ] || fail "only ${polls:-0} polls in 8 s after READY"
ok "a silent name server: $n watchdog ticks, the longest gap $max ms, $polls polls in 8 s; logged: $reason"
