#!/bin/sh
# The Debian package in a throwaway root of the host's release (Debian 12
# or 13: the package is built for it; debootstrap minbase, from the
# host's Debian mirror), never on the host:
#  - install with apt (its dependencies, snmpd beside it), reinstall over
#    itself, README.Debian's non-interactive upgrade to a next revision
#    over an edited conffile, remove, purge: afterwards none of its files or conffiles is
#    left, and its system user and group are (Debian practice);
#  - run as production runs it: Debian's snmpd as its package starts it
#    (user Debian-snmp, its stock snmpd.conf plus the installed drop-in,
#    on a private loopback port), the agent as the installed unit starts
#    it (its ExecStart, user, supplementary group, umask, CAP_PERFMON,
#    no_new_privs); a walk through the master shows the subtree, and a
#    master restart is followed by a reconnect;
#  - the man page's init-script form (-u, -Lf, -p) with the shipped
#    logrotate example: logging goes on after the rotation, the pid file
#    goes at exit, the log's owner and group the same after rotation;
#    the man page's production line as printed; the init script's start,
#    status, reload, restart and stop, and LSB's statuses: reload of a
#    stopped agent 7, a killed agent's stale pid file (status 1) removed
#    by stop; its reload and restart refusing a bad line while the agent
#    serves on; the unit's ExecReload config check;
#  - a host without snmpd: install, the init script's refusal, purge;
#  - autopkgtest (debian/tests) in the same root;
#  - --dump on the sim backend as the service user.
#   tests/deb/install-root.sh PACKAGE.deb
# Needs root, debootstrap and a reachable Debian mirror.
set -u
DEB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -f "$DEB" ] || { echo "FAIL: no package $1"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (debootstrap, chroot)"; exit 1; }
command -v debootstrap >/dev/null || { echo "FAIL: debootstrap not installed"; exit 1; }
MIRROR=${MIRROR:-$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
T0=$(date +%s)
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d /tmp/hwr-root.XXXXXX)
R=$TMP/root
PIDS=
ok() { echo "ok: $*"; }
in_root() { chroot "$R" "$@"; }
cleanup() {
    rc=$?
    for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done
    sleep 1
    for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done
    # every process still running in the root
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$R" ] && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    mountpoint -q "$R/proc" && umount "$R/proc"
    mountpoint -q "$R/sys" && umount "$R/sys"
    if [ "$rc" -ne 0 ]; then
        for f in "$R"/var/log/hwr-test-*.log "$R"/var/log/hw-r10kevctr/*; do
            [ -s "$f" ] && { echo "---- $f"; grep -v '^Connection from' "$f" | tail -n 30; }
        done
    fi
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
wait_until() { # wait_until SECONDS CMD...
    n=$(( $1 * 5 )); shift
    for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
    return 1
}

# The host's release: the package's dependencies are its libraries'
# (Debian 13's libc6 2.38 and libsnmp40t64 are not in Debian 12).
SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
echo "== debootstrap --variant=minbase $SUITE ($MIRROR)"
debootstrap --variant=minbase "$SUITE" "$R" "$MIRROR" >"$TMP/debootstrap.log" 2>&1 ||
    { tail -n 20 "$TMP/debootstrap.log"; fail "debootstrap"; }
ok "a $(. "$R/etc/os-release" && echo "$PRETTY_NAME") root in $(($(date +%s) - T0)) s"
mount -t proc proc "$R/proc"
mount -t sysfs sysfs "$R/sys" # the perf backend reads the online CPUs there
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
# Nothing starts by itself in the root (snmpd's postinst would): the test
# starts each daemon as its package or unit would.
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod 755 "$R/usr/sbin/policy-rc.d"
cp "$DEB" "$R/tmp/"
debname=$(basename "$DEB")
apt_() { in_root env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 "$@"; }

# ---------------------------------------------------------------- install
t=$(date +%s)
apt_ update >"$TMP/apt.log" 2>&1 || { tail "$TMP/apt.log"; fail "apt-get update in the root"; }
apt_ install --no-install-recommends snmpd snmp logrotate "/tmp/$debname" >>"$TMP/apt.log" 2>&1 ||
    { tail -n 30 "$TMP/apt.log"; fail "apt-get install of the package"; }
ok "installed with its dependencies and snmpd in $(($(date +%s) - t)) s"
in_root dpkg -L hw-r10kevctr >"$TMP/files" || fail "dpkg -L"
in_root sh -c 'for f in $(dpkg -L hw-r10kevctr); do [ -d "$f" ] || echo "$f"; done' >"$TMP/plain"
in_root getent passwd hw-r10kevctr >/dev/null || fail "no user hw-r10kevctr after install"
in_root test -f /etc/snmp/hw-r10kevctr.conf || fail "no /etc/snmp/hw-r10kevctr.conf"
grep -qx /etc/snmp/hw-r10kevctr.conf "$R/var/lib/dpkg/info/hw-r10kevctr.conffiles" ||
    fail "/etc/snmp/hw-r10kevctr.conf is not a conffile"
grep -qx /etc/snmp/snmpd.conf.d/hw-r10kevctr.conf "$R/var/lib/dpkg/info/hw-r10kevctr.conffiles" ||
    fail "the snmpd drop-in is not a conffile"
[ "$(in_root stat -c %a /var/agentx)" = 755 ] || fail "/var/agentx is $(in_root stat -c %a /var/agentx) after install (tmpfiles.d)"
ok "user hw-r10kevctr, conffiles in /etc/snmp, /var/agentx 0755"

# ---------------------------------------------------------------- snmpd
PORT=$((20000 + $$ % 20000))
# As Debian's snmpd.service starts it, on a private port (the command
# line's address replaces the stock config's agentaddress), logging to a
# file.  The stock snmpd.conf is not touched: it reads the drop-in.
start_snmpd() {
    rm -f "$R/var/agentx/master"
    chroot "$R" /usr/sbin/snmpd -Lf /var/log/hwr-test-snmpd.log -u Debian-snmp -g Debian-snmp \
        -I -smux,mteTrigger,mteTriggerConf -f -p /run/snmpd.pid "udp:127.0.0.1:$PORT" &
    SNMPD_PID=$!
    PIDS="$PIDS $SNMPD_PID"
    wait_until 10 test -S "$R/var/agentx/master" || fail "snmpd made no AgentX socket"
}
start_snmpd
[ "$(in_root stat -c "%a %G" /var/agentx/master)" = "660 Debian-snmp" ] ||
    fail "the AgentX socket is $(in_root stat -c "%a %G" /var/agentx/master)"
walk() { in_root snmpwalk -v2c -c public -On -t 1 -r 1 "127.0.0.1:$PORT" "$@" 2>&1; }
backend_served() { walk .1.3.6.1.4.1.8072.9999.9999.59.1.4.3 | grep -q 'STRING: "\{0,1\}perf'; }

# ---------------------------------------------------------------- the unit
# /lib/systemd/system on Debian 12, /usr/lib/systemd/system on 13
# (debian/rules); the same directory in a merged-/usr root
unit=$R/usr/lib/systemd/system/hw-r10kevctr.service
[ -f "$unit" ] || unit=$R/lib/systemd/system/hw-r10kevctr.service
key() { sed -n "s/^$1=//p" "$unit"; }
exec_start=$(key ExecStart)
[ "$(key User)" = hw-r10kevctr ] && [ "$(key SupplementaryGroups)" = Debian-snmp ] &&
    [ "$(key AmbientCapabilities)" = CAP_PERFMON ] && [ "$(key NoNewPrivileges)" = yes ] ||
    fail "the unit is not the one this test emulates"
[ "$(key StateDirectory)" = hw-r10kevctr ] &&
    [ "$(key Environment)" = SNMP_PERSISTENT_DIR=/var/lib/hw-r10kevctr ] ||
    fail "the unit's state directory is not the one this test emulates"
start_unit_agent() {
    # systemd makes the StateDirectory, owned by User, before ExecStart
    in_root install -d -m "$(key StateDirectoryMode)" -o "$(key User)" -g "$(key Group)" \
        "/var/lib/$(key StateDirectory)"
    # shellcheck disable=SC2086
    chroot "$R" setpriv --reuid="$(key User)" --regid="$(key Group)" --groups="$(key SupplementaryGroups)" \
        --inh-caps=+perfmon --ambient-caps=+perfmon --bounding-set=-all,+perfmon --no-new-privs \
        env "$(key Environment)" sh -c "umask $(key UMask); exec $exec_start" 2>>"$R/var/log/hwr-test-agent.log" &
    AGENT_PID=$!
    PIDS="$PIDS $AGENT_PID"
}
start_unit_agent
wait_until 20 backend_served || { walk .1.3.6.1.4.1.8072.9999.9999.59.1.4; fail "the subtree is not served through Debian's snmpd"; }
n=$(walk .1.3.6.1.4.1.8072.9999.9999.59 | grep -c '^\.1\.3\.6\.1\.4\.1\.8072\.9999\.9999\.59\.')
[ "$(awk '/^Uid:/ { print $2 }' "/proc/$AGENT_PID/status")" = "$(in_root id -u hw-r10kevctr)" ] ||
    fail "the agent does not run as hw-r10kevctr"
ok "snmpd as Debian-snmp (stock config + drop-in), agent as the unit runs it: $n objects walked"

# The master restarts: the agent connects again by itself.
kill -TERM "$SNMPD_PID"; wait "$SNMPD_PID" 2>/dev/null
start_snmpd
wait_until 20 backend_served || fail "no reconnect after the master restarted"
grep -q "AgentX subagent connected" "$R/var/log/hwr-test-agent.log" || fail "no connect logged"
ok "master restarted: the agent reconnected"
# systemctl reload runs the unit's ExecReload lines in turn: the config
# check first, as the unit's user; a bad line fails it, naming the line,
# before any SIGHUP.
exec_check=$(key ExecReload | head -n 1)
[ "$exec_check" = "/usr/sbin/hw-r10kevctr-agent -t" ] && key ExecReload | sed -n 2p | grep -q 'kill -HUP' ||
    fail "the unit's ExecReload is not the check then the SIGHUP: $(key ExecReload)"
unit_check() {
    # shellcheck disable=SC2086
    chroot "$R" setpriv --reuid="$(key User)" --regid="$(key Group)" --groups="$(key SupplementaryGroups)" \
        env "$(key Environment)" $exec_check >"$TMP/check.out" 2>&1
}
unit_check || { cat "$TMP/check.out"; fail "the unit's check refused the installed config"; }
echo 'pollInterval 0' >>"$R/etc/snmp/hw-r10kevctr.local.conf"
unit_check && fail "the unit's check passed a bad line"
grep -q "hw-r10kevctr.local.conf: line 1: Error: pollInterval" "$TMP/check.out" ||
    { cat "$TMP/check.out"; fail "the unit's check did not name the bad line"; }
rm -f "$R/etc/snmp/hw-r10kevctr.local.conf"
ok "the unit's ExecReload checks the config (-t, as its user) before the SIGHUP: a bad line fails it, named"
kill -TERM "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null

# --dump on the sim backend, as the service user.
printf 'backend sim\nsimCpus 2\n' >"$R/tmp/sim.conf"
chmod 644 "$R/tmp/sim.conf"
in_root setpriv --reuid=hw-r10kevctr --regid=hw-r10kevctr --clear-groups --no-new-privs \
    /usr/sbin/hw-r10kevctr-agent -C -c /tmp/sim.conf --dump >"$TMP/dump" 2>&1 ||
    { cat "$TMP/dump"; fail "--dump as hw-r10kevctr"; }
grep -q '^cpus 2$' "$TMP/dump" && grep -q '^hw.r10kevctr.cycles 1 ' "$TMP/dump" || { head "$TMP/dump"; fail "--dump does not show the sim's 2 CPUs"; }
ok "--dump on sim as hw-r10kevctr: $(wc -l <"$TMP/dump") lines"
# README.Debian's way off the default backend: a local file the agent
# reads after the conffile, untouched by upgrades.
echo 'backend sim' >"$R/etc/snmp/hw-r10kevctr.local.conf"
in_root /usr/sbin/hw-r10kevctr-agent --dump >"$TMP/dump-local" 2>&1 || { cat "$TMP/dump-local"; fail "--dump with the local file"; }
grep -qx 'backend sim' "$TMP/dump-local" || fail "hw-r10kevctr.local.conf did not win over the conffile: $(head -3 "$TMP/dump-local")"
rm -f "$R/etc/snmp/hw-r10kevctr.local.conf"
ok "/etc/snmp/hw-r10kevctr.local.conf overrides the conffile's backend (--dump: backend sim)"

# ---------------------------------------------------------------- init style
# hw-r10kevctr-agent(8)'s production line, group Debian-snmp for the
# socket, and the shipped logrotate example.
mkdir -p "$R/var/log/hw-r10kevctr"
chroot "$R" /usr/sbin/hw-r10kevctr-agent -A -Lf /var/log/hw-r10kevctr/agent.log \
    -p /run/hw-r10kevctr/agent.pid -u hw-r10kevctr -g Debian-snmp &
PIDS="$PIDS $!"
wait_until 20 test -s "$R/run/hw-r10kevctr/agent.pid" || fail "no pid file (-p /run/hw-r10kevctr/agent.pid)"
wait_until 20 backend_served || fail "the init-style agent (-u) is not served"
[ -f "$R/usr/share/doc/hw-r10kevctr/README.md.gz" ] && [ -f "$R/usr/share/doc/hw-r10kevctr/doc/nms.md.gz" ] ||
    fail "README.md and doc/ are not in /usr/share/doc/hw-r10kevctr (README.Debian points there)"
ok "README.md.gz and doc/*.md.gz installed where README.Debian says"
cp "$R/usr/share/doc/hw-r10kevctr/examples/logrotate.example" "$R/etc/logrotate.d/hw-r10kevctr"
owner_before=$(in_root stat -c '%U:%G %a' /var/log/hw-r10kevctr/agent.log)
in_root logrotate -f -s /var/lib/logrotate/hwr-test.status /etc/logrotate.d/hw-r10kevctr ||
    fail "logrotate with the shipped example"
wait_until 10 grep -q "SIGHUP: reloading the config" "$R/var/log/hw-r10kevctr/agent.log" ||
    fail "nothing logged in the new file after logrotate"
[ "$owner_before" = "hw-r10kevctr:Debian-snmp 640" ] || fail "the agent's log before logrotate is $owner_before"
owner_after=$(in_root stat -c '%U:%G %a' /var/log/hw-r10kevctr/agent.log)
[ "$owner_after" = "$owner_before" ] ||
    fail "logrotate changed the log's owner, group or mode: $owner_before before, $owner_after after"
ls "$R"/var/log/hw-r10kevctr/agent.log.1* >/dev/null 2>&1 || fail "logrotate did not rotate"
pid=$(cat "$R/run/hw-r10kevctr/agent.pid")
kill -TERM "$pid"
wait_until 10 sh -c "! kill -0 $pid" || fail "the agent did not stop"
[ ! -e "$R/run/hw-r10kevctr/agent.pid" ] || fail "the pid file stayed after exit"
ok "init style (-u -g Debian-snmp -Lf -p): served, logrotate's mv + SIGHUP keeps logging ($owner_after before and after), pid file gone at exit"

# hw-r10kevctr-agent(8)'s production line, as printed (the page's own
# text, rendered), survives a master restart.
line=$(MANWIDTH=200 man -l "$R/usr/share/man/man8/hw-r10kevctr-agent.8.gz" 2>/dev/null |
    sed -n 's/^ *\(hw-r10kevctr-agent -LSid -p .*\)$/\1/p')
[ -n "$line" ] || fail "no production line in hw-r10kevctr-agent(8)"
chroot "$R" sh -c "$line" || fail "the man page's line did not start: $line"
pid=$(cat "$R/run/hw-r10kevctr/agent.pid")
wait_until 20 backend_served || fail "the man page's line is not served"
kill -TERM "$SNMPD_PID"; wait "$SNMPD_PID" 2>/dev/null
start_snmpd
wait_until 20 backend_served || fail "the man page's line lost the master at its restart"
kill -TERM "$pid"
wait_until 10 sh -c "! kill -0 $pid" || fail "the agent did not stop"
ok "the man page's production line as printed ($line): served, reconnected after a master restart"

# The init script (hosts without systemd), with its /etc/default file.
# Alarms over SNMP as production has them: snmpd (Debian-snmp) with the
# example's alarm admin, the agent (hw-r10kevctr) with alarmSet yes
# writing its rows into its own state directory.
grep -E '^(view|createUser|group|access) ' "$SRCDIR/conf/snmpd.conf.example" |
    grep -v hwr10kMonitor >"$R/etc/snmp/snmpd.conf.d/zz-test-alarm-admin.conf"
echo 'alarmSet yes' >"$R/etc/snmp/hw-r10kevctr.local.conf"
kill -TERM "$SNMPD_PID"; wait "$SNMPD_PID" 2>/dev/null
start_snmpd
initd() { chroot "$R" /etc/init.d/hw-r10kevctr "$@"; }
initd start >"$TMP/initd.out" 2>&1 || { cat "$TMP/initd.out"; fail "/etc/init.d/hw-r10kevctr start"; }
pid=$(cat "$R/run/hw-r10kevctr/agent.pid")
wait_until 20 backend_served || fail "the init script's agent is not served"
E=.1.3.6.1.4.1.8072.9999.9999.59.1.7.1
admin_set() {
    in_root snmpset -On -v3 -l authPriv -u hwr10kAlarmAdmin -a SHA -A change-this-admin-auth -x AES \
        -X change-this-admin-priv -t 3 -r 1 "127.0.0.1:$PORT" "$@" 2>&1
}
out=$(admin_set $E.3.1025 s hw.r10kevctr.cycles $E.17.1025 u 5 $E.22.1025 i 4)
echo "$out" | grep -q "$E.22.1025 = INTEGER: 4" || fail "the alarm admin could not create a row: $out"
store=/var/lib/hw-r10kevctr/hw-r10kevctr-alarms.conf
grep -q '^alarmRow 1025 active nonVolatile alarm1025 hw.r10kevctr.cycles sum absolute 5 0 both -$' "$R$store" ||
    fail "row 1025 not in $store: $(cat "$R$store" 2>&1)"
[ "$(in_root stat -c '%a %U' /var/lib/hw-r10kevctr "$store" | tr '\n' ' ')" = "700 hw-r10kevctr 600 hw-r10kevctr " ] ||
    fail "the state directory and store: $(in_root stat -c '%n %a %U' /var/lib/hw-r10kevctr "$store")"
ok "alarms over SNMP: the example's admin (snmpd as Debian-snmp) created a row; the agent (hw-r10kevctr) stored it in $store (0600, directory 0700)"
initd status >/dev/null || fail "status of a running agent: not 0"
initd start >/dev/null 2>&1 || fail "start of a running agent: not 0"
[ "$(cat "$R/run/hw-r10kevctr/agent.pid")" = "$pid" ] && kill -0 "$pid" ||
    fail "a second start replaced the running agent"
agents_in_root() { # the agents running in the root
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$R" ] &&
            [ "$(readlink "$p/exe" 2>/dev/null)" = "$R/usr/sbin/hw-r10kevctr-agent" ] && echo "${p#/proc/}"
    done | wc -l
}
[ "$(agents_in_root)" = 1 ] || fail "$(agents_in_root) agents after a second start"
initd reload >/dev/null || fail "reload"
sleep 1
kill -0 "$pid" && backend_served || fail "not served after reload"
initd restart >/dev/null || fail "restart"
wait_until 20 backend_served || fail "not served after restart"
row_active() { walk $E.22 | grep -q "^$E.22.1025 = INTEGER: 1$"; }
wait_until 10 row_active || fail "row 1025 lost at the restart: $(walk $E.22)"
[ "$(cat "$R/run/hw-r10kevctr/agent.pid")" != "$pid" ] || fail "restart kept the old process"
# A bad line: reload and restart refuse with its reason, exit 6 (LSB:
# not configured), and the running agent serves on (restart stopped it,
# then failed: an outage).
pid=$(cat "$R/run/hw-r10kevctr/agent.pid")
echo 'pollInterval 0' >>"$R/etc/snmp/hw-r10kevctr.local.conf"
for action in reload restart; do
    initd $action >"$TMP/initd.out" 2>&1; st=$?
    [ "$st" = 6 ] || { cat "$TMP/initd.out"; fail "$action with a bad line: exit $st, not 6"; }
    grep -q "hw-r10kevctr.local.conf: line 2: Error: pollInterval" "$TMP/initd.out" ||
        { cat "$TMP/initd.out"; fail "$action with a bad line did not name it"; }
    [ "$(cat "$R/run/hw-r10kevctr/agent.pid")" = "$pid" ] && kill -0 "$pid" && backend_served ||
        fail "$action with a bad line stopped the running agent"
done
sed -i '/^pollInterval 0$/d' "$R/etc/snmp/hw-r10kevctr.local.conf"
ok "/etc/init.d/hw-r10kevctr reload and restart with a bad line: exit 6, the line named, the agent serves on"
initd stop >/dev/null || fail "stop"
initd status >/dev/null 2>&1; st=$?
[ "$st" = 3 ] || fail "status of a stopped agent: $st, not 3"
[ ! -e "$R/run/hw-r10kevctr/agent.pid" ] || fail "the pid file stayed after stop"
initd stop >/dev/null || fail "stop of a stopped agent: not 0"
initd reload >"$TMP/reload.out" 2>&1; st=$?
[ "$st" = 7 ] || fail "reload of a stopped agent: $st, not 7 (LSB: program is not running): $(cat "$TMP/reload.out")"
grep -q "not running" "$TMP/reload.out" || fail "reload of a stopped agent does not say why: $(cat "$TMP/reload.out")"
# An agent killed (no chance to remove its pid file): status says dead
# with a pid file (1); stop removes the stale file; status 3 again.
initd start >/dev/null 2>&1 || fail "start after stop"
wait_until 20 backend_served || fail "not served after start"
pid=$(cat "$R/run/hw-r10kevctr/agent.pid")
kill -KILL "$pid"
wait_until 10 sh -c "! kill -0 $pid" || fail "the agent did not die at SIGKILL"
[ -s "$R/run/hw-r10kevctr/agent.pid" ] || fail "no stale pid file after SIGKILL (nothing to test)"
initd status >/dev/null 2>&1; st=$?
[ "$st" = 1 ] || fail "status with a stale pid file: $st, not 1"
initd stop >/dev/null || fail "stop with a stale pid file: not 0"
[ ! -e "$R/run/hw-r10kevctr/agent.pid" ] || fail "stop left the stale pid file"
initd status >/dev/null 2>&1; st=$?
[ "$st" = 3 ] || fail "status after stop removed a stale pid file: $st, not 3"
rm -f "$R/etc/snmp/hw-r10kevctr.local.conf" "$R/etc/snmp/snmpd.conf.d/zz-test-alarm-admin.conf"
ok "/etc/init.d/hw-r10kevctr: start, status 0, a second start keeps the first, reload, restart (the created alarm row kept), stop, status 3, reload of a stopped agent 7, stop removes a stale pid file"
kill -TERM "$SNMPD_PID"; wait "$SNMPD_PID" 2>/dev/null

# ---------------------------------------------------------------- lifecycle
echo "# local change" >>"$R/etc/snmp/hw-r10kevctr.conf"
in_root dpkg -i "/tmp/$debname" >>"$TMP/apt.log" 2>&1 || fail "reinstall over itself"
grep -q "# local change" "$R/etc/snmp/hw-r10kevctr.conf" || fail "the reinstall lost a local change to the conffile"
in_root getent passwd hw-r10kevctr >/dev/null || fail "the user went at reinstall"
ok "reinstalled over itself: conffile kept, user kept"
# README.Debian's non-interactive upgrade, as printed there, over the
# edited conffile: a next revision of this package whose conffile changed
# too (dpkg would ask; without a terminal it would fail).
rm -rf "$TMP/next" && mkdir "$TMP/next"
dpkg-deb -R "$DEB" "$TMP/next/pkg" || fail "dpkg-deb -R"
ver=$(dpkg-deb -f "$DEB" Version)
sed -i "s/^Version: .*/Version: $ver+next1/" "$TMP/next/pkg/DEBIAN/control"
echo "# changed by the next revision" >>"$TMP/next/pkg/etc/snmp/hw-r10kevctr.conf"
(cd "$TMP/next/pkg" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort |
    xargs md5sum >DEBIAN/md5sums) || fail "md5sums of the next revision"
dpkg-deb --root-owner-group -b "$TMP/next/pkg" "$R/tmp/next.deb" >/dev/null || fail "dpkg-deb -b"
cmd=$(zcat -f "$R"/usr/share/doc/hw-r10kevctr/README.Debian* |
    sed -n '/apt-get -o Dpkg::Options::=--force-confdef/,/install hw-r10kevctr$/p' |
    tr -d '\\\n' | tr -s ' ' | sed 's/^ //; s/ install hw-r10kevctr$//')
case "$cmd" in apt-get\ *--force-confdef*--force-confold*) ;; *) fail "no upgrade command in README.Debian: $cmd" ;; esac
# shellcheck disable=SC2086
in_root env DEBIAN_FRONTEND=noninteractive $cmd install -y -q /tmp/next.deb </dev/null >>"$TMP/apt.log" 2>&1 ||
    { tail -n 20 "$TMP/apt.log"; fail "README.Debian's upgrade: $cmd install /tmp/next.deb"; }
