#!/bin/sh
# graph.sh - the picture in doc/nms.md: RRDtool (the engine under MRTG,
# collectd and Cacti) graphs what the agent served from a replay recording
# of a workload that changes phase: two CPUs at 195 MHz, compute-bound
# (IPC 1.5) then memory-bound (IPC 0.4, many primary data cache misses)
# then back.  A private snmpd master and the agent (replay backend, one
# sample set per second) are polled with snmpget every second; RRDtool
# stores the Counter64s as COUNTER data sources and draws the rates and
# the IPC it computes from them.  (A GET every second of counters that
# step once a second sees 0 or 2 steps now and then: the misses are drawn
# as a 5 s average; the IPC, a ratio of two such counters, needs none.)
# The axes are fixed (0 to 12 M misses/s, IPC 0 to 3), so the picture
# does not change with sampling jitter.
#   tools/graph.sh [OUT.png]        (default: doc/img/replay-phases.png)
# Takes about 100 s (one poll per recorded second).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
png=${1:-$top/doc/img/replay-phases.png}
command -v rrdtool >/dev/null || { echo "rrdtool not installed (Debian: rrdtool)" >&2; exit 77; }
HWR_BUILDDIR=$("$top/tools/build.sh" --reuse "$top/build-demo")
HWR_SRCDIR=$top
export HWR_SRCDIR HWR_BUILDDIR
. "$top/tests/integration/lib.sh"

SECONDS_RECORDED=96
# The recording: per second and CPU, cycles 195e6; graduated instructions
# and primary data cache misses by phase (CPU 1 a little busier).
awk -v n="$SECONDS_RECORDED" 'BEGIN {
    print "# tools/graph.sh: a workload in three phases on two R10000 CPUs"
    print "0 - hw.r10kevctr.cpurev 3.4"
    print "0 - hw.r10kevctr.state 3"
    for (t = 0; t <= n; t++) {
        for (cpu = 0; cpu < 2; cpu++) {
            if (t > 0) {
                mem = (t > n / 3 && t <= 2 * n / 3)
                ipc = mem ? 0.4 : 1.5
                ipc *= 1 + 0.1 * cpu + 0.05 * sin(t / 3 + cpu)
                cyc[cpu] += 195000000
                ins[cpu] += int(195000000 * ipc)
                miss[cpu] += int((mem ? 4000000 : 300000) * (1 + 0.1 * sin(t / 5 + cpu)))
            }
            printf "%d %d hw.r10kevctr.cycles %d\n", t, cpu, cyc[cpu]
            printf "%d %d hw.r10kevctr.grad.instrg %d\n", t, cpu, ins[cpu]
            printf "%d %d hw.r10kevctr.pcache.dmiss %d\n", t, cpu, miss[cpu]
        }
    }
}' >"$TMP/phases.replay"

start_master
start_agent "backend replay
replayFile $TMP/phases.replay
replayLoop no
pollInterval 1"
wait_until 20 agent_serving || fail "the subagent did not come up"

rrd=$TMP/r10k.rrd
start=$(date +%s)
rrdtool create "$rrd" --start $((start - 1)) --step 1 \
    DS:cyc0:COUNTER:5:U:U DS:cyc1:COUNTER:5:U:U \
    DS:ins0:COUNTER:5:U:U DS:ins1:COUNTER:5:U:U \
    DS:miss0:COUNTER:5:U:U DS:miss1:COUNTER:5:U:U \
    RRA:AVERAGE:0.5:1:300
oids="hwR10kEvCtrCpuCycles.0 hwR10kEvCtrCpuCycles.1 hwR10kEvCtrCpuGradInstrg.0
      hwR10kEvCtrCpuGradInstrg.1 hwR10kEvCtrCpuPcacheDmiss.0 hwR10kEvCtrCpuPcacheDmiss.1"
echo "graph.sh: polling the agent for $SECONDS_RECORDED s"
last=
for _ in $(seq "$SECONDS_RECORDED"); do
    sleep 1
    # shellcheck disable=SC2086
    vals=$(snmpq snmpget $oids | tr '\n' ':' | sed 's/:$//')
    now=$(date +%s)
    case "$vals" in *[!0-9:]*|"") continue ;; esac
    [ "$now" = "$last" ] && continue
    rrdtool update "$rrd" "$now:$vals"
    last=$now
done
end=$(date +%s)
mkdir -p "$(dirname "$png")"
rrdtool graph "$png" --start "$start" --end "$end" --width 640 --height 200 \
    --title "R10000 replay through hw-r10kevctr-agent (RRDtool, SNMPv2c GET every 1 s)" \
    --vertical-label "misses per second" --right-axis 0.00000025:0 \
    --lower-limit 0 --upper-limit 12000000 --rigid \
    --right-axis-label "instructions per cycle" --right-axis-format %.1lf \
    --font DEFAULT:8: \
    DEF:c0="$rrd":cyc0:AVERAGE DEF:c1="$rrd":cyc1:AVERAGE \
    DEF:i0="$rrd":ins0:AVERAGE DEF:i1="$rrd":ins1:AVERAGE \
    DEF:m0="$rrd":miss0:AVERAGE DEF:m1="$rrd":miss1:AVERAGE \
    CDEF:ipc0=i0,c0,/,4000000,\* CDEF:ipc1=i1,c1,/,4000000,\* \
    CDEF:miss1s=m0,m1,+ CDEF:miss=miss1s,5,TRENDNAN \
    AREA:miss#f4a46080:"primary data cache misses, both CPUs (5 s average)" \
    LINE2:ipc0#1f77b4:"IPC CPU 0 (right axis)" \
    LINE2:ipc1#2ca02c:"IPC CPU 1 (right axis)" >/dev/null
echo "graph.sh: wrote $png"
