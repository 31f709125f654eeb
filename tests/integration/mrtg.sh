#!/bin/sh
# MRTG (Debian's mrtg) polls the agent through a private master with the
# shipped conf/mrtg.cfg.example: the rates it logs are the sim's
# configured rates (summed over 3 CPUs, and CPU 0's).
. "$(dirname "$0")/lib.sh"

command -v mrtg >/dev/null || { echo "SKIP: mrtg not installed"; exit 77; }
start_master
start_agent "backend sim
pollInterval 1
simCpus 3
simRate hw.r10kevctr.cycles 1000000"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 60 polls_past 2 || fail "no two polls" # two polls: the rates exist
mkdir -p "$TMP/mrtg"
sed -e "s|^WorkDir: .*|WorkDir: $TMP/mrtg|" \
    -e "s|public@localhost:161|public@127.0.0.1:$PORT|" \
    "$HWR_BUILDDIR/conf/mrtg.cfg.example" >"$TMP/mrtg.cfg"
for run in 1 2 3; do
    LANG=C mrtg --logging "$TMP/mrtg.log" "$TMP/mrtg.cfg" || fail "mrtg run $run failed"
    sleep 1
done
grep -qi "error" "$TMP/mrtg.log" && { cat "$TMP/mrtg.log"; fail "mrtg logged an error"; }
set -- $(head -n 1 "$TMP/mrtg/hwr10k-cycles.log")
# all CPUs: 1e6 * (1 + 2 + 3); CPU 0: 1e6
within 1 "$2" 6000000 || fail "MRTG logged $2 cycles/s for all CPUs, not 6000000"
within 1 "$3" 1000000 || fail "MRTG logged $3 cycles/s for CPU 0, not 1000000"
[ -s "$TMP/mrtg/hwr10k-cycles-day.png" ] || fail "no graph"
ok "MRTG (shipped example, 3 runs): all CPUs $2/s, CPU 0 $3/s, as configured"

# Names instead of numbers: LoadMIBs as the example's comment says (the
# MIB's root is in NET-SNMP-MIB, so MRTG needs that module too).
netsnmp_mib=
for d in $(echo "${NETSNMP_MIBDIRS:-/usr/share/snmp/mibs}" | tr ':' ' '); do
    [ -f "$d/NET-SNMP-MIB.txt" ] && { netsnmp_mib=$d/NET-SNMP-MIB.txt; break; }
done
[ -n "$netsnmp_mib" ] || fail "no NET-SNMP-MIB.txt"
cp "$netsnmp_mib" "$TMP/mibs/"
loadmibs=$(sed -n 's/^#   LoadMIBs: //p' "$HWR_BUILDDIR/conf/mrtg.cfg.example" |
    sed -e "s|[^,]*/\([^/,]*\.txt\)|$TMP/mibs/\1|g")
[ -n "$loadmibs" ] || fail "the example's LoadMIBs comment is gone"
mkdir -p "$TMP/mrtg-named"
cat >"$TMP/mrtg-named.cfg" <<CFG
WorkDir: $TMP/mrtg-named
Interval: 5
LoadMIBs: $loadmibs
Options[_]: gauge, growright, nopercent, noinfo
Target[named]: hwR10kEvCtrRateCycles.0&hwR10kEvCtrCpuRateCycles.0:public@127.0.0.1:$PORT::::2
MaxBytes[named]: 100000000000
Title[named]: named
PageTop[named]: named
CFG
for run in 1 2; do
    LANG=C mrtg --logging "$TMP/mrtg-named.log" "$TMP/mrtg-named.cfg" ||
        { cat "$TMP/mrtg-named.log"; fail "mrtg with the example's LoadMIBs failed (run $run)"; }
    sleep 1
done
set -- $(head -n 1 "$TMP/mrtg-named/named.log")
within 1 "$2" 6000000 || fail "MRTG (names) logged $2 cycles/s for all CPUs, not 6000000"
ok "MRTG with the example's LoadMIBs and names: all CPUs $2/s"
