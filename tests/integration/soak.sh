#!/bin/sh
# Load: 8 concurrent bulkwalk clients plus 2 GET loops for SOAK_SECONDS
# (20 in 'make check', 60 in 'make check-soak'; 5 s of warm-up first) at 256 sim CPUs and a 1 s
# poll.  Zero errors and timeouts; every cell read is monotonic across a
# client's successive reads; the agent's RSS grows by less than 1 % after
# the warm-up (or by two glibc heap steps at most, for short runs).
. "$(dirname "$0")/lib.sh"

SECS=${SOAK_SECONDS:-20}
# Under AddressSanitizer freed memory waits in a quarantine (up to 256 MB)
# and RSS would measure that, not the agent: no quarantine here.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0"; export ASAN_OPTIONS
ROOT=.1.3.6.1.4.1.8072.9999.9999.59
start_master
start_agent "backend sim
pollInterval 1
simCpus 256"
wait_until 30 agent_serving || fail "the subagent never answered"
sleep 2
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$AGENT_PID/status"; }

# One walker: bulkwalks until the deadline; each walk's cells must not be
# lower than the same cells in its previous walk.  Writes its counts.
walker() { # walker ID
    prev="$TMP/w$1.prev"; cur="$TMP/w$1.cur"; : >"$prev"; n=0; bad=0
    while [ "$(date +%s)" -lt "$end" ]; do
        if ! snmp snmpbulkwalk -m "" -On -OQ -Cr25 "$ROOT.1.2" >"$cur"; then
            bad=$((bad + 1)); echo "walker $1: $(tail -n 1 "$cur")"; continue
        fi
        grep -q "Timeout\|Error\|No more\|No Such" "$cur" && { bad=$((bad + 1)); head -n 3 "$cur"; }
        if [ -s "$prev" ]; then
            back=$(awk 'NR == FNR { v[$1] = $3; next }
                        ($1 in v) && $3 + 0 < v[$1] + 0 { print $1; n++ }
                        END { print n + 0 }' "$prev" "$cur" | tail -n 1)
            [ "$back" = 0 ] || { bad=$((bad + 1)); echo "walker $1: $back cells went backwards"; }
        fi
        mv "$cur" "$prev"; n=$((n + 1))
    done
    echo "$n $bad" >"$TMP/w$1.result"
}
getter() { # getter ID: random single GETs of per-CPU cells and sums
    id=$1 n=0 bad=0 last=0
    while [ "$(date +%s)" -lt "$end" ]; do
        cpu=$(( (n * 37 + id * 11) % 256 ))
        out=$(snmpq snmpget -m "" "$ROOT.1.1.3.0" "$ROOT.1.2.1.3.$cpu") || { bad=$((bad + 1)); continue; }
        set -- $out
        case "$1$2" in *[!0-9]*|"") bad=$((bad + 1)); echo "getter: $out"; continue ;; esac
        [ "$1" -ge "$last" ] || { bad=$((bad + 1)); echo "getter: total $last -> $1"; }
        last=$1; n=$((n + 1))
    done
    echo "$n $bad" >"$TMP/g$id.result"
}

# 5 s of warm-up under the full load, then SECS measured: the RSS
# baseline includes every buffer that 10 concurrent clients need.
end=$(( $(date +%s) + 5 + SECS ))
pids=
for i in 1 2 3 4 5 6 7 8; do walker "$i" & pids="$pids $!"; done
for i in 1 2; do getter "$i" & pids="$pids $!"; done
sleep 5
rss0=$(rss)
# shellcheck disable=SC2086
wait $pids
rss1=$(rss)
walks=0 gets=0 errors=0
for f in "$TMP"/w[1-8].result; do set -- $(cat "$f"); walks=$((walks + $1)); errors=$((errors + $2)); done
for f in "$TMP"/g[12].result; do set -- $(cat "$f"); gets=$((gets + $1)); errors=$((errors + $2)); done
[ "$errors" = 0 ] || fail "$errors errors or timeouts in $walks walks and $gets GETs"
[ "$walks" -ge 8 ] || fail "only $walks complete walks in $SECS s"
growth=$(( (rss1 - rss0) * 1000 / rss0 ))
ok "soak $SECS s: $walks walks, $gets GETs, 0 errors, all cells monotonic"
if [ -z "${HWR_VALGRIND:-}" ]; then
    # glibc grows its heap in steps of 128 KiB plus a page (M_TOP_PAD):
    # two such steps are the allocator settling, not a leak, which
    # matters in distcheck's 5 s run; a leak grows with the load and time.
    [ "$growth" -lt 10 ] || [ $((rss1 - rss0)) -le 264 ] ||
        fail "RSS grew $rss0 -> $rss1 KiB (${growth}/1000)"
    ok "RSS $rss0 -> $rss1 KiB (growth ${growth}/1000 < 1 %, or two heap steps at most)"
fi