[ "$(in_root dpkg-query -W -f='${Version}' hw-r10kevctr)" = "$ver+next1" ] || fail "not upgraded to $ver+next1"
grep -q "# local change" "$R/etc/snmp/hw-r10kevctr.conf" || fail "the upgrade lost the local change to the conffile"
grep -q "# changed by the next revision" "$R/etc/snmp/hw-r10kevctr.conf.dpkg-dist" ||
    fail "the package's new conffile is not left as .dpkg-dist"
ok "README.Debian's non-interactive upgrade ($cmd) to $ver+next1: the edited conffile kept, the new one as .dpkg-dist"
apt_ remove hw-r10kevctr >>"$TMP/apt.log" 2>&1 || fail "remove"
in_root test ! -e /usr/sbin/hw-r10kevctr-agent || fail "remove left the binary"
in_root test -e /etc/snmp/hw-r10kevctr.conf || fail "remove took the conffile (purge's job)"
apt_ purge hw-r10kevctr >>"$TMP/apt.log" 2>&1 || fail "purge"
left=
while read -r f; do in_root test -e "$f" && left="$left $f"; done <"$TMP/plain"
[ -z "$left" ] || fail "left after purge:$left"
# The system user and group stay (Debian practice; postrm and
# README.Debian say why): files elsewhere may still carry their ids.
in_root getent passwd hw-r10kevctr >/dev/null || fail "purge removed the system user"
in_root getent group hw-r10kevctr >/dev/null || fail "purge removed the system group"
in_root test -e /var/lib/hw-r10kevctr && fail "the state directory stayed after purge"
in_root dpkg -s hw-r10kevctr >/dev/null 2>&1 && fail "dpkg still knows the package"
ok "removed, then purged: none of its $(wc -l <"$TMP/plain") files; the system user and group kept"

