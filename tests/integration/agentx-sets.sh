#!/bin/sh
# The set phases in the orders net-snmp's master never sends, from a
# scripted AgentX master (tests/agentx/sets.py): a committed destroy
# undone, interleaved transactions, one name given by two pending sets, a
# TestSet again with a committed set's IDs; after each, the table served
# and the store in the private persistent directory agree, also after a
# SIGHUP and after a restart of the agent.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
STORE=$SNMP_PERSISTENT_DIR/hw-r10kevctr-alarms.conf
CONF="backend sim
pollInterval 1
agentxPingInterval 1
simCpus 2
alarmSet yes"

# run_master [verify]: the scripted master on $SOCK, against the running
# agent (which connects within its ping interval); fails with its output.
run_master() {
    python3 "$HWR_SRCDIR/tests/agentx/sets.py" "$SOCK" .1.3.6.1.4.1.8072.9999.9999.59 \
        "$STORE" "$TMP/agent.log" "$AGENT_PID" "$@" >"$TMP/master.out" 2>&1
    rc=$?
    cat "$TMP/master.out"
    [ "$rc" = 0 ] || fail "the set-phase checks failed"
}

start_agent "$CONF"
run_master
grep "alarm table: row 110[0-9] .*undone" "$TMP/agent.log" | sed 's/^/agent: /'
stop_agent
AGENT_PID=
start_agent "$CONF"
run_master verify
ok "the set phases around a commit keep table and store together, through SIGHUP and restart"
