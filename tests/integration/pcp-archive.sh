#!/bin/sh
# The pcp backend on a PCP archive: tests/data/sample.replay written as an
# archive with libpcp_import (hw.help's names, counter semantics, 32-bit
# values that wrap, a CPU instance domain) walks exactly as the replay
# backend walks the text (tests/data/replay.golden), apart from the
# backend's name and the poll errors (the three bad lines of the text
# cannot exist in an archive).  A <mark> record is a logged
# discontinuity; pcpLoop yes starts again; a missing archive is refused;
# a corrupt record ends the archive there (looped or held), said once.
. "$(dirname "$0")/lib.sh"

R2A="$HWR_BUILDDIR/tests/pcp/replay2archive"
[ -x "$R2A" ] || { echo "SKIP: built without the pcp backend"; exit 77; }
"$R2A" "$HWR_SRCDIR/tests/data/sample.replay" "$TMP/sample" >"$TMP/convert.log" 2>&1 ||
    fail "replay2archive: $(cat "$TMP/convert.log")"
[ "$(grep -c 'skipped$' "$TMP/convert.log")" = 3 ] || fail "the converter did not skip the 3 bad lines"

start_master
start_agent "backend pcp
pollInterval 1
pcpArchive $TMP/sample
pcpLoop no"
wait_until 20 agent_serving || fail "the subagent never answered"
ended() { grep -q "end reached after 3 records; holding the last values" "$TMP/agent.log"; }
wait_polls 10 ended || fail "the archive did not reach its end within 10 polls"
more_polls 1 # one more poll served: the ending reading is folded in (publish.c holds a reading while requests come)
{
    snmp snmpwalk hwR10kEvCtrMetrics
    snmp snmpwalk hwR10kEvCtrCpuTable
    snmp snmpwalk hwR10kEvCtrCpuStatus
    snmp snmpget hwR10kEvCtrBackend.0 hwR10kEvCtrNumCpus.0 hwR10kEvCtrPollErrors.0
} >"$TMP/walk"
sed -e 's/STRING: replay$/STRING: pcp/' -e 's/PollErrors.0 = Counter32: 3$/PollErrors.0 = Counter32: 0/' \
    "$HWR_SRCDIR/tests/data/replay.golden" >"$TMP/expected"
diff -u "$TMP/expected" "$TMP/walk" || fail "the archive's walk differs from the replay's"
ok "archive walk equals tests/data/replay.golden (backend pcp, no bad lines)"
stop_agent

# A <mark> record after the first set: the counts restart there.
"$R2A" -m 1 "$HWR_SRCDIR/tests/data/sample.replay" "$TMP/marked" >/dev/null 2>&1 ||
    fail "replay2archive -m"
: >"$TMP/agent.log"
start_agent "backend pcp
pollInterval 1
pcpArchive $TMP/marked
pcpLoop yes"
wait_until 20 agent_serving || fail "the subagent never answered (marked archive)"
looped() { grep -q "end reached, starting again" "$TMP/agent.log"; }
wait_until 20 looped || fail "pcpLoop yes did not start again"
grep -q "a <mark> record after record 1 (a gap in the recording): counting restarts" "$TMP/agent.log" ||
    fail "the <mark> record was not logged"
[ "$(grep -c '<mark> record' "$TMP/agent.log")" -ge 1 ] || fail "no mark"
disc=$(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0)
case "$disc" in [1-9]*) ;; *) fail "no discontinuity time after a mark and a loop: $disc" ;; esac
grep -q "restarted counting" "$TMP/agent.log" || fail "the restart was not logged"
# every loop is a discontinuity; the loop itself is logged once
loops() { [ "$(grep -c "the system-wide counts restarted\|restarted counting" "$TMP/agent.log")" -ge 3 ]; }
wait_until 20 loops || fail "the archive did not loop twice"
[ "$(grep -c "end reached, starting again" "$TMP/agent.log")" = 1 ] ||
    fail "the loop was logged $(grep -c "end reached, starting again" "$TMP/agent.log") times"
ok "a <mark> record and the loop are logged discontinuities (at $disc)"
stop_agent

# A missing archive: refused at start, the archive named.
printf 'backend pcp\npcpArchive %s\n' "$TMP/no-such-archive" >"$TMP/missing.conf"
if timeout 20 "$AGENT" -f -C -c "$TMP/missing.conf" -x "unix:$SOCK" -Le 2>"$TMP/out"; then
    fail "a missing archive was accepted"
fi
grep -q "archive $TMP/no-such-archive: No such file or directory" "$TMP/out" ||
    { cat "$TMP/out"; fail "missing archive message"; }
ok "a missing archive: refused, named"

# A corrupt record (bytes overwritten in the data volume, as a disk or a
# copy damages it): the archive ends there, said once and counted; with
# pcpLoop yes it starts again (it failed every poll, logging twice a
# second, and served frozen values as current), with pcpLoop no the rows
# read ended(3).
awk 'BEGIN { for (t = 0; t < 10; t++)
    printf "%d 0 hw.r10kevctr.cycles %d\n%d 1 hw.r10kevctr.cycles %d\n", t, 100 * t, t, 50 * t }' \
    >"$TMP/ten.replay"
"$R2A" "$TMP/ten.replay" "$TMP/corrupt" >/dev/null 2>&1 || fail "replay2archive (ten sets)"
# Past the volume's label record (its length: the first 4 bytes, big
# endian): 132 bytes in a v2 archive (PCP 5, Debian 12), 800-odd in v3
# (PCP 6, Debian 13's default), where 60 % of the whole file hits it.
size=$(wc -c <"$TMP/corrupt.0")
label=$(od -An -tu1 -N4 "$TMP/corrupt.0" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
printf '\377\377\377\377\377\377\377\377\377\377\377\377' |
    dd of="$TMP/corrupt.0" bs=1 seek=$((label + (size - label) * 6 / 10)) conv=notrunc 2>/dev/null
for loop in yes no; do
    : >"$TMP/agent.log"
    start_agent "backend pcp
pollInterval 1
pcpArchive $TMP/corrupt
pcpLoop $loop"
    wait_until 20 agent_serving || fail "the subagent never answered (corrupt archive)"
    said() { grep -q "cannot read the record after record [0-9]*.*the archive ends there" "$TMP/agent.log"; }
    wait_until 20 said || fail "pcpLoop $loop: the corrupt record was not named"
    sleep 6
    [ "$(grep -c "cannot read the record" "$TMP/agent.log")" = 1 ] ||
        fail "pcpLoop $loop: the corrupt record was logged $(grep -c "cannot read the record" "$TMP/agent.log") times"
    errors=$(snmpq snmpget hwR10kEvCtrPollErrors.0)
    if [ $loop = yes ]; then
        [ "$(grep -c "restarted counting" "$TMP/agent.log")" -ge 2 ] || fail "a corrupt archive did not loop"
        [ "$errors" -ge 2 ] || fail "the corrupt record was not counted on each loop ($errors)"
        [ "$(snmpq snmpget hwR10kEvCtrCpuStatus.0)" = counting ] || fail "not counting after a loop"
    else
        [ "$(snmpq snmpget hwR10kEvCtrCpuStatus.0)" = ended ] || fail "the rows do not say the data ended"
        out=$(snmp snmpget hwR10kEvCtrRateCycles.0)
        echo "$out" | grep -q "No Such Instance" || fail "a rate after the corrupt end: $out"
    fi
    stop_agent
done
ok "a corrupt record: logged once, counted; pcpLoop yes starts again, pcpLoop no ends (ended(3), no rate)"
