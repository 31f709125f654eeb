#!/bin/sh
# bench/zabbix-scale.sh [--cpus N] [--groups G] [--per-cpu] [--minutes M]
#                        [--interval 1m] [--cache-size 32M]
#
# What one host of N CPUs costs Zabbix 6.0 with the shipped template
# (conf/zabbix), measured: the agent's sim backend serving N CPUs (every
# event counted) in G groups (simNodes, default 16) behind
# a private snmpd, linked as one SNMPv2 host to a private zabbix_server
# with Zabbix's default process counts (tests/integration/zabbix-lib.sh:
# Debian's packages, PostgreSQL and the frontend's API in a temp dir, all
# stopped by PID at exit).  Prints how long discovery took and how many
# items it made, how many are unsupported, then over M minutes of steady
# readings: the values stored a minute, the CPU each kind of Zabbix
# process, PostgreSQL, snmpd and the agent used (% of one core, from
# /proc/PID/stat), and the database's growth.  The template's defaults
# read the sums and the groups; --per-cpu sets the two macros that add
# the per-CPU items (doc/nms.md; ten events per CPU by default).
#
# --cache-size sets the server's CacheSize (its configuration cache;
# Zabbix's default 32M holds the template's items up to a few hundred
# CPUs, see bench/README.md); a server that exits fails the run.
#
# Root, the packages of `tools/install-deps.sh --all`, and a build tree:
# HWR_BUILDDIR (default build-bench, as bench/compare.sh makes it).
# Minutes to an hour at 1024 CPUs: not a test, never run by CI.
set -u
HWR_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
: "${HWR_BUILDDIR:=$HWR_SRCDIR/build-bench}"
export HWR_SRCDIR HWR_BUILDDIR
cpus=1024 groups=16 percpu= minutes=5 interval=1m
while [ $# -gt 0 ]; do
    case $1 in
    --cpus) cpus=$2; shift ;;
    --groups) groups=$2; shift ;;
    --per-cpu) percpu=1 ;;
    --minutes) minutes=$2; shift ;;
    --interval) interval=$2; shift ;;
    --cache-size) ZBX_CACHESIZE=$2; shift ;;
    *) echo "usage: $0 [--cpus N] [--groups G] [--per-cpu] [--minutes M] [--interval 1m] [--cache-size 32M]" >&2
       exit 2 ;;
    esac
    shift
done
. "$HWR_SRCDIR/tests/integration/lib.sh"
. "$HWR_SRCDIR/tests/integration/zabbix-lib.sh"
zbx_need
# Zabbix's defaults for a server (the tests run fewer, and reload the
# configuration every 2 s).
ZBX_POLLERS=5 ZBX_PREPROCESSORS=3 ZBX_DBSYNCERS=4 ZBX_CACHEUPDATE=60
start_master
start_agent "backend sim
simCpus $cpus
simNodes $groups
pollInterval 5"
wait_until 30 agent_serving || fail "the agent did not register"
zbx_start
zbx_import

# The API polled every 5 s, not the tests' 0.2 s: it is part of the load.
# The server, not exited (an exited child not yet waited for is a zombie,
# which kill -0 still finds).
server_up() { ! grep -q '^State:[[:space:]]*Z' "/proc/$ZS_PID/status" 2>/dev/null &&
    [ -e "/proc/$ZS_PID" ]; }
slowly() { # slowly SECONDS CMD...
    n=$(($1 / 5)); shift
    for _ in $(seq "$n"); do
        server_up || fail "zabbix_server exited: $(grep -m1 -i 'out of memory\|increase\|cannot' "$TMP/zabbix/zabbix_server.log")"
        "$@" >/dev/null 2>&1 && return 0
        sleep 5
    done
    return 1
}
# The item count the template makes (doc/nms.md, "What it costs"), for
# the events this agent counts: the sim counts 30 of the 31 (not vcc,
# which the R10000 revision it reports has not).
events=$(snmp snmpbulkwalk -Cr64 hwR10kEvCtrMetrics | grep -c Counter64)
[ "$events" -gt 0 ] || fail "the agent serves no event counter"
# Per group: discontinuity time, CPUs, CPUs counting, each event's
# counter and rate, five statistics; per CPU (--per-cpu): status, duty
# cycle, counter and rate of ten events, five statistics.
expect=$((9 + 2 * events + 5 + groups * (3 + 2 * events + 5) + ${percpu:+cpus * 27 +} 0))
# the rates' window: three readings (doc/nms.md)
case $interval in
*s) window=$((${interval%s} * 3))s ;;
*m) window=$((${interval%m} * 3))m ;;
*) window=$((interval * 3)) ;;
esac
macros='{"macro": "{$HWR10K.INTERVAL}", "value": "'$interval'"}, {"macro": "{$HWR10K.WINDOW}", "value": "'$window'"}'
[ -z "$percpu" ] || macros="$macros"', {"macro": "{$HWR10K.CPU.WALK}", "value": "1.3.6.1.4.1.8072.9999.9999.59.1"},
    {"macro": "{$HWR10K.LLD.CPU.MATCHES}", "value": ".*"}'
