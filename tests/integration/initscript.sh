#!/bin/sh
# debian/hw-r10kevctr.init, run from a copy whose agent, pid file, state
# directory and defaults file are the test's (never /etc, /run or
# /var/lib): its config check is the start's own command line (-t with
# -p, -u, -g and AGENT_OPTS), so a replayFile that is missing, or that
# the agent's user cannot read, makes restart refuse before stopping
# anything (exit 6, the file and line named, the running agent serving
# on) and reload return 6 without a SIGHUP.  -u nobody -g nogroup play
# the package's user and group.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (start-stop-daemon, -u)"; exit 77; }
command -v start-stop-daemon >/dev/null && [ -r /lib/lsb/init-functions ] ||
    { echo "SKIP: no start-stop-daemon or /lib/lsb/init-functions"; exit 77; }
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null ||
    { echo "SKIP: no nobody/nogroup"; exit 77; }
chmod 755 "$TMP" # nobody reads the config and the recording
start_master
_SYSTEMCTL_SKIP_REDIRECT=true # the script itself, never a unit
export _SYSTEMCTL_SKIP_REDIRECT
PIDFILE=$TMP/run/agent.pid
sed -e "s|^DAEMON=.*|DAEMON=$AGENT|" -e "s|^PIDFILE=.*|PIDFILE=$PIDFILE|" \
    -e "s|^SNMP_PERSISTENT_DIR=.*|SNMP_PERSISTENT_DIR=$TMP/state|" \
    -e "s|/etc/default/hw-r10kevctr|$TMP/default|g" \
    "$HWR_SRCDIR/debian/hw-r10kevctr.init" >"$TMP/init"
grep -q "^DAEMON=$AGENT\$" "$TMP/init" && ! grep -q "/etc/default\|/run/hw\|/var/lib" "$TMP/init" ||
    fail "the init script's copy still names the host's paths"
cat >"$TMP/default" <<EOT
AGENT_OPTS="-C -c $TMP/agent.conf -x unix:$SOCK -Lf $TMP/agent.log"
AGENT_USER=nobody
AGENT_GROUP=nogroup
EOT
cp "$HWR_SRCDIR/tests/data/sample.replay" "$TMP/sample.replay"
chmod 644 "$TMP/sample.replay"
conf() { printf 'backend replay\npollInterval 1\nreplayFile %s\n' "$1" >"$TMP/agent.conf"; }
conf "$TMP/sample.replay"
initd() { sh "$TMP/init" "$@" >"$TMP/initd.out" 2>&1; }
initd start || { cat "$TMP/initd.out"; fail "start"; }
pid=$(cat "$PIDFILE")
EXTRA_PIDS=$pid
wait_until 20 agent_serving || fail "the init script's agent is not served"
ok "start: the agent serves (pid $pid)"

# refuses ACTION WHY: exit 6, the replayFile line named, the agent on
refuses() {
    initd "$1"; st=$?
    [ "$st" = 6 ] || { cat "$TMP/initd.out"; fail "$1 with $2: exit $st, not 6"; }
    grep -q "agent.conf: line 3: replayFile .*: cannot read as nobody:nogroup: $2" "$TMP/initd.out" ||
        { cat "$TMP/initd.out"; fail "$1 with $2: the file not named"; }
    [ "$(cat "$PIDFILE")" = "$pid" ] && kill -0 "$pid" && agent_serving ||
        fail "$1 with $2 stopped the running agent"
}
conf "$TMP/gone.replay"
h=$(grep -c "SIGHUP" "$TMP/agent.log")
for action in restart reload; do refuses $action "No such file or directory"; done
# root could read this one; the agent's user cannot
cp "$TMP/sample.replay" "$TMP/root.replay"
chmod 600 "$TMP/root.replay"
conf "$TMP/root.replay"
for action in restart reload; do refuses $action "Permission denied"; done
[ "$(grep -c "SIGHUP" "$TMP/agent.log")" = "$h" ] || fail "a refused reload sent a SIGHUP"
ok "restart and reload with a missing or unreadable (to the agent's user) replayFile: exit 6, named, no SIGHUP, the agent serves on"

conf "$TMP/sample.replay"
initd reload || { cat "$TMP/initd.out"; fail "reload of a good config"; }
initd stop || { cat "$TMP/initd.out"; fail "stop"; }
# gone, or a zombie nobody reaps (the test is not its parent)
state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
[ -z "$state" ] || [ "$state" = Z ] || fail "stop left the agent running ($state)"
EXTRA_PIDS=
ok "a good config reloads; stop"
