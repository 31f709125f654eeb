#!/bin/sh
# The shipped config on a host without a hardware PMU (most virtual
# machines and containers; this one): --dump says what counts here and
# gives the config lines for it, the log says the same in one message, and
# those lines, added to the shipped config, count.  On a host with a PMU
# the shipped config counts and there is nothing to advise.
. "$(dirname "$0")/lib.sh"

CONF="$HWR_SRCDIR/conf/hw-r10kevctr.conf"
"$AGENT" --dump -C -c "$CONF" >"$TMP/dump.out" 2>"$TMP/dump.err" </dev/null
rc=$?
if [ $rc = 0 ] && ! grep -q '^state -1$' "$TMP/dump.out"; then
    grep -q '^# ' "$TMP/dump.out" && fail "advice printed on a host that counts"
    echo "SKIP: this host has a PMU: the shipped config counts"
    exit 77
fi
[ $rc = 1 ] || fail "--dump exited $rc counting nothing"
grep -q '^state -1$' "$TMP/dump.out" || fail "state: $(cat "$TMP/dump.out")"
grep -q '^# No configured event counts on this host (no hardware PMU' "$TMP/dump.out" ||
    { cat "$TMP/dump.out"; fail "--dump does not say nothing configured counts"; }
for ev in cpu-clock task-clock page-faults context-switches; do
    grep -q "^#   software:$ev " "$TMP/dump.out" || fail "--dump does not list software:$ev"
done
if [ -d /sys/bus/event_source/devices/msr ]; then
    grep -q '^#   msr:0x[0-9a-f]* .*msr/tsc$' "$TMP/dump.out" || fail "--dump does not list the msr PMU's tsc"
fi
grep -q '^# Or read the host.s counters through PCP: backend pcp' "$TMP/dump.out" || fail "no word of backend pcp"
grep '^perfEvent ' "$TMP/dump.out" >"$TMP/lines"
grep -q '^perfEvent hw.r10kevctr.cycles ' "$TMP/lines" || fail "no config line for cycles"
grep -q '^perfEvent hw.r10kevctr.tlb software:page-faults$' "$TMP/lines" || fail "no config line for tlb"
ok "--dump of the shipped config: state -1, what counts here, $(wc -l <"$TMP/lines") config lines, backend pcp"

# The log: one message with the same lines; each failed default says why.
[ "$(grep -c 'perf: no usable performance counters' "$TMP/dump.err")" = 1 ] ||
    fail "not one summary message: $(cat "$TMP/dump.err")"
while read -r line; do
    grep 'perf: no usable performance counters' "$TMP/dump.err" | grep -qF "\"$line\"" ||
        fail "the log does not give '$line'"
done <"$TMP/lines"
grep -q 'perf: hw.r10kevctr.cycles (hardware:cpu-cycles) cannot count: no such event or PMU on this host' \
    "$TMP/dump.err" || fail "the default cycles event's failure is not said"
ok "the log: one message with the same lines; each default event's failure said"

# The advised lines, added to the shipped config, count.
{ cat "$CONF"; cat "$TMP/lines"; } >"$TMP/fixed.conf"
"$AGENT" -t -C -c "$TMP/fixed.conf" </dev/null || fail "-t refuses the advised lines"
# Page faults while it counts: an idle host may fault fewer than once a
# second system-wide (3 in a 5 s dump was seen), and a rate is whole
# events a second.  Programs started in a loop fault at every exec.
(while :; do /bin/true; done) &
faulter=$!
"$AGENT" --dump -C -c "$TMP/fixed.conf" >"$TMP/dump.out" 2>"$TMP/dump.err" </dev/null
rc=$?
kill "$faulter"; wait "$faulter" 2>/dev/null
[ "$rc" = 0 ] || { cat "$TMP/dump.err"; fail "--dump with the advised lines exited $rc"; }
n=$(wc -l <"$TMP/lines")
grep -q "^state $n$" "$TMP/dump.out" || fail "state with the advised lines: $(head -n 3 "$TMP/dump.out")"
while read -r _ metric _; do
    v=$(awk -v m="$metric" '$1 == m && $2 == "sum" { print $4 }' "$TMP/dump.out")
    [ "${v:-0}" -gt 0 ] || fail "$metric does not count with the advised line (rate '$v')"
done <"$TMP/lines"
grep -q '^# ' "$TMP/dump.out" && fail "advice printed although it counts"
ok "the advised lines count: state $n, every rate above 0"

# doc/perf-mapping.md's quick start for such hosts, as printed (the agent
# from this build; /etc/snmp a directory of this test's on SNMPCONFPATH,
# holding a copy of the shipped config and no local file yet).  Its lines
# go into hw-r10kevctr.local.conf: the shipped config stays as it was.
mkdir -p "$TMP/etc-snmp"
cp "$CONF" "$TMP/etc-snmp/hw-r10kevctr.conf"
sed -n '/^Quick start on such a host/,/^On an x86/p' "$HWR_SRCDIR/doc/perf-mapping.md" |
    grep '^    ' | sed "s|^    ||; s|hw-r10kevctr-agent |\"\$AGENT\" |; s|/etc/snmp/|$TMP/etc-snmp/|g" \
    >"$TMP/quick.sh"
[ "$(grep -c AGENT "$TMP/quick.sh")" = 4 ] || fail "quick start not found: $(cat "$TMP/quick.sh")"
grep -q "$TMP/etc-snmp/hw-r10kevctr.local.conf\$" "$TMP/quick.sh" ||
    fail "the quick start does not write hw-r10kevctr.local.conf: $(cat "$TMP/quick.sh")"
AGENT=$AGENT SNMPCONFPATH=$TMP/etc-snmp HOME=$TMP/etc-snmp sh -e "$TMP/quick.sh" >"$TMP/quick.out" 2>"$TMP/quick.err" </dev/null ||
    { cat "$TMP/quick.err"; fail "the quick start failed"; }
cmp -s "$CONF" "$TMP/etc-snmp/hw-r10kevctr.conf" || fail "the quick start changed the shipped config"
[ "$(grep -c . "$TMP/etc-snmp/hw-r10kevctr.local.conf")" = "$n" ] ||
    fail "hw-r10kevctr.local.conf holds: $(cat "$TMP/etc-snmp/hw-r10kevctr.local.conf")"
grep -q '^# These events count here' "$TMP/quick.out" || fail "the quick start's first --dump"
grep -q "^state $n$" "$TMP/quick.out" || fail "the quick start ends with: $(cat "$TMP/quick.out")"
ok "doc/perf-mapping.md's quick start, as printed: state $n, its $n lines in hw-r10kevctr.local.conf"