# A host without snmpd: the package alone.  /var/agentx is this
# package's (its tmpfiles.d entry made it), the init script says once why
# it does not start, and purge leaves nothing of it.
apt_ purge snmpd >>"$TMP/apt.log" 2>&1 || fail "purge snmpd"
rm -rf "$R/var/agentx"
in_root getent group Debian-snmp >/dev/null && in_root groupdel Debian-snmp
apt_ install --no-install-recommends "/tmp/$debname" >>"$TMP/apt.log" 2>&1 ||
    { tail -n 30 "$TMP/apt.log"; fail "install without snmpd"; }
in_root test -d /var/agentx || fail "no /var/agentx without snmpd"
[ "$(in_root stat -c "%a %U %G" /var/log/hw-r10kevctr)" = "750 hw-r10kevctr adm" ] ||
    fail "/var/log/hw-r10kevctr is $(in_root stat -c "%a %U %G" /var/log/hw-r10kevctr)"
chroot "$R" /etc/init.d/hw-r10kevctr start >"$TMP/nogroup.out" 2>&1 ||
    fail "the init script failed without snmpd: $(cat "$TMP/nogroup.out")"
grep -q "group Debian-snmp does not exist" "$TMP/nogroup.out" ||
    fail "the init script did not say why it does not start: $(cat "$TMP/nogroup.out")"
