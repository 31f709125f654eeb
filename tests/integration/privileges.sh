#!/bin/sh
# -u/-g: the agent opens what needs root, then runs as the given user.
# The perf backend keeps CAP_PERFMON alone (events can be reopened: a
# reload with new perf settings works); the sim keeps no capability, and
# a reload that switches it to perf is refused with a clear message.
# The bounding set holds only what is kept and no_new_privs is set.  A
# pid file in a missing directory gets the directory, owned by the user,
# and is removed at exit; in a root-owned one it is emptied, and the
# warning reaches the log.  After logrotate's mv a SIGHUP that cannot make
# a new log file (a root-owned directory) says so in the old one and logs on.
# The alarm rows' state directory is made for the user; a symlinked store
# is not followed.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to drop privileges"; exit 77; }
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null ||
    { echo "SKIP: no nobody/nogroup"; exit 77; }
# nobody must reach the config (reload) and the log (SIGHUP reopens it);
# the AgentX session is opened before the switch, as root.
chmod 755 "$TMP"
start_master

start_priv() { # start_priv CONF-TEXT [OPTIONS...]
    printf '%s\n' "$1" >"$TMP/agent.conf"
    shift
    $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x "unix:$SOCK" \
        -Lf "$TMP/agent.log" -u nobody -g nogroup "$@" &
    AGENT_PID=$!
}
status_of() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$AGENT_PID/status"; }

SW="backend perf
pollInterval 1
perfEvent hw.r10kevctr.cycles software:cpu-clock"
start_priv "$SW"
wait_until 20 agent_serving || fail "the agent (-u nobody) never answered"
wait_until 10 grep -q "running as uid 65534 gid 65534 with CAP_PERFMON" "$TMP/agent.log" ||
    fail "no privilege switch logged"
[ "$(status_of Uid)" = 65534 ] && [ "$(status_of Gid)" = 65534 ] ||
    fail "uid $(status_of Uid) gid $(status_of Gid)"
[ "$(status_of CapEff)" = 0000004000000000 ] || fail "CapEff $(status_of CapEff), not CAP_PERFMON alone"
[ "$(status_of CapBnd)" = 0000004000000000 ] || fail "CapBnd $(status_of CapBnd), not CAP_PERFMON alone"
[ "$(status_of NoNewPrivs)" = 1 ] || fail "NoNewPrivs $(status_of NoNewPrivs)"
[ "$(snmpq snmpget hwR10kEvCtrState.0)" = 1 ] || fail "perf does not count as nobody"
ok "-u nobody -g nogroup: uid/gid 65534, CAP_PERFMON only (effective and bounding), no_new_privs, counting"

printf '%s\nperfGroupSize 2\n' "$SW" >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "reload: reopened backend perf" "$TMP/agent.log" ||
    fail "a perf reload after the switch failed"
more_polls 1
[ "$(snmpq snmpget hwR10kEvCtrState.0)" = 1 ] || fail "not counting after the reload"
grep -q "not permitted" "$TMP/agent.log" && fail "events were refused after the switch"
ok "a reload reopens the perf events with CAP_PERFMON"
stop_agent

start_priv "backend sim
pollInterval 1"
wait_until 20 agent_serving || fail "the sim agent (-u nobody) never answered"
[ "$(status_of CapEff)" = 0000000000000000 ] || fail "sim kept capabilities: $(status_of CapEff)"
[ "$(status_of CapBnd)" = 0000000000000000 ] || fail "sim's bounding set: $(status_of CapBnd)"
[ "$(status_of NoNewPrivs)" = 1 ] || fail "sim: NoNewPrivs $(status_of NoNewPrivs)"
printf '%s\n' "$SW" >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "reload: backend perf needs CAP_PERFMON" "$TMP/agent.log" ||
    fail "switching to perf without the capability was not refused"
more_polls 1
[ "$(snmpq snmpget hwR10kEvCtrBackend.0)" = '"sim"' ] ||
    [ "$(snmpq snmpget hwR10kEvCtrBackend.0)" = sim ] || fail "the running config was not kept"
ok "sim as nobody keeps no capability; a reload to perf is refused, sim goes on"
stop_agent "the sim agent"

if "$AGENT" -f -C -c "$TMP/agent.conf" -u no-such-user-hwr 2>"$TMP/out"; then
    fail "an unknown user was accepted"
fi
grep -q "no-such-user-hwr: no such user" "$TMP/out" || fail "unknown user message"
ok "an unknown -u user: named, exit 1"

