#!/bin/sh
# One walk sees one poll: a manager's walk reads the counters first and
# hwR10kEvCtrCountingTime later, in many requests, while the agent polls
# every second.  The recording's rates change at every set, so a walk
# whose counters came from one poll and whose clock came from the next
# gives a value the recording never had at that clock.  Every walk's
# summed and per-CPU cycles equal the recording's at the set its
# counting time names, so the rate between any two walks, computed as a
# manager does (difference of counters over difference of counting
# time), is the recording's over the same sets.
. "$(dirname "$0")/lib.sh"

rec="$TMP/vary.replay"
# Set k at k seconds, 16 CPUs (a longer walk); CPU c counts (1 + (k * 7 + c * 3) % 5) M cycles
# per second before set k.
# per second before set k; eleven other events count along (more
# objects still).
awk 'BEGIN {
    n = split("grad.instrg grad.loadg grad.storeg issue.brd fail.brmp pcache.dmiss scache.dmiss tlb issue.instri issue.loadi issue.storei", ev, " ")
    for (k = 0; k <= 300; k++) {
        for (c = 0; c < 16; c++) {
            if (k) v[c] += (1 + (k * 7 + c * 3) % 5) * 1000000
            printf "%d %d hw.r10kevctr.cycles %d\n", k, c, v[c]
            for (i = 1; i <= n; i++)
                printf "%d %d hw.r10kevctr.%s %d\n", k, c, ev[i], k * (1000 + i * 37 + c)
        }
    }
}' >"$rec"
# truth K CPU|sum: cycles counted from set 0 to set K
truth() {
    awk -v k="$1" -v c="$2" '$1 == k && $3 == "hw.r10kevctr.cycles" && (c == "sum" || $2 == c) { s += $4 } END { print s }' "$rec"
}

start_master
start_agent "backend replay
pollInterval 1
replayFile $rec"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 30 polls_past 3 || fail "no polls"

# A walk by GETNEXT (one request per object, the slowest a manager
# reads): counters at the start, the counting time after the tables.
ROOT=.1.3.6.1.4.1.8072.9999.9999.59.1
walks=0 seen=0 last_t= ms=0
while [ "$walks" -lt 30 ]; do
    t0=$(date +%s%N)
    snmp snmpwalk -On -Oq "$ROOT" >"$TMP/walk.txt" || fail "the walk failed"
    ms=$((ms + ($(date +%s%N) - t0) / 1000000))
    walks=$((walks + 1))
    e=$(awk '$1 == ".1.3.6.1.4.1.8072.9999.9999.59.1.1.3.0" { print $2 }' "$TMP/walk.txt")
    e0=$(awk '$1 == ".1.3.6.1.4.1.8072.9999.9999.59.1.2.1.3.0" { print $2 }' "$TMP/walk.txt")
    t=$(awk '$1 == ".1.3.6.1.4.1.8072.9999.9999.59.1.4.9.0" { print $2 }' "$TMP/walk.txt")
    [ -n "$e" ] && [ -n "$t" ] && [ -n "$e0" ] || fail "walk $walks: no counters or counting time"
    [ $((t % 1000000000)) = 0 ] || fail "walk $walks: counting time $t ns is not a whole set"
    k=$((t / 1000000000))
    [ "$e" = "$(truth "$k" sum)" ] ||
        fail "walk $walks: summed cycles $e at counting time $k s; the recording has $(truth "$k" sum) there (a walk across two polls)"
    [ "$e0" = "$(truth "$k" 0)" ] ||
        fail "walk $walks: CPU 0's cycles $e0 at counting time $k s; the recording has $(truth "$k" 0)"
    [ "$t" = "$last_t" ] || seen=$((seen + 1))
    last_t=$t
    sleep 0.3 # a manager's pause between walks
done
ok "$walks walks of $(wc -l <"$TMP/walk.txt") objects each ($((ms / walks)) ms a walk) at pollInterval 1: every walk's counters are those of the poll its counting time names ($seen polls seen)"
