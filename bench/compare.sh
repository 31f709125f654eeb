#!/bin/sh
# bench/compare.sh [--smoke] [--sizes "64 1024 4096"] [--json FILE]
#
# The agent side by side with the two references an administrator has,
# all in one run, everything (snmpd, agent, pass_persist script, client)
# pinned to CPU 0 with taskset:
#   agent  - hw-r10kevctr-agent on the sim backend, N CPUs;
#   snmpd  - the master walking its own objects (mib-2; no AgentX hop);
#   pass   - bench/passpersist.py serving the same per-CPU table (N rows of
#            31 Counter64s) through snmpd's pass_persist.
# For each N: varbinds/s of a full snmpbulkwalk -Cr25 (median of 3), of a
# column-parallel read of the per-CPU table (snmptable -Cb: one GETBULK
# carries every column), CPU ms per 1000 varbinds of each process (the
# scheduler's ns account, /proc/PID/schedstat), single-GET latency p50/p99
# (bench/getlat, thousands of random cells), the poll's cost
# (bench_mibview), the agent's RSS, and its idle CPU at a 1 s poll over
# 60 s.
# Prints a table and writes JSON (default build-bench/bench.json).
# --smoke: one small size, one run, short idle window: a check that the
# benchmark works (CI).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sizes="64 1024 4096" runs=3 gets=5000 idle=60 json= smoke=
while [ $# -gt 0 ]; do
    case $1 in
    --smoke) smoke=1 sizes=64 runs=1 gets=300 idle=3 ;;
    --sizes) sizes=$2; shift ;;
    --json) json=$2; shift ;;
    *) echo "usage: $0 [--smoke] [--sizes LIST] [--json FILE]" >&2; exit 2 ;;
    esac
    shift
done
bdir=${HWR_BENCH_BUILDDIR:-$top/build-bench}
"$top/tools/build.sh" "$bdir"
(cd "$bdir" && make -s bench/getlat bench/bench_mibview >/dev/null)
json=${json:-$bdir/bench.json}
command -v taskset >/dev/null || { echo "bench: taskset (util-linux) is needed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: python3 is needed" >&2; exit 1; }
# Everything on CPU 0: this shell, and so snmpd, the agent, the script
# and every client it starts.
if [ -z "${HWR_BENCH_PINNED:-}" ]; then
    HWR_BENCH_PINNED=1 HWR_BENCH_BUILDDIR=$bdir exec taskset -c 0 "$0" \
        ${smoke:+--smoke} --sizes "$sizes" --json "$json"
fi

HWR_SRCDIR=$top HWR_BUILDDIR=$bdir
export HWR_SRCDIR HWR_BUILDDIR
. "$top/tests/integration/lib.sh"

ROOT=.1.3.6.1.4.1.8072.9999.9999.59
PPROOT=.1.3.6.1.4.1.8072.9999.9998
HZ=$(getconf CLK_TCK)
COLUMNS=31

ticks() { [ -n "$1" ] && awk '{ print $14 + $15 }' "/proc/$1/stat" || echo 0; }
# CPU time in ns: the scheduler's own account (/proc/PID/schedstat), exact
# where 10 ms ticks would leave 6 or 7 of them in a minute of idle; ticks
# where the kernel has no schedstat.
runtime_ns() {
    if [ -r "/proc/$1/schedstat" ]; then cut -d' ' -f1 "/proc/$1/schedstat"
    else echo $(( $(ticks "$1") * 1000000000 / HZ )); fi
}
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
calc() { awk "BEGIN { printf \"%.${2:-1}f\", $1 }"; }
# per NS0 NS1 VARBINDS: CPU ms per 1000 varbinds
per() { calc "($2 - $1) / 1e6 / ($3 / 1000)" 2; }

# walk NAME CMD...: run CMD $runs times; sets rate (varbinds/s, median),
# n (varbinds) and cpu_<proc> (ms per 1000 varbinds) for agent, snmpd, pass.
walk() {
    name=$1; shift
    a0=$(runtime_ns "$AGENT_PID") s0=$(runtime_ns "$SNMPD_PID") p0=$(runtime_ns "$PASS_PID") total=0
    : >"$TMP/times"
    for _ in $(seq "$runs"); do
        t0=$(now)
        n=$("$@" 2>/dev/null | wc -l)
        t1=$(now)
        echo "$t0 $t1" | awk '{ print $2 - $1 }' >>"$TMP/times"
        total=$((total + n))
    done
    t=$(median <"$TMP/times")
    rate=$(calc "$n / $t" 0)
    cpu_agent=$(per "$a0" "$(runtime_ns "$AGENT_PID")" "$total")
    cpu_snmpd=$(per "$s0" "$(runtime_ns "$SNMPD_PID")" "$total")
    cpu_pass=$(per "$p0" "$(runtime_ns "$PASS_PID")" "$total")
    printf '  %-26s %8s varbinds %10s/s  CPU ms/1000: agent %6s snmpd %6s script %6s\n' \
        "$name" "$n" "$rate" "$cpu_agent" "$cpu_snmpd" "$cpu_pass"
}

bulk() { snmp snmpbulkwalk -Cr25 -On -m "" "$@"; }

