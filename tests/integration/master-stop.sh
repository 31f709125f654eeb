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

# The master hung (SIGSTOP) for the same time: the agent waits for it
# nowhere (it polled 6 times in 30 s when net-snmp's subagent waited for
# its Ping), drops the session after 5 s without an answer, polls on at
# one a second with counts = rate x wall time, and serves again once the
# master runs.
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
cycles=$1 polls=$2
t0=$(date +%s%N)
kill -STOP "$SNMPD_PID"
sleep "$DOWN"
kill -CONT "$SNMPD_PID"
wait_until 30 agent_serving || fail "no answers after the master ran again"
set -- $(snmpq snmpget hwR10kEvCtrCycles.0 hwR10kEvCtrPolls.0)
t1=$(date +%s%N)
[ "$2" -ge $((polls + DOWN - 2)) ] || fail "a hung master: polls $polls -> $2 over $DOWN s"
awk -v c="$(($1 - cycles))" -v t0="$t0" -v t1="$t1" 'BEGIN {
    w = (t1 - t0) / 1e9; want = 195000000 * 3 * w
    printf "hung master: %d cycles in %.1f s: %.3f x rate x time\n", c, w, c / want
    exit !(c >= want - 195000000 * 3 * 3 && c <= want + 195000000 * 3)
}' || fail "the counts did not follow the wall time while the master hung"
if [ "$DOWN" -ge 10 ]; then # a Ping (every 2 s) unanswered for 5 s
    grep -q "did not answer a Ping within 5 s" "$TMP/agent.log" || fail "the hung master was not logged"
    [ "$(grep -c "did not answer a" "$TMP/agent.log")" = 1 ] || fail "the hung master was logged more than once"
fi
ok "master hung (SIGSTOP) for $DOWN s: polling went on ($polls -> $2 polls), counts = rate x wall time, served again"
