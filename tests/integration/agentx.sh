#!/bin/sh
# The AgentX read path driven directly by a test master speaking AgentX
# on a unix socket (tests/agentx/master.py): search ranges with end OIDs
# and include flags, GetBulk non-repeaters and max-repetitions, a refused
# TestSet, and malformed PDUs (truncated header, an OID longer than its
# PDU, an oversized payload length, 0xFFFFFFF0 on an open stream, a
# header of version 2, another session's ID), a GetBulk from a
# 40-sub-identifier OID, 1000 pipelined GetNext, requests right after
# Register and during an unanswered Ping (one read path), a Close from
# the master: the agent answers parseError or notOpen where it can, drops
# the session at once where the stream cannot go on, logs each, opens a
# new session, and never crashes.
EXPECT_PROTOCOL_ERRORS=1 # the malformed PDUs
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
python3 "$HWR_SRCDIR/tests/agentx/master.py" "$SOCK" .1.3.6.1.4.1.8072.9999.9999.59 \
    >"$TMP/master.out" 2>&1 &
MASTER_PID=$!
wait_until 10 test -S "$SOCK" || fail "the test master did not listen"
start_agent "backend sim
pollInterval 1
simCpus 4"
wait "$MASTER_PID"; rc=$?
cat "$TMP/master.out"
[ "$rc" = 0 ] || fail "the AgentX checks failed"
kill -0 "$AGENT_PID" 2>/dev/null || fail "the agent died"
ok "the agent is still running after the malformed PDUs"
grep -q "AgentX: a Get from the master (packet ID 4242, [0-9]* bytes of payload) does not parse: .*; answered parseError" \
    "$TMP/agent.log" || fail "the unparseable Get (packet ID 4242) was not logged"
for len in 2147483632 4294967280; do
    grep -q "AgentX: the master sent a Get PDU header (packet ID 99[89]) of version 1 announcing $len bytes of payload.*resetting the session" \
        "$TMP/agent.log" || fail "the payload length $len was not logged"
done
grep -q "PDU header (packet ID [0-9]*) of version 2 announcing" "$TMP/agent.log" || fail "the version 2 header was not logged"
grep -q "a Get for session [0-9]* (ours is [0-9]*), packet ID [0-9]*: answered notOpen" "$TMP/agent.log" ||
    fail "the other session's request was not logged"
grep -q "the master at .* closed the session (reason 5)" "$TMP/agent.log" || fail "the master's Close was not logged"
grep -q "answered our Ping with error 257 (notOpen: it does not know our session); opening a new session" \
    "$TMP/agent.log" || fail "the Ping answered notOpen was not logged"
ok "logged: the Get that does not parse (by packet ID), the unframeable headers, another session's request, the Close"