# The pid file: its missing directory is made for the user, and the file
# goes at exit; in a root-owned directory it is emptied, and said.
: >"$TMP/agent.log"
start_priv "backend sim
pollInterval 1" -p "$TMP/run/agent.pid"
wait_until 20 agent_serving || fail "the agent (-p in a new directory) never answered"
wait_until 20 test -s "$TMP/run/agent.pid" || fail "no pid file in a new directory"
[ "$(stat -c %U "$TMP/run")" = nobody ] || fail "the pid directory is owned by $(stat -c %U "$TMP/run")"
[ "$(cat "$TMP/run/agent.pid")" = "$AGENT_PID" ] || fail "pid file: $(cat "$TMP/run/agent.pid")"
stop_agent
[ ! -e "$TMP/run/agent.pid" ] || fail "the pid file stayed after exit under -u"
mkdir "$TMP/rootdir" && chmod 755 "$TMP/rootdir"
start_priv "backend sim
pollInterval 1" -p "$TMP/rootdir/agent.pid"
wait_until 20 agent_serving || fail "the agent (-p in a root directory) never answered"
wait_until 20 test -s "$TMP/rootdir/agent.pid" || fail "no pid file in root's directory"
stop_agent
[ ! -s "$TMP/rootdir/agent.pid" ] || fail "a stale pid stayed: $(cat "$TMP/rootdir/agent.pid")"
grep -q "cannot remove the pid file (Permission denied); emptied it" "$TMP/agent.log" ||
    fail "the pid file that could not go was not logged"
ok "-p: a new directory is the user's and the file goes at exit; in root's, emptied and logged"

# logrotate under -u: the log's directory is root's, so after 'mv' the
# agent cannot make a new file.  SIGHUP must not go silent: the old file
# says why and goes on; with logrotate's 'create' (a new file owned by
# the user), the next SIGHUP writes there.
rm -f "$TMP/agent.log"
start_priv "backend sim
pollInterval 1"
wait_until 20 agent_serving || fail "the agent (-Lf, -u nobody) never answered"
mv "$TMP/agent.log" "$TMP/agent.log.1"
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "SIGHUP: cannot reopen the log file $TMP/agent.log: Permission denied; logging on" "$TMP/agent.log.1" ||
    fail "a failed reopen was not said in the old file"
wait_until 10 grep -q "SIGHUP: reloading the config" "$TMP/agent.log.1" || fail "logging stopped after the failed reopen"
[ ! -e "$TMP/agent.log" ] || fail "a log file appeared where the user cannot write"
install -o nobody -g nogroup -m 0640 /dev/null "$TMP/agent.log" # logrotate's 'create'
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "SIGHUP: reloading the config" "$TMP/agent.log" ||
    fail "the new file (logrotate's create) got nothing after SIGHUP"
stop_agent
ok "-Lf under -u: a reopen that cannot be made is said and logging goes on; with 'create' it moves to the new file"

# The alarm rows under -u: a missing state directory is made at start
# for the user (0700), a row created over SNMP is kept there and read
# back at a SIGHUP; a store planted as a symlink to root's 0600 file is
# not followed (nothing of it is loaded or copied).
STATE=$TMP/var/lib/hw-r10kevctr # its parents missing too, as /usr/local/var/lib may be
start_store_agent() {
    SNMP_PERSISTENT_DIR=$STATE; export SNMP_PERSISTENT_DIR
    start_priv "backend sim
pollInterval 1
alarmSet yes"
    SNMP_PERSISTENT_DIR=$TMP/persist; export SNMP_PERSISTENT_DIR
    wait_until 20 agent_serving || fail "the agent with alarmSet (-u nobody) never answered"
}
name1025() { SNMP_COMMUNITY=private snmpq snmpget hwR10kEvCtrAlarmName.1025 | tr -d '"'; }
: >"$TMP/agent.log"
start_store_agent
[ "$(stat -c '%U %a' "$STATE")" = "nobody 700" ] || fail "the state directory: $(stat -c '%U %a' "$STATE")"
[ "$(stat -c '%U %a' "$TMP/var/lib")" = "root 755" ] || fail "its parent: $(stat -c '%U %a' "$TMP/var/lib")"
# what net-snmp's init makes in it (as root, before the switch) is the user's too
[ -d "$STATE/cert_indexes" ] || fail "no cert_indexes in the state directory"
notmine=$(find "$STATE" ! -user nobody)
[ -z "$notmine" ] || { ls -laR "$STATE"; fail "not nobody's in the state directory: $notmine"; }
out=$(SNMP_COMMUNITY=private snmp snmpset hwR10kEvCtrAlarmName.1025 s mine \
    hwR10kEvCtrAlarmMetric.1025 s hw.r10kevctr.cycles hwR10kEvCtrAlarmRisingThresholdLow.1025 u 5 \
    hwR10kEvCtrAlarmRowStatus.1025 i createAndGo)
