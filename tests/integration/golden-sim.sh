#!/bin/sh
# The whole module after exactly two polls of a seeded 3-CPU sim in two
# CPU groups (simNodes) with two alarms, walked through a real master,
# equals tests/data/sim.golden (OIDs, types, values; the TimeStamps, which
# depend on when the test ran, are masked).  It pins every object the
# agent serves, so that a change of how objects are declared or served
# cannot change a byte.
. "$(dirname "$0")/lib.sh"

CONF="backend sim
simCpus 3
simSeed 7
simCpurev 2.6
simNodes 2
alarm busy hw.r10kevctr.tlb sum rate 400000 100000
alarm cpu1 hw.r10kevctr.cycles each absolute 1000000000 10"
start_master
for try in 1 2 3; do
    start_agent "$CONF
pollInterval 2"
    wait_until 20 agent_serving || fail "the subagent never answered"
    polls_are() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" = "$1" ]; }
    wait_until 10 polls_are 2 || fail "no second poll"
    # Freeze at two polls: a reload that keeps the sim polls no more.
    printf '%s\npollInterval 3600\n' "$CONF" >"$TMP/agent.conf"
    kill -HUP "$AGENT_PID"
    wait_until 10 grep -q "reload: kept backend sim" "$TMP/agent.log" || fail "no keeping reload"
    polls_are 2 && break
    stop_agent # a third poll came first: again
done
polls_are 2 || fail "could not freeze the sim at two polls"
snmp snmpbulkwalk -Cr25 -On hwR10kEvCtrMIB |
    sed 's/= Timeticks: ([0-9]*) .*/= Timeticks: (masked)/' >"$TMP/walk"
[ "$(wc -l <"$TMP/walk")" -gt 250 ] || fail "walk: $(wc -l <"$TMP/walk") lines"
if [ -n "${HWR_UPDATE_GOLDEN:-}" ]; then
    cp "$TMP/walk" "$HWR_SRCDIR/tests/data/sim.golden"
fi
diff -u "$HWR_SRCDIR/tests/data/sim.golden" "$TMP/walk" || fail "walk differs from tests/data/sim.golden"
ok "the walk after two polls equals tests/data/sim.golden ($(wc -l <"$TMP/walk") objects)"
