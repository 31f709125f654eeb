#!/bin/sh
# The replay backend plays tests/data/sample.replay (32-bit counters that
# wrap, three bad lines) and the walk, once the recording has ended, is
# exactly tests/data/replay.golden.
. "$(dirname "$0")/lib.sh"

start_master
start_agent "backend replay
pollInterval 1
replayFile $HWR_SRCDIR/tests/data/sample.replay
replayCounterWidth 32
replayLoop no"
wait_until 20 agent_serving || fail "the subagent never answered"
ended() { grep -q "end reached after 3 sets; holding the last values" "$TMP/agent.log"; }
wait_until 20 ended || fail "the replay did not reach its end"

for line in 23 24 25; do
    grep -q "sample.replay:$line: .*line skipped" "$TMP/agent.log" ||
        fail "bad line $line not reported with FILE:LINE"
done
ok "bad lines logged with file:line and skipped"

{
    snmp snmpwalk hwR10kEvCtrMetrics
    snmp snmpwalk hwR10kEvCtrCpuTable
    snmp snmpwalk hwR10kEvCtrCpuStatus
    snmp snmpget hwR10kEvCtrBackend.0 hwR10kEvCtrNumCpus.0 hwR10kEvCtrPollErrors.0
} >"$TMP/walk"
diff -u "$HWR_SRCDIR/tests/data/replay.golden" "$TMP/walk" || fail "walk differs from the golden walk"
ok "walk equals tests/data/replay.golden"