echo "$out" | grep -q createAndGo || fail "a row created as nobody: $out"
[ "$(stat -c '%U %a' "$STATE/hw-r10kevctr-alarms.conf")" = "nobody 600" ] ||
    fail "the store: $(stat -c '%U %a' "$STATE/hw-r10kevctr-alarms.conf")"
kill -HUP "$AGENT_PID"
wait_until 10 grep -q "1 alarm row(s) created over SNMP loaded" "$TMP/agent.log" ||
    fail "the store was not read back at SIGHUP: $(grep alarm "$TMP/agent.log")"
[ "$(name1025)" = mine ] || fail "row 1025 after the SIGHUP: $(name1025)"
stop_agent
printf 'alarmRow 1025 active nonVolatile stolen hw.r10kevctr.cycles sum rate 10 5 both\n' >"$TMP/secret"
chmod 600 "$TMP/secret"
rm "$STATE/hw-r10kevctr-alarms.conf"
ln -s "$TMP/secret" "$STATE/hw-r10kevctr-alarms.conf"
# planted in cert_indexes, which the start hands from root to the user:
# a hard link to root's file and another user's file stay as they are
ln "$TMP/secret" "$STATE/cert_indexes/linked"
install -o 1 -g 1 -m 0600 /dev/null "$STATE/cert_indexes/others"
start_store_agent
[ "$(stat -c '%u' "$TMP/secret")" = 0 ] || fail "a hard link to root's file was handed over: $(stat -c '%U' "$TMP/secret")"
[ "$(stat -c '%u:%g' "$STATE/cert_indexes/others")" = 1:1 ] ||
    fail "another user's file was handed over: $(stat -c '%U:%G' "$STATE/cert_indexes/others")"
grep -q "$STATE/hw-r10kevctr-alarms.conf: cannot read the alarm rows: a symlink, not followed" "$TMP/agent.log" ||
    fail "the symlinked store was not refused: $(grep alarm "$TMP/agent.log")"
name1025 | grep -q "No Such Instance" || fail "the root file's row was loaded: $(name1025)"
ok "alarm rows under -u: the state directory and its cert_indexes made for the user, the row kept and read back; a symlinked store not followed, a hard link or another user's file in cert_indexes not handed over"
stop_agent

# -u USER keeps USER's supplementary groups (initgroups), as a user put in
# a group to read something expects.  The user and its groups are in a
# private mount namespace's /etc/passwd and /etc/group (copies bound over
# them), never the host's.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    cp /etc/passwd "$TMP/passwd"
    cp /etc/group "$TMP/group"
    echo "hwrtest:x:64990:64990::/nonexistent:/usr/sbin/nologin" >>"$TMP/passwd"
    printf 'hwrtest:x:64990:\nhwrextra:x:64991:hwrtest\n' >>"$TMP/group"
    chmod 644 "$TMP/passwd" "$TMP/group"
    printf 'backend sim\npollInterval 1\n' >"$TMP/agent.conf"
    : >"$TMP/agent.log"
    # shellcheck disable=SC2016,SC2086
    unshare -m sh -c 'mount --bind "$0/passwd" /etc/passwd &&
        mount --bind "$0/group" /etc/group && shift && exec "$@"' "$TMP" x \
        $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x "unix:$SOCK" \
        -Lf "$TMP/agent.log" -u hwrtest &
    AGENT_PID=$!
    wait_until 20 agent_serving || fail "the agent as hwrtest never answered: $(tail -3 "$TMP/agent.log")"
    [ "$(status_of Uid)" = 64990 ] || fail "not running as hwrtest: uid $(status_of Uid)"
    groups=$(awk '$1 == "Groups:" { $1 = ""; print }' "/proc/$AGENT_PID/status")
    case " $groups " in
    *" 64991 "*) ;;
    *) fail "-u hwrtest dropped its supplementary group hwrextra (Groups:$groups)" ;;
    esac
    stop_agent
    grep -q "hwrtest" /etc/passwd && fail "the test's user reached the host's /etc/passwd"
    ok "-u hwrtest keeps its supplementary group (Groups:$groups), in a private mount namespace"
else
    echo "no mount namespace here (unshare -m): supplementary groups not tested"
fi
