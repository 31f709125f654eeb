#!/bin/sh
# The AgentX session over TCP on loopback (agentXSocket tcp:...), with
# the non-blocking connect of lib/session/ax_session_dial.c: a walk is served in full, single
# GETs too, and every request parses.
. "$(dirname "$0")/lib.sh"

XPORT=$((20000 + ($$ * 17 + 389) % 30000))
SNMPD_EXTRA="agentXSocket unix:$SOCK,tcp:127.0.0.1:$XPORT"
start_master
printf 'backend sim\npollInterval 1\nsimCpus 8\n' >"$TMP/agent.conf"
# shellcheck disable=SC2086
$HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x "tcp:127.0.0.1:$XPORT" \
    -Lf "$TMP/agent.log" -p "$TMP/agent.pid" &
AGENT_PID=$!
wait_until 60 agent_serving || fail "the subagent did not come up over tcp"
grep -q "AgentX subagent connected" "$TMP/agent.log" || fail "no connection logged"

snmp snmpbulkwalk -Cr25 -On hwR10kEvCtrMIB >"$TMP/walk"
rows=$(grep -c '^\.1\.3\.6\.1\.4\.1\.8072\.9999\.9999\.59\.1\.2\.1\.3\.' "$TMP/walk")
[ "$rows" = 8 ] || fail "cycles column has $rows rows over tcp, expected 8"
grep -q "No more variables\|Timeout" "$TMP/walk" && fail "the walk did not finish: $(tail -n 2 "$TMP/walk")"
[ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = 8 ] || fail "numCpus over tcp"
ok "AgentX over tcp: a full walk ($(wc -l <"$TMP/walk") varbinds) and GETs answered"

# A host name (localhost): looked up off the main loop (getaddrinfo_a),
# each of its addresses tried in turn (the master listens on 127.0.0.1
# only, localhost may be ::1 first).
stop_agent
: >"$TMP/agent.log"
# shellcheck disable=SC2086
$HWR_VALGRIND "$AGENT" -f -C -c "$TMP/agent.conf" -x "tcp:localhost:$XPORT" \
    -Lf "$TMP/agent.log" &
AGENT_PID=$!
wait_until 60 agent_serving || fail "the subagent did not come up over tcp:localhost: $(cat "$TMP/agent.log")"
ok "AgentX over tcp:localhost:$XPORT: the name looked up in the background, served"
