#!/bin/sh
# The subagent starts before its master, and reconnects by itself when the
# master restarts, keeping its counters.
. "$(dirname "$0")/lib.sh"

# The agent first: it must wait for the master, not give up.
write_snmpd_conf
start_agent "backend sim
pollInterval 1
simCpus 2"
sleep 1
kill -0 "$AGENT_PID" || fail "the agent gave up without a master"
start_master
wait_until 20 agent_serving || fail "the subagent never connected to the late master"
ok "started before the master, connected when it came up"

set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
cycles=$1 polls=$2
restart_master
start=$(date +%s)
wait_until 20 agent_serving || fail "no reconnection after the master restarted"
took=$(( $(date +%s) - start ))
[ "$took" -le 10 ] || fail "reconnection took $took s"
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
[ "$1" -gt "$cycles" ] && [ "$2" -gt "$polls" ] ||
    fail "counters lost across the restart: $cycles/$polls -> $1/$2"
ok "serving again ${took}s after the master restart, counters kept ($cycles -> $1)"
