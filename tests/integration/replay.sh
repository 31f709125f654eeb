#!/bin/sh
# The replay backend plays tests/data/sample.replay (32-bit counters that
# wrap, three bad lines) and the walk, once the recording has ended, is
# exactly tests/data/replay.golden.
. "$(dirname "$0")/lib.sh"

# The config is doc/replay-format.md's example, as printed (its path is
# relative to the source tree, where the agent runs).
conf=$(sed -n '/^Example: `tests\/data\/sample.replay`/,/^and the walk/p' "$HWR_SRCDIR/doc/replay-format.md" |
    sed -n 's/^    \([a-zA-Z]\)/\1/p')
echo "$conf" | grep -qx "replayFile tests/data/sample.replay" ||
    fail "doc/replay-format.md gives no config for tests/data/sample.replay: $conf"
start_master
cd "$HWR_SRCDIR" || fail "cd $HWR_SRCDIR"
start_agent "$conf"
wait_until 20 agent_serving || fail "the subagent never answered"
ended() { grep -q "end reached after 3 sets; holding the last values" "$TMP/agent.log"; }
wait_until 20 ended || fail "the replay did not reach its end"
more_polls 1 # one more poll served: the ending reading is folded in (publish.c holds a reading while requests come)

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
