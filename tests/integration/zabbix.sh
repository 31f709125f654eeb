#!/bin/sh
# Zabbix 6.0 end to end, with Debian's packages, all of it private: a
# PostgreSQL cluster in the test's directory (unix socket only) with
# Zabbix's schema, zabbix_server with its own config, ports and pid, and
# the frontend's API served by php -S on loopback (a copy of the frontend
# whose config path points into the test's directory: Debian's build reads
# /etc/zabbix/zabbix.conf.php, which the test never touches).  Through the
# API: the shipped template is imported (configuration.import) and linked
# to a matrix of hosts: three private masters with the agent replaying a
# recording of 4 CPUs in two groups whose rates change at every set
# (cycles 1 to 5 M/s, graduated instructions independently, so IPC
# varies; fucomp and vcc too: a rev 3.4 host counts fucomp, not vcc),
# CPU 3 away now and then, polling every 1, 5 and 10 s, each read every
# 15 s (per-CPU discovery turned on) and every 60 s (the template's
# defaults: the sums and the groups), one also over SNMPv3 authPriv (the
# user of conf/snmpd.conf.example, in host macros), a host whose
# recording ends, and one where no SNMP agent answers.  The hosts count 3 of the 31 events, as a perf host without a
# PMU counts a few: discovery makes items only for them, within a reading
# of linking; no item of a healthy host is unsupported at any time from
# linking on (checked at every step of the waits: the formulas call no
# function that fails with one value, a CPU away stores no value); every
# stored rate and ratio, summed, per group and per CPU, is within 0.1 %
# of the truth computed from the recording, for the two sets its
# readings of the counting time name, none is stored across a
# discontinuity of what it sums (a group's: its own CPUs' gaps), and the
# other group's are there across a group's gap; the problems raised are
# the ones that mean it (the dead host: only "No SNMP data collection";
# the ended recording: not counting, not multiplexed; the healthy hosts:
# none but CPU 3's discontinuities).  With an agent stopped, its items turn unsupported: no zeros.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/zabbix-lib.sh"
zbx_need
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && /usr/bin/python3 -c 'import selenium' 2>/dev/null ||
    { echo "SKIP: chromium, chromium-driver or python3-selenium not installed (the dashboard check)"; exit 77; }
T0=$(date +%s)

