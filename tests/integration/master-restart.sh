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

sleep 4 # so the first master's uptime is well ahead of the second's
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0 hwR10kEvCtrLastPollTime.0)
cycles=$1 polls=$2 before=$3
restart_master
start=$(date +%s)
wait_until 20 agent_serving || fail "no reconnection after the master restarted"
took=$(( $(date +%s) - start ))
[ "$took" -le 10 ] || fail "reconnection took $took s"
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
[ "$1" -gt "$cycles" ] && [ "$2" -gt "$polls" ] ||
    fail "counters lost across the restart: $cycles/$polls -> $1/$2"
ok "serving again ${took}s after the master restart, counters kept ($cycles -> $1)"

# TimeStamps follow the new master's sysUpTime (RFC 2579): never ahead of it.
more_polls 1 # at least one poll on the new master's clock
set -- $(snmpq snmpget .1.3.6.1.2.1.1.3.0 hwR10kEvCtrLastPollTime.0 hwR10kEvCtrDiscontinuityTime.0)
[ "$2" -le "$1" ] && [ "$3" -le "$1" ] ||
    fail "TimeStamps ahead of the new sysUpTime $1: last poll $2, discontinuity $3"
[ "$2" -lt "$before" ] || fail "last poll time $2 did not restart (was $before)"
ok "TimeStamps follow the restarted master's sysUpTime ($before -> $2, sysUpTime $1)"

# With a long poll interval the TimeStamps must not wait for the next
# poll: a (re)connection resets them to 0 (RFC 2579, "before the last
# re-initialization") until the next event.
stop_agent
start_agent "backend sim
pollInterval 30
simCpus 2"
wait_until 20 agent_serving || fail "the agent (pollInterval 30) never answered"
sleep 3
restart_master
wait_until 20 agent_serving || fail "no reconnection (pollInterval 30)"
set -- $(snmpq snmpget .1.3.6.1.2.1.1.3.0 hwR10kEvCtrLastPollTime.0 hwR10kEvCtrDiscontinuityTime.0)
[ "$2" -le "$1" ] && [ "$3" -le "$1" ] ||
    fail "pollInterval 30: TimeStamps ahead of the new sysUpTime $1: last poll $2, discontinuity $3"
ok "pollInterval 30: TimeStamps reset at reconnection (last poll $2, sysUpTime $1)"
