#!/bin/sh
# GET and GETNEXT at the edges of every table, through a real master:
# index arcs at and beyond 2^32-2, instance parts longer and shorter than
# the index, and arcs between columns.  Any client allowed to read the
# module can send these; the agent must answer each one exactly as the
# module's walk says (GETNEXT: the first walked OID after the request;
# GET: a value only for walked OIDs) and must never crash.
. "$(dirname "$0")/lib.sh"

ROOT=.1.3.6.1.4.1.8072.9999.9999.59
start_master
start_agent "backend sim
pollInterval 1
simCpus 3
alarm a hw.r10kevctr.tlb sum rate 10 5
alarm b hw.r10kevctr.cycles 2 absolute 10 5 falling"
wait_until 20 agent_serving || fail "the subagent never answered"
two_polls() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" -ge 2 ]; }
wait_until 20 two_polls || fail "no second poll"
# Only OIDs are compared: values move on with every poll, the set of
# instances does not (after two polls every rate and alarm value exists).
num() { snmp "$@" -m "" -On; }
num snmpbulkwalk -Cr25 "$ROOT" | sed 's/ = .*//' >"$TMP/walk.oids"
nwalk=$(wc -l <"$TMP/walk.oids")
[ "$nwalk" -gt 100 ] || fail "walk: $nwalk OIDs"

# expected_next REQ: the first walked OID after REQ, or "" past the module
expected_next() {
    awk -v req="$1" '
        function gt(a, b,   x, y, na, nb, i) {
            na = split(substr(a, 2), x, "."); nb = split(substr(b, 2), y, ".")
            for (i = 1; i <= na && i <= nb; i++)
                if (x[i] + 0 != y[i] + 0) return x[i] + 0 > y[i] + 0
            return na > nb
        }
        gt($0, req) { print; exit }' "$TMP/walk.oids"
}

probes=0
probe() { # probe OID
    probes=$((probes + 1))
    out=$(num snmpgetnext "$1")
    got=$(echo "$out" | sed -n '1s/ = .*//p')
    want=$(expected_next "$1")
    case "$out" in *genError*|*Timeout*|*"general failure"*) fail "getnext $1: $out" ;; esac
    if [ -n "$want" ]; then
        [ "$got" = "$want" ] || fail "getnext $1: got '$out', want $want"
    else
        case "$got" in "$ROOT".*) fail "getnext $1: got $got, past the module's end" ;; esac
    fi
    out=$(num snmpget "$1")
    case "$out" in *genError*|*Timeout*|*"general failure"*) fail "get $1: $out" ;; esac
    if grep -qx -- "$1" "$TMP/walk.oids"; then
        case "$out" in *"No Such"*) fail "get $1 (walked): $out" ;; esac
    else
        case "$out" in *"No Such"*) ;; *) fail "get $1 (not walked): $out" ;; esac
    fi
}

# Column OIDs of each table, the first and last scalar, table entries.
for prefix in "$ROOT.1.1.1" "$ROOT.1.1.33" "$ROOT.1.2.1" "$ROOT.1.2.1.3" "$ROOT.1.2.1.33" \
    "$ROOT.1.3.1.1" "$ROOT.1.3.1.4" "$ROOT.1.4.1" "$ROOT.1.4.7" "$ROOT.1.5.3" \
    "$ROOT.1.6.1.3" "$ROOT.1.7.1" "$ROOT.1.7.1.2" "$ROOT.1.7.1.13" "$ROOT.1.7.1.16"; do
    probe "$prefix"
    for tail in 0 1 2 3 4294967294 4294967295 4294967295.4294967295 \
        0.4294967295 2.0 4294967294.0; do
        probe "$prefix.$tail"
    done
done
# Arcs between and after columns and tables, and the module's own edges.
for oid in "$ROOT.1.2.1.2" "$ROOT.1.2.1.34" "$ROOT.1.2.1.34.0" "$ROOT.1.3.1.5" \
    "$ROOT.1.4.8" "$ROOT.1.7.1.17" "$ROOT.1.7.2" "$ROOT.1.8" "$ROOT.1.4294967295" \
    "$ROOT.4294967295" "$ROOT.0" "$ROOT.0.4294967295" "$ROOT" \
    "$ROOT.1.2.1.4294967295.0"; do
    probe "$oid"
done
kill -0 "$AGENT_PID" 2>/dev/null || fail "the agent died"
ok "$probes edge requests (GETNEXT and GET) answered as the walk says"

n2=$(num snmpbulkwalk -Cr25 "$ROOT" | wc -l)
[ "$n2" = "$nwalk" ] || fail "walk after the probes: $n2 OIDs, before $nwalk"
ok "the module is still complete in the master ($n2 OIDs)"
