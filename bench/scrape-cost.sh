#!/bin/sh
# bench/scrape-cost.sh [--cpus "64 1024 4096"] [--groups M] [--scrapes K]
#                       [--config FILE] [--modules "MOD..."] [--json FILE]
#
# What a Prometheus scrape of one big host costs the host, measured: the
# agent's sim backend serving N CPUs (every event counted) behind a
# private snmpd, scraped K times (after one unmeasured scrape) by
# Debian's snmp_exporter with the shipped modules (conf/prometheus/
# snmp.yml; each of its modules but the SNMPv3 ones, or --modules).  For
# each CPU count and module: the scrape's wall time (curl), the varbinds
# it walked (the exporter's snmp_scrape_pdus_returned), the samples it
# served, and the CPU seconds the agent, snmpd and the exporter spent per
# scrape (utime + stime from /proc/PID/stat, before and after the K
# scrapes), with their sum as a share of one core at a 15 s scrape
# interval.  --groups M splits the sim's CPUs into M NUMA nodes (simNodes)
# where the agent has CPU groups.  The scrapes come one after another,
# never at once; the agent polls every 15 s, as the scrapes would.
#
# Root is not needed.  The packages of `tools/install-deps.sh --all`, and
# a build tree: HWR_BUILDDIR (default build-bench, as bench/compare.sh
# makes it; built here if missing).  Minutes: not a test, never run by CI.
# Figures: bench/README.md.
set -u
HWR_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
: "${HWR_BUILDDIR:=$HWR_SRCDIR/build-bench}"
export HWR_SRCDIR HWR_BUILDDIR
cpus_list="64 1024 4096" groups=0 scrapes=5 json=
config=$HWR_SRCDIR/conf/prometheus/snmp.yml modules=
while [ $# -gt 0 ]; do
    case $1 in
    --cpus) cpus_list=$2; shift ;;
    --groups) groups=$2; shift ;;
    --scrapes) scrapes=$2; shift ;;
    --config) config=$2; shift ;;
    --modules) modules=$2; shift ;;
    --json) json=$2; shift ;;
    *) echo "usage: $0 [--cpus LIST] [--groups M] [--scrapes K] [--config FILE] [--modules LIST] [--json FILE]" >&2
       exit 2 ;;
    esac
    shift
done
[ -x "$HWR_BUILDDIR/agent/hw-r10kevctr-agent" ] ||
    "$HWR_SRCDIR/tools/build.sh" "$HWR_BUILDDIR" >/dev/null || exit 1
. "$HWR_SRCDIR/tests/integration/lib.sh"
EXPORTER=${EXPORTER:-$(command -v prometheus-snmp-exporter || true)}
[ -n "$EXPORTER" ] || fail "prometheus-snmp-exporter is not installed"
command -v curl >/dev/null || fail "curl is not installed"
[ -n "$modules" ] ||
    modules=$(sed -n 's/^\([a-z0-9_]*\):$/\1/p' "$config" | grep -v '_v3$' | tr '\n' ' ')
[ -n "$modules" ] || fail "no module in $config"
nodes=
if [ "$groups" -gt 0 ]; then
    "$AGENT" -H | grep -q '^simNodes ' ||
        fail "--groups: this agent has no CPU groups (no simNodes token)"
    nodes="simNodes $groups"
fi
HZ=$(getconf CLK_TCK)
cpu_s() { # cpu_s PID: its utime + stime, in seconds
    awk -v hz="$HZ" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}

EPORT=$(free_port)
"$EXPORTER" --config.file="$config" --web.listen-address="127.0.0.1:$EPORT" \
    >"$TMP/exporter.log" 2>&1 &
EXPORTER_PID=$!
EXTRA_PIDS=$EXPORTER_PID
wait_until 20 curl -sf "http://127.0.0.1:$EPORT/metrics" || fail "snmp_exporter did not start"
scrape() { # scrape MODULE OUT: the scrape's wall time in seconds
    curl -sf -o "$2" -w '%{time_total}' \
        "http://127.0.0.1:$EPORT/snmp?module=$1&target=127.0.0.1:$PORT"
}

start_master
rows=
printf '%6s %-24s %7s %9s %8s %9s %9s %9s %9s\n' CPUs module wall_s varbinds samples \
    agent_s snmpd_s export_s "core@15s"
for n in $cpus_list; do
    start_agent "backend sim
simCpus $n
${nodes}
pollInterval 15"
    wait_until 60 agent_serving || fail "the agent did not register at $n CPUs"
    more_polls 1
    for m in $modules; do
        scrape "$m" "$TMP/warm.txt" >/dev/null || fail "the scrape of $m failed: $(tail -n 3 "$TMP/exporter.log")"
        a0=$(cpu_s "$AGENT_PID") s0=$(cpu_s "$SNMPD_PID") e0=$(cpu_s "$EXPORTER_PID")
        wall=0
        for _ in $(seq "$scrapes"); do
            t=$(scrape "$m" "$TMP/scrape.txt") || fail "the scrape of $m failed"
            wall=$(awk -v a="$wall" -v b="$t" 'BEGIN { print a + b }')
        done
        a1=$(cpu_s "$AGENT_PID") s1=$(cpu_s "$SNMPD_PID") e1=$(cpu_s "$EXPORTER_PID")
        vb=$(sed -n 's/^snmp_scrape_pdus_returned \([0-9.e+]*\)$/\1/p' "$TMP/scrape.txt")
        samples=$(grep -c -v '^#' "$TMP/scrape.txt")
        row=$(awk -v n="$n" -v m="$m" -v k="$scrapes" -v w="$wall" -v vb="$vb" -v sm="$samples" \
            -v a="$a0" -v A="$a1" -v s="$s0" -v S="$s1" -v e="$e0" -v E="$e1" 'BEGIN {
            ag = (A - a) / k; sd = (S - s) / k; ex = (E - e) / k
            printf "%6d %-24s %7.3f %9d %8d %9.3f %9.3f %9.3f %8.2f%%\n",
                n, m, w / k, vb, sm, ag, sd, ex, (ag + sd + ex) / 15 * 100 }')
        echo "$row"
        rows="$rows$row
"
    done
    stop_pid "$AGENT_PID"; AGENT_PID=
done
if [ -n "$json" ]; then
    printf '%s' "$rows" | awk -v groups="$groups" -v k="$scrapes" 'BEGIN { printf "[" }
        NF { printf "%s{\"cpus\": %d, \"groups\": %d, \"module\": \"%s\", \"scrapes\": %d, \"wall_s\": %s, \"varbinds\": %d, \"samples\": %d, \"agent_cpu_s\": %s, \"snmpd_cpu_s\": %s, \"exporter_cpu_s\": %s, \"core_pct_at_15s\": %s}",
             sep, $1, groups, $2, k, $3, $4, $5, $6, $7, $8, substr($9, 1, length($9) - 1); sep = ",\n " }
        END { print "]" }' >"$json"
    echo "json: $json"
fi
