#!/bin/sh
# The master stopped for a long time (60 s, HWR_MASTER_DOWN) and back: the
# agent keeps polling and retrying, and serves the same counters when it
# returns (they never went backwards, no counts were lost).
. "$(dirname "$0")/lib.sh"

DOWN=${HWR_MASTER_DOWN:-60}
start_master
start_agent "backend sim
pollInterval 1
simCpus 2"
wait_until 20 agent_serving || fail "the subagent never answered"
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
cycles=$1 polls=$2
stop_pid "$SNMPD_PID"; SNMPD_PID=
sleep "$DOWN"
kill -0 "$AGENT_PID" || fail "the agent gave up while the master was away"
restart_master
wait_until 20 agent_serving || fail "no reconnection after $DOWN s without a master"
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
[ "$1" -gt "$cycles" ] || fail "cycles $cycles -> $1"
# the sim's virtual clock: one poll a second went on while the master was away
[ "$2" -ge $((polls + DOWN - 2)) ] || fail "polls $polls -> $2 over $DOWN s"
ok "master away for $DOWN s: reconnected, polling went on ($polls -> $2 polls)"