sep=
echo "[" >"$TMP/json"
for cpus in $sizes; do
    echo "== $cpus CPUs"
    SNMPD_EXTRA="pass_persist $PPROOT $(command -v python3) $top/bench/passpersist.py $PPROOT $cpus $COLUMNS"
    start_master
    PASS_PID=
    start_agent "backend sim
pollInterval 1
simCpus $cpus"
    wait_until 60 agent_serving || fail "the subagent did not come up"
    two() { [ "$(snmpq snmpget hwR10kEvCtrPolls.0)" -ge 2 ]; }
    wait_until 30 two || fail "no second poll"
    # freeze at two polls (rates and statistics exist, no poll during runs)
    printf 'backend sim\npollInterval 3600\nsimCpus %s\n' "$cpus" >"$TMP/agent.conf"
    kill -HUP "$AGENT_PID"; sleep 1
    snmp snmpget -m "" "$PPROOT.1.1.0" >/dev/null # starts the script
    PASS_PID=$(pgrep -f "passpersist.py $PPROOT $cpus" | head -n 1)

    walk "agent: bulkwalk" bulk "$ROOT"; a_rate=$rate a_n=$n a_cpu=$cpu_agent a_m=$cpu_snmpd
    # a column-parallel read: every column a repeater (collectd, snmptable -Cb)
    a0=$(runtime_ns "$AGENT_PID") s0=$(runtime_ns "$SNMPD_PID") : >"$TMP/times" tn=0
    for _ in $(seq "$runs"); do
        set -- $("$bdir/bench/getlat" -c "127.0.0.1:$PORT" public "$ROOT.1.2.1" 3 \
            $((COLUMNS + 2)) 10)
        echo "$2" >>"$TMP/times"; tn=$((tn + $1)); t_n=$1
    done
    t=$(median <"$TMP/times")
    t_rate=$(calc "$t_n / $t" 0)
    t_cpu=$(per "$a0" "$(runtime_ns "$AGENT_PID")" "$tn")
    t_m=$(per "$s0" "$(runtime_ns "$SNMPD_PID")" "$tn")
    printf '  %-26s %8s varbinds %10s/s  CPU ms/1000: agent %6s snmpd %6s\n' \
        "agent: column-parallel" "$t_n" "$t_rate" "$t_cpu" "$t_m"
    walk "pass_persist: bulkwalk" bulk "$PPROOT"; p_rate=$rate p_n=$n p_cpu=$cpu_pass p_m=$cpu_snmpd
    # snmpd's own walk is 6k varbinds, a few tens of ms: the median of
    # 5x as many runs, so that the VM's moods average out as in the
    # agent's 70k-varbind walks
    runs0=$runs runs=$((runs * 5))
    walk "snmpd: own mib-2 walk" bulk .1.3.6.1.2.1; s_rate=$rate s_n=$n s_m=$cpu_snmpd
    runs=$runs0
    set -- $("$bdir/bench/getlat" "127.0.0.1:$PORT" public "$ROOT.1.2.1" 3 \
        $((COLUMNS + 2)) "$cpus" "$gets")
    g50=$1 g99=$2 gerr=$3
    echo "  single GET: p50 ${g50} us, p99 ${g99} us, $gerr errors"
    poll=$("$bdir/bench/bench_mibview" "$cpus" | sed -n 's/.*poll *\([0-9.]*\) us.*/\1/p')
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$AGENT_PID/status")
    echo "  poll ${poll} us (in-process), agent RSS ${rss} KiB"
    # idle: no client, a poll each second (the config's pollInterval
    # changed by SIGHUP; the sim backend stays open)
    printf 'backend sim\npollInterval 1\nsimCpus %s\n' "$cpus" >"$TMP/agent.conf"
    kill -HUP "$AGENT_PID"; sleep 2
    i0=$(runtime_ns "$AGENT_PID"); sleep "$idle"; i1=$(runtime_ns "$AGENT_PID")
    idle_pct=$(calc "($i1 - $i0) / 1e7 / $idle" 3)
    echo "  idle at a 1 s poll: ${idle_pct} % of a core over ${idle} s"
    cat >>"$TMP/json" <<JSON
$sep{"cpus": $cpus, "agent": {"walk_varbinds": $a_n, "walk_per_s": $a_rate,
 "cpu_ms_per_1000": $a_cpu, "master_cpu_ms_per_1000": $a_m,
 "column_varbinds": $t_n, "column_read_per_s": $t_rate, "column_cpu_ms_per_1000": $t_cpu,
 "column_master_cpu_ms_per_1000": $t_m,
 "get_p50_us": $g50, "get_p99_us": $g99, "get_errors": $gerr,
 "poll_us": ${poll:-null}, "rss_kib": $rss, "idle_pct_core": $idle_pct},
 "pass_persist": {"walk_varbinds": $p_n, "walk_per_s": $p_rate,
 "script_cpu_ms_per_1000": $p_cpu, "master_cpu_ms_per_1000": $p_m},
 "snmpd": {"walk_varbinds": $s_n, "walk_per_s": $s_rate,
 "cpu_ms_per_1000": $s_m}}
JSON
    sep=,
    stop_pid "$AGENT_PID" || true; AGENT_PID=
    stop_pid "$SNMPD_PID" || true; SNMPD_PID=; rm -f "$SOCK"
done
echo "]" >>"$TMP/json"
cp "$TMP/json" "$json"
python3 "$top/bench/table.py" "$json" || fail "bench wrote bad JSON"
echo "results: $json"