mkdir -p "$R/run/hw-r10kevctr"
apt_ purge hw-r10kevctr >>"$TMP/apt.log" 2>&1 || fail "purge without snmpd"
for d in /var/agentx /var/log/hw-r10kevctr /run/hw-r10kevctr /etc/init.d/hw-r10kevctr \
    /etc/default/hw-r10kevctr; do
    in_root test -e "$d" && fail "purge without snmpd left $d"
done
ok "without snmpd: /var/agentx and /var/log/hw-r10kevctr made, the init script says why it does not start, purge leaves none of them"
# autopkgtest (debian/tests) in the same root, through its chroot
# testbed: it installs the package and the tests' dependencies with apt
# and runs each test.  Only debian/ is handed over (the source tree's
# builds stay out).
if command -v autopkgtest >/dev/null; then
    t=$(date +%s)
    mkdir -p "$TMP/src"
    cp -r "$(cd "$(dirname "$0")/../.." && pwd)/debian" "$TMP/src/"
    if autopkgtest "$DEB" "$TMP/src/" -- chroot "$R" >"$TMP/autopkgtest.log" 2>&1; then
        res=$(sed -n '/@@@@ summary/,$p' "$TMP/autopkgtest.log" | grep -E ' (PASS|FAIL|SKIP)' | tr -s ' ' | tr '\n' ';')
        ok "autopkgtest: $res $(grep '^ok:' "$TMP/autopkgtest.log" | head -1) ($(($(date +%s) - t)) s)"
    else
        tail -n 40 "$TMP/autopkgtest.log"; fail "autopkgtest"
    fi
else
    fail "autopkgtest not installed (tools/install-deps.sh --all)"
fi
ok "package root test: $(($(date +%s) - T0)) s; installed size $(dpkg-deb -f "$DEB" Installed-Size) KiB"