# --- the SNMP side: the matrix of masters and agents (lib.sh), replaying
# a recording whose rates vary: a set per poll, its TIME steps 0.8 to
# 1.2 s (the agent's clock, not the poll interval), per CPU cycles at 1 to
# 5 M/s and graduated instructions at 0.3 to 4 M/s, drawn independently
# at every set; fucomp steady, vcc (not served: rev 3.4).  4 CPUs in two
# groups (node0: 0-1, node1: 2-3); CPU 3 leaves for three sets now and
# then (GAPS), a discontinuity of node1 and of the sums, not of node0.
python3 - "$TMP/vary.replay" <<'PY'
import random, sys
random.seed(39)
CPUS = (0, 1, 2, 3)
GAPS = {s for g in (20, 30, 45, 60, 100, 180, 250) for s in range(g, g + 3)}
ms, cyc, ins, fu, vcc = 0, [1] * 4, [1] * 4, [1] * 4, [1] * 4
with open(sys.argv[1], "w") as f:
    f.write("group node0 0-1\ngroup node1 2-3\n")
    f.write("0.000 - hw.r10kevctr.cpurev 3.4\n")
    for k in range(2000):
        if k:
            dt = random.randint(800, 1200)
            ms += dt
            for c in CPUS:
                cyc[c] += round(random.uniform(1e6, 5e6) * dt / 1000)
                ins[c] += round(random.uniform(0.3e6, 4e6) * dt / 1000)
                fu[c] += 1000 * dt
                vcc[c] += 7 * dt
        for c in CPUS:
            if c == 3 and k in GAPS:
                continue
            for m, v in (("cycles", cyc), ("grad.instrg", ins), ("fucomp", fu), ("vcc", vcc)):
                f.write("%d.%03d %d hw.r10kevctr.%s %d\n" % (ms // 1000, ms % 1000, c, m, v[c]))
PY
start_matrix "backend replay
replayFile $TMP/vary.replay"

zbx_start
zbx_import

# --- the hosts: one per master and item interval, discovered every 5 s
GROUP=$(call hostgroup.get '{"filter": {"name": ["Linux servers"]}, "output": ["groupid"]}' | jq -r '.[0].groupid')
V2='"version": 2, "bulk": 1, "community": "public"'
# SNMPv3 as doc/nms.md sets it up: the interface names host macros
V3='"version": 3, "bulk": 1, "securityname": "{$HWR10K.SNMPV3.USER}", "securitylevel": 2,
    "authprotocol": 1, "authpassphrase": "{$HWR10K.SNMPV3.AUTHPASS}",
    "privprotocol": 1, "privpassphrase": "{$HWR10K.SNMPV3.PRIVPASS}", "contextname": ""'
phrase() { sed -n "s/^createUser hwr10kMonitor SHA \"\([^\"]*\)\" AES \"\([^\"]*\)\".*/\\$1/p" "$HWR_SRCDIR/conf/snmpd.conf.example"; }
V3MACROS=$(jq -cn --arg a "$(phrase 1)" --arg p "$(phrase 2)" '[
    {macro: "{$HWR10K.SNMPV3.USER}", value: "hwr10kMonitor"},
    {macro: "{$HWR10K.SNMPV3.AUTHPASS}", value: $a, type: 1},
    {macro: "{$HWR10K.SNMPV3.PRIVPASS}", value: $p, type: 1}]')
mkhost() { # mkhost NAME PORT INTERVAL DETAILS [MACROS-JSON]: the host's id
    call host.create "{\"host\": \"$1\",
    \"groups\": [{\"groupid\": \"$GROUP\"}], \"templates\": [{\"templateid\": \"$TPL\"}],
    \"interfaces\": [{\"type\": 2, \"main\": 1, \"useip\": 1, \"ip\": \"127.0.0.1\", \"dns\": \"\",
        \"port\": \"$2\", \"details\": {$4}}],
    \"macros\": $(jq -cn --arg i "$3" --arg n "$NODATA" --argjson m "${5:-[]}" '[
        {macro: "{$HWR10K.INTERVAL}", value: $i},
        {macro: "{$HWR10K.WINDOW}", value: (if $i == "15s" then "45s" else "3m" end)},
        {macro: "{$HWR10K.INFO.INTERVAL}", value: "30s"},
        {macro: "{$HWR10K.LLD.INTERVAL}", value: "5s"},
        {macro: "{$HWR10K.SNMP.TIMEOUT}", value: "30s"},
        {macro: "{$HWR10K.NODATA}", value: $n}] + $m')}" | jq -r '.hostids[0]'
}
# The healthy hosts' rates need their inputs' last two readings within
# {$HWR10K.WINDOW}: three intervals; the dead host's nodata trigger is
# due in {$HWR10K.NODATA}, 60 s.
# Per-CPU discovery is a choice (doc/nms.md): the 15 s hosts make it
# (the per-CPU counters walked, every CPU discovered), the 60 s hosts
# keep the default, the sums and the groups.
PERCPU='[{"macro": "{$HWR10K.CPU.WALK}", "value": "1.3.6.1.4.1.8072.9999.9999.59.1"},
    {"macro": "{$HWR10K.LLD.CPU.MATCHES}", "value": ".*"}]'
NODATA=150s
HOSTS= CPUHOSTS= GROUPHOSTS=
for pi in 1:$P1 5:$PORT_p5 10:$PORT_p10; do
    for iv in 15s 60s; do
        if [ $iv = 15s ]; then m=$PERCPU; else m='[]'; fi
        id=$(mkhost "poll${pi%%:*}-items$iv" "${pi#*:}" "$iv" "$V2" "$m")
        HOSTS="$HOSTS $id:poll${pi%%:*}-items$iv"
        if [ $iv = 15s ]; then CPUHOSTS="$CPUHOSTS $id"; else GROUPHOSTS="$GROUPHOSTS $id"; fi
    done
