#!/bin/sh
# A reload that changes the AgentX settings opens a new session with
# them (agent/main.c, doc/architecture.md): a new agentXSocket (no -x)
# moves the agent to another master, and the old one stops serving it; a
# new agentxPingInterval alone opens a new session on the same master.
. "$(dirname "$0")/lib.sh"

start_master
start_second_master b
conf() { # conf SOCKET PING: the agent's config file
    printf 'backend sim\npollInterval 1\nsimCpus 3\nagentXSocket unix:%s\nagentxPingInterval %s\n' \
        "$1" "$2" >"$TMP/agent.conf"
}
conf "$SOCK" 1
# shellcheck disable=SC2086
$HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -Lf "$TMP/agent.log" -p "$TMP/agent.pid" &
AGENT_PID=$!
A=$PORT
wait_until 30 agent_serving || fail "the agent never answered through the first master"
sessions() { grep -c "AgentX subagent connected" "$TMP/agent.log"; }
[ "$(sessions)" = 1 ] || fail "sessions at start: $(sessions)"

conf "$TMP/b.sock" 1
kill -HUP "$AGENT_PID"
PORT=$PORT_b
wait_until 30 agent_serving || fail "a new agentXSocket: the agent did not move to the second master"
grep -q "reload: AgentX settings changed; connecting again" "$TMP/agent.log" || fail "the move was not logged"
grep -q "AgentX subagent connected: the master at unix:$TMP/b.sock" "$TMP/agent.log" ||
    fail "no session with the second master: $(grep AgentX "$TMP/agent.log")"
PORT=$A
gone() { snmp snmpget hwR10kEvCtrNumCpus.0 | grep -q "No Such Object"; }
wait_until 20 gone || fail "the first master still serves the agent: $(snmp snmpget hwR10kEvCtrNumCpus.0)"
ok "a reload with a new agentXSocket: the agent moved to the second master, the first one no longer serves it"

n=$(sessions)
conf "$TMP/b.sock" 2
kill -HUP "$AGENT_PID"
more_sessions() { [ "$(sessions)" -gt "$n" ]; }
wait_until 20 more_sessions || fail "a new agentxPingInterval: no new session"
PORT=$PORT_b
wait_until 30 agent_serving || fail "not served after the new session"
ok "a reload with a new agentxPingInterval: a new session on the same master"

n=$(sessions)
r=$(grep -c "reload: kept backend" "$TMP/agent.log")
printf 'pollInterval 2\n' >>"$TMP/agent.conf" # a change of no AgentX setting
kill -HUP "$AGENT_PID"
reloaded() { [ "$(grep -c "reload: kept backend" "$TMP/agent.log")" -gt "$r" ]; }
wait_until 20 reloaded || fail "no reload"
more_polls 2
[ "$(sessions)" = "$n" ] || fail "a reload without an AgentX change opened a new session"
ok "a reload that changes no AgentX setting keeps the session"
