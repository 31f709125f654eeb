#!/bin/sh
# Faults around the agent, through a real master:
#  - the master killed (SIGKILL) and restarted 20 times: each time the
#    agent reconnects by itself, its counters never go backwards and the
#    walk of the module is complete;
#  - the AgentX socket path removed and recreated;
#  - the agent killed while a client walks: the master survives and serves
#    its own objects, the module goes and comes back with a new agent.
. "$(dirname "$0")/lib.sh"

CYCLES=${HWR_FAULT_CYCLES:-20}
ROOT=.1.3.6.1.4.1.8072.9999.9999.59
CONF="backend sim
pollInterval 1
simCpus 4"
start_master
start_agent "$CONF"
wait_until 20 agent_serving || fail "the subagent never answered"
more_polls 1
walk_count() { snmp snmpbulkwalk -m "" -On -Cr25 "$ROOT" | grep -c "^$ROOT\."; }
full=$(walk_count)
[ "$full" -gt 100 ] || fail "walk: $full objects"

last=$(snmpq snmpget hwR10kEvCtrCycles.0)
i=1
while [ "$i" -le "$CYCLES" ]; do
    kill -KILL "$SNMPD_PID"; wait "$SNMPD_PID" 2>/dev/null; SNMPD_PID=
    rm -f "$SOCK"
    "$SNMPD" -f -C -c "$TMP/snmpd.conf" -Lf "$TMP/snmpd.log" -M "$MIBPATH" \
        -m SNMPv2-MIB -p "$TMP/snmpd.pid" "udp:127.0.0.1:$PORT" &
    SNMPD_PID=$!
    wait_until 30 agent_serving || fail "cycle $i: the agent did not reconnect"
    now=$(snmpq snmpget hwR10kEvCtrCycles.0)
    [ "$now" -ge "$last" ] || fail "cycle $i: cycles went backwards: $last -> $now"
    n=$(walk_count)
    [ "$n" = "$full" ] || fail "cycle $i: walk has $n objects, not $full"
    kill -0 "$AGENT_PID" || fail "cycle $i: the agent died"
    last=$now
    i=$((i + 1))
done
ok "$CYCLES master SIGKILL/restart cycles: reconnected each time, counters monotonic, walk complete ($full)"

# The socket path removed under a running master: the open session goes
# on; a master restart recreates the path and the agent finds it again.
rm -f "$SOCK"
sleep 3
agent_serving || fail "removing the socket path broke the open session"
restart_master
wait_until 20 agent_serving || fail "no reconnection after the socket path was recreated"
ok "the socket path removed: the session stays; recreated: the agent reconnects"

# The agent killed during a walk: the master survives, the module goes.
( for _ in $(seq 40); do snmp snmpbulkwalk -m "" -On -Cr25 "$ROOT" >/dev/null; done ) &
walker=$!
sleep 0.5
kill -KILL "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=
gone() { snmp snmpget -m "" -On "$ROOT.1.4.4.0" | grep -q "No Such Object"; }
wait_until 20 gone || fail "the module did not leave the master"
snmp snmpget -On .1.3.6.1.2.1.1.3.0 | grep -q Timeticks || fail "the master died with the agent"
start_agent "$CONF"
wait_until 20 agent_serving || fail "a new agent did not come back"
kill "$walker" 2>/dev/null; wait "$walker" 2>/dev/null
more_polls 1
n=$(walk_count)
[ "$n" = "$full" ] || fail "after the agent restart the walk has $n objects, not $full"
ok "the agent killed mid-walk: the master survives, the module goes and comes back"
