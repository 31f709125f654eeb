# lib.sh - sourced by the integration tests and by tools/demo.sh.
#
# Starts a private snmpd master (only our config, 127.0.0.1 on a free high
# port, AgentX socket in a temp dir) and the subagent, and kills both by
# PID when the script exits.  The real net-snmp command line tools talk to
# it.  Exit 77 (automake's "skip") when snmpd is not installed.
set -u

: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${HWR_BUILDDIR:=$HWR_SRCDIR}"
: "${HWR_VALGRIND:=}"
AGENT="$HWR_BUILDDIR/agent/hw-r10kevctr-agent"
SNMPD="${SNMPD:-$(command -v snmpd || echo /usr/sbin/snmpd)}"
SNMPTRAPD="${SNMPTRAPD:-$(command -v snmptrapd || echo /usr/sbin/snmptrapd)}"

[ -x "$SNMPD" ] || { echo "SKIP: snmpd not installed"; exit 77; }
[ -x "$AGENT" ] || { echo "FAIL: $AGENT not built"; exit 1; }

TMP=$(mktemp -d /tmp/hwr-it.XXXXXX)
# Every net-snmp process of the test (snmpd, snmptrapd, the agent, the
# command line tools) keeps its persistent state here, never in the
# host's /var/lib/snmp.
SNMP_PERSISTENT_DIR="$TMP/persist"
export SNMP_PERSISTENT_DIR
mkdir -p "$SNMP_PERSISTENT_DIR/cert_indexes" # (net-snmp says so when it must)
SOCK="$TMP/agentx.sock"
PORT=
AGENT_PID=
SNMPD_PID=
TRAPD_PID=
PMCD_PID=
EXTRA_PIDS= # a test's other servers (exporter, Prometheus, ...), stopped first
mkdir -p "$TMP/mibs"
cp "$HWR_SRCDIR/HW-R10KEVCTR-MIB.txt" "$HWR_SRCDIR/mib/ietf/HCNUM-TC.txt" "$TMP/mibs/"
if [ -z "${BASE_MIBDIR:-}" ]; then
    for d in /usr/share/snmp/mibs/ietf /usr/share/mibs/ietf /usr/lib/erlang/lib/snmp-*/mibs; do
        [ -e "$d/SNMPv2-SMI" ] || [ -e "$d/SNMPv2-SMI.txt" ] || [ -e "$d/SNMPv2-SMI.mib" ] &&
            { BASE_MIBDIR=$d; break; }
    done
fi
MIBPATH="$TMP/mibs:${NETSNMP_MIBDIRS:-/usr/share/snmp/mibs}:${BASE_MIBDIR:-}"
# Tools load only our module (and what it imports), so no MIB noise.
MIBOPTS="-M $MIBPATH -m HW-R10KEVCTR-MIB"