GROUP=$(call hostgroup.get '{"filter": {"name": ["Linux servers"]}, "output": ["groupid"]}' | jq -r '.[0].groupid')
HOST=$(call host.create "{\"host\": \"sim-$cpus\",
    \"groups\": [{\"groupid\": \"$GROUP\"}], \"templates\": [{\"templateid\": \"$TPL\"}],
    \"interfaces\": [{\"type\": 2, \"main\": 1, \"useip\": 1, \"ip\": \"127.0.0.1\", \"dns\": \"\",
        \"port\": \"$PORT\", \"details\": {\"version\": 2, \"bulk\": 1, \"community\": \"public\"}}],
    \"macros\": [$macros]}" | jq -r '.hostids[0]')
T1=$(date +%s)
# The server's own caches, as three Zabbix internal items on the host.
for k in 'zabbix[rcache,buffer,used]:3' 'zabbix[vcache,buffer,used]:3' 'zabbix[wcache,history,pused]:0'; do
    call item.create "{\"hostid\": \"$HOST\", \"name\": \"${k%:*}\", \"key_\": \"${k%:*}\",
        \"type\": 5, \"value_type\": ${k##*:}, \"delay\": \"1m\"}" >/dev/null
done
internal() { # internal KEY: its last value
    call item.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"key_\": [\"$1\"]}, \"output\": [\"lastvalue\"]}" |
        jq -r '.[0].lastvalue'
}
count() { call item.get "{\"hostids\": [\"$HOST\"], \"countOutput\": true$1}" | tr -d '"'; }
made() { [ "$(count '')" -ge $((expect + 3)) ]; }
slowly 3600 made || fail "after an hour, $(($(count '') - 3)) items of $expect"
ok "$cpus CPUs in $groups groups${percpu:+, per CPU}, $events events: $(($(count '') - 3)) items (expected $expect) $(($(date +%s) - T1)) s after linking"
# The last CPU's IPC (--per-cpu), else the last group's, else the sums'.
if [ -n "$percpu" ]; then last="CPU $((cpus - 1))" key="hwr10k.cpu.stat[$((cpus - 1)),ipc]"
elif [ "$groups" -gt 0 ]; then last="node$((groups - 1))" key="hwr10k.group.stat[node$((groups - 1)),ipc]"
else last="the sums" key='hwr10k.stat[ipc]'; fi
ipc_id=$(call item.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"key_\": [\"$key\"]},
    \"output\": [\"itemid\"]}" | jq -r '.[0].itemid')
ipc_values() {
    call history.get "{\"itemids\": [\"$ipc_id\"], \"history\": 0, \"countOutput\": true}" | tr -d '"'
}
flowing() { [ "$(ipc_values)" -ge 2 ]; }
slowly 1800 flowing || fail "$last's IPC has $(ipc_values) values after 30 minutes"
ok "$last's IPC stored $(($(date +%s) - T1)) s after linking; $(count ', "filter": {"state": 1}') items unsupported"

# CPU ticks of a process and its children's as they stand (utime +
# stime), by kind: zabbix_server's processes by title, the rest by PID.
HZ=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
kinds() { # "kind ticks" per process
    for p in $(ps -o pid= --ppid "$ZS_PID") "$ZS_PID"; do
        k=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null |
            sed -n 's/^[^:]*: \([a-z ]*[a-z]\).*/\1/p')
        echo "${k:-server main} $(ticks "$p")"
    done
    for p in $(ps -o pid= --ppid "$PG_PID") "$PG_PID"; do echo "postgresql $(ticks "$p")"; done
    echo "snmpd $(ticks "$SNMPD_PID")"
    echo "agent $(ticks "$AGENT_PID")"
}
dbsize() { psql_ -d zabbix -At -c "select pg_database_size('zabbix')"; }
values() { # values stored since $1
    f=$(call history.get "{\"hostids\": [\"$HOST\"], \"history\": 0, \"time_from\": $1, \"countOutput\": true}" | tr -d '"')
    u=$(call history.get "{\"hostids\": [\"$HOST\"], \"history\": 3, \"time_from\": $1, \"countOutput\": true}" | tr -d '"')
    echo $((f + u))
}
kinds >"$TMP/cpu0"; s0=$(dbsize); w0=$(date +%s)
sleep $((minutes * 60))
kinds >"$TMP/cpu1"; s1=$(dbsize); w1=$(date +%s)
n=$(values "$w0")
ok "over $((w1 - w0)) s: $((n * 60 / (w1 - w0))) values stored a minute; the database grew $(((s1 - s0) / 1024)) KiB ($(((s1 - s0) * 3600 / (w1 - w0) / 1048576)) MiB an hour)"
echo "CPU, % of one core, over the window:"
awk -v hz="$HZ" -v secs=$((w1 - w0)) '
    NR == FNR { k = $0; sub(/ [0-9]+$/, "", k); a[k] += $NF; next }
    { k = $0; sub(/ [0-9]+$/, "", k); b[k] += $NF }
    END { for (k in b) printf "  %-28s %6.2f\n", k, (b[k] - a[k]) * 100 / hz / secs }' \
    "$TMP/cpu0" "$TMP/cpu1" | sort -k1,1
ok "unsupported at the end: $(count ', "filter": {"state": 1}')"
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
ok "the server's caches: configuration $(mib "$(internal 'zabbix[rcache,buffer,used]')") MiB used (CacheSize ${ZBX_CACHESIZE:-32M}), value cache $(mib "$(internal 'zabbix[vcache,buffer,used]')") MiB, history cache $(internal 'zabbix[wcache,history,pused]') % full"