done
id=$(mkhost "poll5-items15s-v3" "$PORT_p5" 15s "$V3" "$(jq -cn --argjson a "$V3MACROS" --argjson b "$PERCPU" '$a + $b')")
HOSTS="$HOSTS $id:poll5-items15s-v3"; CPUHOSTS="$CPUHOSTS $id"
NODATA=60s
ENDED=$(mkhost ended "$PORT_ended" 15s "$V2" "$PERCPU")
DEAD=$(mkhost dead "$(free_port)" 15s "$V2")
T1=$(date +%s)
# Unsupported items of the healthy hosts, whenever a wait checks.
HEALTHY=$(for h in $HOSTS; do printf '"%s",' "${h%%:*}"; done); HEALTHY="[${HEALTHY%,}]"
watch_unsupported() {
    echo >>"$TMP/unsupported.checks"
    bad=$(call item.get "{\"hostids\": $HEALTHY, \"filter\": {\"state\": 1}, \"output\": [\"key_\", \"error\"]}")
    [ "$bad" = "[]" ] || echo "$(($(date +%s) - T1)) s after linking: $bad" >>"$TMP/unsupported.log"
}
itemid() { # itemid HOST KEY
    call item.get "{\"hostids\": [\"$1\"], \"filter\": {\"key_\": [\"$2\"]}, \"output\": [\"itemid\"]}" |
        jq -r '.[0].itemid // empty'
}
discovered() {
    watch_unsupported
    for h in $HOSTS; do [ -n "$(itemid "${h%%:*}" 'hwr10k.group.events[node1,cycles]')" ] || return 1; done
    # (CPU 3 too: a discovery during its gap makes it a reading later)
    for h in $CPUHOSTS; do
        [ -n "$(itemid "$h" 'hwr10k.cpu.events[1,cycles]')" ] && [ -n "$(itemid "$h" 'hwr10k.cpu.events[3,cycles]')" ] ||
            return 1
    done
}
wait_until 150 discovered || fail "low-level discovery made no item for group node1 on every host, or for CPU 1 on every per-CPU host"
HOST=${HOSTS%%:*}; HOST=${HOST# }
keys() { # keys HOST PREFIX: how many items' keys start with PREFIX
    call item.get "{\"hostids\": [\"$1\"], \"search\": {\"key_\": \"$2\"}, \"startSearch\": true, \"countOutput\": true}" | tr -d '"'
}
per_cpu=$(keys "$HOST" 'hwr10k.cpu.events[')
# per CPU, by default, the events the statistics use, of those counted
[ "$per_cpu" = 8 ] || fail "$per_cpu per-CPU event rates, expected 4 CPUs x (cycles, grad.instrg)"
per_group=$(keys "$HOST" 'hwr10k.group.events[')
[ "$per_group" = 6 ] || fail "$per_group per-group event rates, expected 2 groups x (cycles, grad.instrg, fucomp)"
for h in $GROUPHOSTS; do
    n=$(keys "$h" 'hwr10k.cpu.')
    [ "$n" = 0 ] || fail "$n per-CPU items on a host with the template's defaults"
    [ "$(keys "$h" 'hwr10k.group.events[')" = 6 ] || fail "the groups' rates not discovered with the template's defaults"
done
ok "LLD: the counted events, 2 groups (all hosts) and 4 CPUs (per-CPU hosts) discovered on $(echo $HOSTS | wc -w) hosts $(($(date +%s) - T1)) s after linking, $per_group per-group and $per_cpu per-CPU event rates each; no per-CPU item by default"

history() { # history HOST KEY TYPE: [[clock, ns, value], ...]
    id=$(itemid "$1" "$2")
    [ -n "$id" ] || { echo '[]'; return 0; }
    call history.get "{\"itemids\": [\"$id\"], \"history\": $3, \"sortfield\": \"clock\",
        \"sortorder\": \"ASC\", \"output\": \"extend\", \"limit\": 2000}" | jq -c '[.[] | [.clock, .ns, .value]]'
}
# Every 60 s host has three values of each item it is judged on.
enough() {
    watch_unsupported
    for h in $HOSTS; do
        [ "$(history "${h%%:*}" 'hwr10k.group.stat[node0,ipc]' 0 | jq length)" -ge 3 ] || return 1
    done
    for h in $CPUHOSTS; do
        [ "$(history "$h" 'hwr10k.cpu.stat[1,ipc]' 0 | jq length)" -ge 3 ] || return 1
    done
}
wait_until 360 enough || fail "Zabbix collected fewer than 3 values per item in 6 minutes"
# Every rate and ratio against the recording's truth.
JUDGED="hwr10k.events[cycles] hwr10k.events[grad.instrg] hwr10k.events[fucomp]
hwr10k.cpu.events[0,cycles] hwr10k.cpu.events[1,cycles] hwr10k.cpu.events[0,grad.instrg]
hwr10k.cpu.events[1,grad.instrg] hwr10k.stat[ipc] hwr10k.cpu.stat[0,ipc] hwr10k.cpu.stat[1,ipc]
hwr10k.group.events[node0,cycles] hwr10k.group.events[node1,cycles] hwr10k.group.events[node0,grad.instrg]
hwr10k.group.events[node1,grad.instrg] hwr10k.group.events[node0,fucomp] hwr10k.group.events[node1,fucomp]
hwr10k.group.stat[node0,ipc] hwr10k.group.stat[node1,ipc]"
# The counting time is read after the values: a value computed from a
# reading Zabbix had just stored is in the database only after that
# reading (a later history sync), never before it.
for h in $HOSTS; do
    { printf '{"items": {'
      sep=
      for k in $JUDGED; do printf '%s"%s": %s' "$sep" "$k" "$(history "${h%%:*}" "$k" 0)"; sep=,; done
      printf '}, "time": %s}\n' "$(history "${h%%:*}" hwr10k.counting.time 3)"; } >"$TMP/history.json"
    out=$(python3 "$HWR_SRCDIR/tests/nms/zabbix-truth.py" "$TMP/vary.replay" "$TMP/history.json" 0.1) ||
        fail "${h#*:}: $out"
    echo "ok: ${h#*:}: $out"
done
ok "matrix: pollInterval 1, 5, 10 s x items every 15 s, 60 s (and SNMPv3): every rate and ratio, summed, per group and per CPU, within 0.1 % of the recording's; none across a CPU's gap, the other group's there"

last() { # last HOST KEY HISTORY-TYPE
    call history.get "{\"itemids\": [\"$(itemid "$1" "$2")\"], \"history\": $3, \"sortfield\": \"clock\",
        \"sortorder\": \"DESC\", \"limit\": 1}" | jq -r '.[0].value // empty'
}
[ "$(last "$HOST" 'hwr10k.cpu.status[0]' 3)" = 1 ] || fail "CPU 0's status is not counting(1)"
[ "$(last "$HOST" hwr10k.cpurev 1)" = 3.4 ] || fail "cpurev: $(last "$HOST" hwr10k.cpurev 1)"
[ "$(last "$HOST" hwr10k.state 0)" = "$(snmpq snmpget hwR10kEvCtrState.0)" ] || fail "state: $(last "$HOST" hwr10k.state 0)"
ok "status counting, cpurev 3.4 (within minutes of linking), state as served"

# Items are made only where they can be supported: the recording is of
# rev 3.4, which counts fucomp and not vcc; 3 of the 31 events.
[ -n "$(itemid "$HOST" 'hwr10k.events[fucomp]')" ] || fail "no summed fucomp item on a rev 3.4 host"
vcc=$(call item.get "{\"hostids\": [\"$HOST\"], \"search\": {\"key_\": \"vcc\"}, \"countOutput\": true}" | tr -d '"')
[ "$vcc" = 0 ] || fail "$vcc vcc items on a rev 3.4 host"
for h in $HOSTS; do
    bad=$(call item.get "{\"hostids\": [\"${h%%:*}\"], \"filter\": {\"state\": 1}, \"output\": [\"key_\", \"error\"]}")
    [ "$bad" = "[]" ] || fail "${h#*:}: unsupported items: $bad"
done
nitems=$(call item.get "{\"hostids\": [\"$HOST\"], \"countOutput\": true}" | tr -d '"')
ok "no item that cannot be supported: fucomp made, vcc not; no unsupported item on any healthy host ($nitems items on poll1-items15s)"
[ ! -s "$TMP/unsupported.log" ] || fail "items unsupported after linking: $(head -c 800 "$TMP/unsupported.log")"
ok "never unsupported: no item of the healthy hosts in $(wc -l <"$TMP/unsupported.checks") checks from linking to $(($(date +%s) - T1)) s after"
# The timeline of a new host: the first stored rate and ratio, after linking.
first() { # first HOST KEY: seconds from linking to its first stored value ("-": no such item)
    [ -n "$(itemid "$1" "$2")" ] || { echo -; return 0; }
    call history.get "{\"itemids\": [\"$(itemid "$1" "$2")\"], \"history\": 0, \"sortfield\": \"clock\",
        \"sortorder\": \"ASC\", \"limit\": 1}" | jq -r --argjson t "$T1" '(.[0].clock // empty | tonumber) - $t'
}
for h in $HOSTS; do
    echo "ok: ${h#*:}: first summed cycles rate $(first "${h%%:*}" 'hwr10k.events[cycles]') s, first node0 IPC $(first "${h%%:*}" 'hwr10k.group.stat[node0,ipc]') s, first CPU 1 IPC $(first "${h%%:*}" 'hwr10k.cpu.stat[1,ipc]') s after linking"
done

# The template's dashboard in the real frontend (headless Chromium):
# every graph shows data.  HWR_ZABBIX_SCREENSHOT keeps the picture
# (doc/img/zabbix-dashboard.png is made so).
dash_png=${HWR_ZABBIX_SCREENSHOT:-$TMP/dashboard.png}
HOME=$TMP /usr/bin/python3 "$HWR_SRCDIR/tests/nms/zabbix-dashboard.py" "http://127.0.0.1:$WPORT" \
    "$HOST" "$dash_png" >"$TMP/dashboard.out" 2>&1 ||
    { cat "$TMP/dashboard.out"; fail "the dashboard's graphs do not all show data"; }
ok "dashboard in the frontend: $(grep -c '^graph:' "$TMP/dashboard.out") graphs with data, $(grep -c '^simple graph:' "$TMP/dashboard.out") simple graph ($dash_png)"

# Problems: each means what it says, one per fault.  CPU 3's gaps are
# discontinuities (an event, closed by hand), not more: its three sets
# away are no "CPUs not counting" (that is 5 minutes).
problems() { call problem.get "{\"hostids\": [\"$1\"], \"output\": [\"name\"]}" | jq -r '.[].name' | sort; }
for h in $HOSTS; do
    p=$(problems "${h%%:*}" | grep -v '^Event counter discontinuity$')
    [ -z "$p" ] || fail "problems on the healthy host ${h#*:}: $p"
done
ok "no problem on the $(echo $HOSTS | wc -w) healthy hosts but the gaps' discontinuities"
ended_ok() { problems "$ENDED" | grep -q '^CPU 0: event counters not counting$'; }
wait_until 60 ended_ok || fail "the ended recording's CPU 0 is not a problem: $(problems "$ENDED")"
if problems "$ENDED" | grep multiplexed; then fail "multiplexed raised for a CPU that is not counting"; fi
ok "ended recording: $(problems "$ENDED" | tr '\n' ';'), not multiplexed"
# The dead host: its nodata trigger ({$HWR10K.NODATA} 60 s) is past due
# and depends on "No SNMP data collection", the one problem.
while [ $(($(date +%s) - T1)) -lt 100 ]; do sleep 5; done
dead_ok() { [ "$(problems "$DEAD")" = "No SNMP data collection" ]; }
wait_until 60 dead_ok || fail "the dead host's problems: $(problems "$DEAD" | tr '\n' ';') (expected only No SNMP data collection)"
ok "dead host: one problem, No SNMP data collection"

# --- the agent stops: the master answers noSuchObject, items turn
# unsupported (the summed counter; a CPU's counter only goes without
# values: a CPU away is no error), nothing is stored as a zero.
stop_agent
since=$(date +%s)
CNT=$(itemid "$HOST" 'hwr10k.count[cycles]')
CYC=$(itemid "$HOST" 'hwr10k.cpu.events[1,cycles]')
unsupported() {
    [ "$(call item.get "{\"itemids\": [\"$CNT\"], \"output\": [\"state\"]}" | jq -r '.[0].state')" = 1 ]
}
wait_until 60 unsupported || fail "the summed cycles counter still supported with the agent stopped"
zeros=$(call history.get "{\"itemids\": [\"$CYC\"], \"history\": 0,
    \"time_from\": $since, \"output\": \"extend\"}" | jq '[.[] | select((.value | tonumber) == 0)] | length')
[ "$zeros" = 0 ] || fail "$zeros zero rates stored after the agent stopped"
ok "agent stopped: items unsupported, no zeros stored"
ok "zabbix: $(($(date +%s) - T0)) s in all"