fail() { echo "FAIL: $*"; show_logs; exit 1; }
ok() { echo "ok: $*"; }
show_logs() {
    for f in "$TMP"/*.log; do
        [ -s "$f" ] && { echo "---- $f"; tail -n 40 "$f"; }
    done
    return 0
}

alive() { for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
# stop_procs SIG TENTHS TARGET...: SIG to each target (a PID, or -PGID for
# a process group), up to TENTHS tenths of a second for all to end, then
# SIGKILL to those left.  The caller waits for its own child.
stop_procs() {
    sig=$1 tenths=$2; shift 2
    for t in "$@"; do kill "-$sig" "$t" 2>/dev/null; done
    for _ in $(seq "$tenths"); do alive "$@" || break; sleep 0.1; done
    for t in "$@"; do kill -KILL "$t" 2>/dev/null; done
}
stop_pid() { # stop_pid PID: SIGTERM, wait, then SIGKILL; returns exit status
    [ -n "$1" ] || return 0
    kill -0 "$1" 2>/dev/null || return 0
    stop_procs TERM 50 "$1"
    wait "$1" 2>/dev/null
}

# stop_agent [WHAT]: stop the agent of $AGENT_PID (SIGTERM) and fail
# unless it exits 0: a sanitizer's or valgrind's report at exit is an exit
# status (make check-valgrind: 99), which a bare stop_pid would drop.
stop_agent() {
    stop_pid "$AGENT_PID"; _arc=$?
    AGENT_PID=
    [ "$_arc" = 0 ] || fail "${1:-the agent} exited with $_arc when stopped (a sanitizer or valgrind report?)"
}

cleanup() {
    rc=$?
    set +e # callers may run with set -e; cleanup must run to the end
    if [ -n "$AGENT_PID" ]; then
        stop_pid "$AGENT_PID"; arc=$?
        AGENT_PID=
        if [ "$arc" -ne 0 ] && [ "$rc" -eq 0 ]; then
            echo "FAIL: the agent exited with $arc at shutdown (sanitizer or valgrind report?)"
            rc=1
        fi
    fi
    stop_pid "$TRAPD_PID"
    stop_pid "$PMCD_PID"
    for pid in $EXTRA_PIDS; do stop_pid "$pid"; done
    stop_pid "$SNMPD_PID"
    # every request the master sent parsed and was for our session
    # (lib/session/ax_session_io.c logs each that was not), unless the test sent such ones
    if [ "$rc" -eq 0 ] && [ -z "${EXPECT_PROTOCOL_ERRORS:-}" ] &&
        grep -s "does not parse\|answered notOpen\|cannot be framed" "$TMP/agent.log"; then
        echo "FAIL: the master sent a request the agent could not take"
        rc=1
    fi
    # a stop leaves the backend unclosed only when its read is stuck
    # (agent_reader_stop in agent/reader.c): never in a test without a stall
    if [ "$rc" -eq 0 ] && [ -z "${EXPECT_STALL:-}" ] &&
        grep -s "stalls; exiting without closing it" "$TMP/agent.log"; then
        echo "FAIL: the agent left its backend at a stop with no stall"
        rc=1
    fi
    [ "$rc" -eq 0 ] || show_logs
    if [ "$rc" -eq 0 ] && [ -z "${HWR_KEEP_TMP:-}" ]; then rm -rf "$TMP"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

write_snmpd_conf() {
    cat >"$TMP/snmpd.conf" <<CONF
# private master for the hw-r10kevctr tests (read by snmpd -C -c only)
master agentx
agentXSocket unix:$SOCK
agentXPerms 0600 0700
rocommunity public 127.0.0.1
# read-write, so that a SET reaches the subagent (which refuses it)
rwcommunity private 127.0.0.1
dontLogTCPWrappersConnects yes
${TRAPSINK:-}
${SNMPD_EXTRA:-}
CONF
}

# start_master: snmpd on a free loopback port; sets PORT and SNMPD_PID.
start_master() {
    write_snmpd_conf
    for try in 1 2 3 4 5 6 7 8; do
        PORT=${PORT:-$((20000 + ($$ * 7 + try * 131) % 30000))}
        rm -f "$TMP/snmpd.pid"
        "$SNMPD" -f -C -c "$TMP/snmpd.conf" -Lf "$TMP/snmpd.log" \
            -M "$MIBPATH" -m SNMPv2-MIB -p "$TMP/snmpd.pid" \
            "udp:127.0.0.1:$PORT" &
        SNMPD_PID=$!
        for _ in $(seq 50); do
            [ -S "$SOCK" ] && break
            kill -0 "$SNMPD_PID" 2>/dev/null || break
            sleep 0.1
        done
        [ -S "$SOCK" ] && kill -0 "$SNMPD_PID" 2>/dev/null && return 0
        wait "$SNMPD_PID" 2>/dev/null; SNMPD_PID=; PORT=
    done
    fail "snmpd would not start"
}

# restart_master: kill snmpd and start it again on the same port.
restart_master() {
    stop_pid "$SNMPD_PID"; SNMPD_PID=
    rm -f "$SOCK"
    "$SNMPD" -f -C -c "$TMP/snmpd.conf" -Lf "$TMP/snmpd.log" -M "$MIBPATH" \
        -m SNMPv2-MIB -p "$TMP/snmpd.pid" "udp:127.0.0.1:$PORT" &
    SNMPD_PID=$!
}

# start_agent CONF-TEXT: the subagent with this config (file agent.conf).
start_agent() {
    printf '%s\n' "$1" >"$TMP/agent.conf"
    # shellcheck disable=SC2086
    $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x "unix:$SOCK" \
        -Lf "$TMP/agent.log" -p "$TMP/agent.pid" &
    AGENT_PID=$!
}

# start_watched_agent: the subagent on $TMP/agent.conf as systemd starts
# it with a watchdog: WATCHDOG_USEC 1 s, WATCHDOG_PID its own pid (exec
# keeps the shell's), and systemd's side of NOTIFY_SOCKET (as
# sdnotify.sh), a listener writing every datagram to $TMP/notify.log.
# Sets AGENT_PID and LISTEN_PID (which joins EXTRA_PIDS).
start_watched_agent() {
    NOTIFY=$TMP/notify.sock
    python3 "$HWR_SRCDIR/tests/sdnotify/listen.py" "$NOTIFY" "$TMP/notify.log" &
    LISTEN_PID=$!
    EXTRA_PIDS="$EXTRA_PIDS $LISTEN_PID"
    wait_until 10 test -S "$NOTIFY" || fail "the listener did not start"
    # shellcheck disable=SC2086
    NOTIFY_SOCKET=$NOTIFY WATCHDOG_USEC=1000000 sh -c \
        'WATCHDOG_PID=$$ exec $0 "$@"' $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" \
        -x "unix:$SOCK" -Lf "$TMP/agent.log" &
    AGENT_PID=$!
}

# start_second_master NAME: one more snmpd with the master's config on
# its own socket ($TMP/NAME.sock) and port (sets PORT_NAME; its pid joins
# EXTRA_PIDS, stopped at exit).
start_second_master() {
    pn=$1 psock=$TMP/$1.sock
    sed "s|unix:$SOCK|unix:$psock|" "$TMP/snmpd.conf" >"$TMP/$pn-snmpd.conf"
    for try in 1 2 3 4 5 6 7 8; do
        pport=$((20000 + ($$ * 11 + try * 191 + ${#EXTRA_PIDS} * 37) % 30000))
        "$SNMPD" -f -C -c "$TMP/$pn-snmpd.conf" -Lf "$TMP/$pn-snmpd.log" \
            -M "$MIBPATH" -m SNMPv2-MIB -p "$TMP/$pn-snmpd.pid" "udp:127.0.0.1:$pport" &
        ppid=$!
        for _ in $(seq 50); do
            [ -S "$psock" ] && break
            kill -0 "$ppid" 2>/dev/null || break
            sleep 0.1
        done
        [ -S "$psock" ] && kill -0 "$ppid" 2>/dev/null && break
        wait "$ppid" 2>/dev/null; ppid=
    done
    [ -n "$ppid" ] || fail "snmpd for $pn would not start"
    EXTRA_PIDS="$EXTRA_PIDS $ppid"
    eval "PORT_$pn=$pport"
}

# start_pair NAME AGENT-CONF-TEXT: one more master and subagent, for a
# test that polls several hosts (start_master first: the master's config
# is its; files $TMP/NAME-*, socket $TMP/NAME.sock).  Sets PORT_NAME; both
# are stopped at exit (the agent first).
start_pair() {
    start_second_master "$1"
    printf '%s\n' "$2" >"$TMP/$pn-agent.conf"
    # shellcheck disable=SC2086
    $HWR_VALGRIND "$AGENT" -f -C -c "$TMP/$pn-agent.conf" -x "unix:$psock" \
        -Lf "$TMP/$pn-agent.log" -p "$TMP/$pn-agent.pid" &
    EXTRA_PIDS="$! $EXTRA_PIDS"
}

# start_matrix CONF: the NMS engines' matrix of hosts: masters with
# the production example's SNMPv3 user and view, the agent with CONF
# polling every 1 s (PORT, kept in P1), 5 s (PORT_p5) and 10 s
# (PORT_p10), and a replay of 2 CPUs whose CPU 1 leaves at the third set
# and which ends at the fourth (PORT_ended: rows ended, duty cycle 0);
# returns once every agent serves.  @POLL@ in CONF is the host's
# pollInterval (a recording per interval: replayFile $TMP/rec@POLL@).
start_matrix() {
    SNMPD_EXTRA=$(grep -E '^(view|createUser|rouser) ' "$HWR_SRCDIR/conf/snmpd.conf.example")
    start_master
    start_agent "$(echo "$1" | sed s/@POLL@/1/g)
pollInterval 1"
    start_pair p5 "$(echo "$1" | sed s/@POLL@/5/g)
pollInterval 5"
    start_pair p10 "$(echo "$1" | sed s/@POLL@/10/g)
pollInterval 10"
    for t in 0 1 2 3; do
        for cpu in 0 1; do
            [ "$t" -ge 2 ] && [ "$cpu" = 1 ] && continue
            echo "$t $cpu hw.r10kevctr.cycles $((t * 1000000 + 1))"
            echo "$t $cpu hw.r10kevctr.grad.instrg $((t * 400000 + 1))"
        done
    done >"$TMP/ends.replay"
    start_pair ended "backend replay
replayFile $TMP/ends.replay
pollInterval 1"
    P1=$PORT
    for p in $PORT_p5 $PORT_p10 $PORT_ended $P1; do
        PORT=$p
        wait_until 30 agent_serving || fail "the subagent on port $p never answered"
    done
}

snmp() { # snmp TOOL ARGS...: a v2c request to the master (community public,
    # or $SNMP_COMMUNITY: the test master's read-write one is private)
    tool=$1; shift
    # shellcheck disable=SC2086
    "$tool" -v2c -c "${SNMP_COMMUNITY:-public}" -r 2 -t 1 $MIBOPTS "udp:127.0.0.1:$PORT" "$@" 2>&1
}
snmpq() { # value only: snmpq TOOL OID...
    tool=$1; shift
    snmp "$tool" -OUqvt "$@"
}

# free_port: a free loopback TCP port in 10000..31999 (Zabbix takes none
# above 32767), for a test's other servers.
free_port() {
    python3 -c '
import random, socket
for _ in range(200):
    p = random.randrange(10000, 32000)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        s.close()'
}

# within PERCENT GOT WANT: |GOT - WANT| <= WANT * PERCENT / 100.
within() { awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'; }

# wait_until SECONDS CMD...: retry CMD every 0.2 s until it succeeds.
wait_until() {
    limit=$(( $1 * 5 )); shift
    for _ in $(seq "$limit"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
    return 1
}
# The stall tests' measures: one GET that does not retry (-t 1 -r 0: the
# master's AgentX timeout is 1 s, so a subagent that does not answer in
# time shows).  get_count OBJECT: its .0 value, -1 when there is none;
# get_at_least OBJECT N.
get_count() {
    # shellcheck disable=SC2086
    v=$(snmpget -v2c -c public -r 0 -t 1 $MIBOPTS -OUqv "udp:127.0.0.1:$PORT" "$1.0" 2>&1)
    case $v in '' | *[!0-9]*) echo -1 ;; *) echo "$v" ;; esac
}
get_at_least() { [ "$(get_count "$1")" -ge "$2" ]; }
# timed_gets FILE: GETs one at a time until FILE.stop exists, each line
# "START_NS MS ok|timeout|lost" (lost: the master answered without the
# subagent, noSuchObject, as after it closed a session that timed out).
timed_gets() {
    while [ ! -e "$1.stop" ]; do
        t0=$(date +%s%N)
        # shellcheck disable=SC2086
        if v=$(snmpget -v2c -c public -r 0 -t 1 $MIBOPTS \
            "udp:127.0.0.1:$PORT" hwR10kEvCtrNumCpus.0 -OUqv 2>&1); then
            case $v in '' | *[!0-9]*) st=lost ;; *) st=ok ;; esac
        else
            st=timeout
        fi
        echo "$t0 $((($(date +%s%N) - t0) / 1000000)) $st" >>"$1"
    done
}
# Polls, counted rather than timed (the suite runs on loaded machines too):
polls() { snmpq snmpget hwR10kEvCtrPolls.0; } # hwR10kEvCtrPolls
polls_past() { p=$(polls) && [ "$p" -ge "$1" ]; } # polls_past N: at least N
more_polls() { # more_polls K: wait until K more polls are served
    mp=$(polls) || fail "hwR10kEvCtrPolls not served"
    wait_until $((20 * $1)) polls_past $((mp + $1)) || fail "no $1 polls after poll $mp"
}
# wait_polls N CMD...: retry CMD every 0.2 s until it succeeds, while the
# agent serves at most N more polls: a loaded machine polls late, not
# less, so a recording's end is N polls away however slow.  Gives up as
# well when no poll is served in 300 tries (a minute or more).
wait_polls() {
    wp_n=$1; shift
    wp_start=$(polls) || return 1
    wp_last=$wp_start wp_idle=0
    while ! "$@" >/dev/null 2>&1; do
        wp_now=$(polls) || wp_now=$wp_last
        [ $((wp_now - wp_start)) -le "$wp_n" ] || return 1
        if [ "$wp_now" = "$wp_last" ]; then
            wp_idle=$((wp_idle + 1)); [ "$wp_idle" -le 300 ] || return 1
        else
            wp_idle=0 wp_last=$wp_now
        fi
        sleep 0.2
    done
}
# The objects the truth tests (truth-gaps.sh, truth-span.sh) GET at each
# poll, in one PDU: counts, rates and IPC of cycles and grad.instrg,
# summed and on CPUs 0 and 1.
truth_objs() {
    objs="hwR10kEvCtrPolls.0 hwR10kEvCtrDiscontinuityTime.0"
    for o in Cycles GradInstrg; do
        objs="$objs hwR10kEvCtr$o.0 hwR10kEvCtrRate$o.0"
        for cpu in 0 1; do objs="$objs hwR10kEvCtrCpu$o.$cpu hwR10kEvCtrCpuRate$o.$cpu"; done
    done
    echo "$objs hwR10kEvCtrStatIpc.0 hwR10kEvCtrCpuStatIpc.0 hwR10kEvCtrCpuStatIpc.1"
}
agent_serving() {
    out=$(snmp snmpget -Oqv hwR10kEvCtrNumCpus.0) && case "$out" in [0-9]*) true ;; *) false ;; esac
}

# start_trapd: snmptrapd on a free loopback port logging to trapd.log; the
# master (started after this) sends its notifications there.
start_trapd() {
    [ -x "$SNMPTRAPD" ] || { echo "SKIP: snmptrapd not installed"; exit 77; }
    # The shipped example (as built for this prefix) with the shipped
    # handler from the source tree, writing its lines to handler.log.
    # A test that hands them elsewhere writes $TMP/snmptrapd.conf first.
    if [ ! -f "$TMP/snmptrapd.conf" ]; then
        sed "s|[^ ]*/hwr10k-notify|$HWR_SRCDIR/conf/hwr10k-notify|" \
            "$HWR_BUILDDIR/conf/snmptrapd.conf.example" >"$TMP/snmptrapd.conf"
    fi
    HWR10K_NOTIFY_LOG=$TMP/handler.log
    export HWR10K_NOTIFY_LOG
    # The example's own command line ("snmptrapd -m ... -M ... ..."),
    # the MIB directory of this build replaced by the test's copy.
    topts=$(sed -n 's/^#   snmptrapd \(.*\) \.\.\.$/\1/p' "$HWR_BUILDDIR/conf/snmptrapd.conf.example" |
        sed "s|\"+[^:]*:|\"+$TMP/mibs:|")
    [ -n "$topts" ] || fail "no snmptrapd command line in snmptrapd.conf.example"
    for try in 1 2 3 4 5 6 7 8; do
        TPORT=$((20000 + ($$ * 13 + try * 277) % 30000))
        : >"$TMP/trapd.log"
        eval "set -- $topts"
        # shellcheck disable=SC2086
        "$SNMPTRAPD" "$@" -f -C -c "$TMP/snmptrapd.conf" -Lf "$TMP/trapd.log" \
            ${TRAPD_OPTS:-} "udp:127.0.0.1:$TPORT" &
        TRAPD_PID=$!
        wait_until 5 grep -q 'NET-SNMP version' "$TMP/trapd.log"
        kill -0 "$TRAPD_PID" 2>/dev/null && break
        wait "$TRAPD_PID" 2>/dev/null; TRAPD_PID=
    done
    [ -n "$TRAPD_PID" ] || fail "snmptrapd would not start"
    if grep -i 'bad trap OID\|cannot find module\|unlinked OID\|cannot adopt' "$TMP/trapd.log"; then
        fail "snmptrapd, started as snmptrapd.conf.example says, did not load its handlers"
    fi
    TRAPSINK="trap2sink udp:127.0.0.1:$TPORT public"
}

# start_pmcd: a private pmcd (PCP) with the pmcd and linux PMDAs on a free
# loopback port, its namespace, logs, sockets and the PMDAs' caches under
# $TMP (never /var/lib/pcp or /run/pcp); sets PMCD_PORT and PMCD_PID.
# Exit 77 when PCP is not installed.
start_pmcd() {
    [ -n "${PMCD:-}" ] && [ -x "$PMCD" ] || { echo "SKIP: pmcd not installed"; exit 77; }
    pmdas=${PCP_PMDAS_DIR:-/var/lib/pcp/pmdas}
    pmns=${PCP_PMNS_DIR:-/var/lib/pcp/pmns}
    mkdir -p "$TMP/pcp/config/pmda" "$TMP/pcp/tmp" "$TMP/pcp/run" "$TMP/pcp/log/pmcd"
    [ -f "$TMP/pcp/root" ] || "$PMNSMERGE" "$pmns/root_root" "$pmns/root_pmcd" \
        "$pmns/root_linux" "$TMP/pcp/root" >"$TMP/pmnsmerge.log" 2>&1 ||
        fail "pmnsmerge could not build a namespace"
    printf 'pmcd\t2\tdso\tpmcd_init\t%s/pmcd/pmda_pmcd.so\nlinux\t60\tpipe\tbinary\t%s/linux/pmdalinux\n' \
        "$pmdas" "$pmdas" >"$TMP/pmcd.conf"
    fixed=${PMCD_PORT:-} # a restart keeps its port
    for try in 1 2 3 4 5 6; do
        PMCD_PORT=${fixed:-$((20000 + ($$ * 13 + try * 277) % 30000))}
        rm -f "$TMP/pcp/pmcd.socket" # left by a killed pmcd
        # from $TMP: a PMDA may log into its working directory
        (cd "$TMP/pcp" && PCP_VAR_DIR="$TMP/pcp" PCP_TMP_DIR="$TMP/pcp/tmp" \
            PCP_RUN_DIR="$TMP/pcp/run" PCP_LOG_DIR="$TMP/pcp/log" PCP_PMDAS_DIR="$pmdas" \
            exec "$PMCD" -f -A -i 127.0.0.1 -p "$PMCD_PORT" -s "$TMP/pcp/pmcd.socket" \
            -c "$TMP/pmcd.conf" -l "$TMP/pmcd.log" -n "$TMP/pcp/root") &
        PMCD_PID=$!
        wait_until 10 "$PMINFO" -h "localhost:$PMCD_PORT" -f kernel.percpu.intr && return 0
        stop_pid "$PMCD_PID"; PMCD_PID=
        [ -n "$fixed" ] && sleep 1
    done
    fail "pmcd would not start"
}
