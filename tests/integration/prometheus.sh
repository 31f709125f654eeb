#!/bin/sh
# Prometheus end to end, with Debian's engines and the shipped files
# (snmp.yml, or snmp-0.23.yml for snmp_exporter 0.23 and later, the
# scrape job and its relabelling, the rules), as a matrix:
# three hosts (a private snmpd master and the agent replaying a
# recording of 4 CPUs in 2 groups whose rates change at every set:
# cycles 1 to 5 M/s, every ratio varying on its own) polling every 1, 5
# and 10 s, each scraped with both modules (hw_r10kevctr: totals and
# groups; hw_r10kevctr_cpu: per CPU) by a job every 15 s and one every
# 60 s; one host also over SNMPv3 (authPriv, the user of
# conf/snmpd.conf.example, modules hw_r10kevctr_v3 and
# hw_r10kevctr_cpu_v3); a host whose recording ends (replay: rows
# ended, duty cycle 0) and a port where no SNMP agent answers.  For
# about three minutes, every value the recording rules made (every rule
# evaluation, per CPU, per group and summed, rates and ratios) is
# within 0.1 % of the truth computed from the recording for the scrapes
# it covers (tests/nms/prometheus-truth.py; what rate() makes of the
# same scrapes is shown beside it); the alerts that
# go pending are the ones that mean it (unreachable, not counting) and
# no other; the exporter's types reach Prometheus's metadata.  The
# console (conf/prometheus/consoles/hw-r10kevctr.html, with Debian's
# console libraries) lists the recording's outlier CPU (CPU 3, far from
# its group node1) first among the CPUs furthest from their group's IPC,
# with the deviation the recording gives (tests/nms/prometheus-console.py).
# A host polled every 5 s replays a recording whose CPU 3 (group node1)
# leaves for three sets twice and whose CPU 1 (node0) has its cycles
# reset in between: no value recorded across a discontinuity of what it
# covers, and none absent where the truth is defined (gaps stay local:
# the other CPUs' and the other group's values are there); its
# HwR10kEvCtrDiscontinuity alert fires (and HwR10kEvCtrGroupNotCounting
# goes pending for node1 while CPU 3 is away).  PROMETHEUS_RULES=FILE runs
# another rules file (bench/gap-absent.sh): the counts are reported,
# absent values not judged, and the test ends after them.
# Then, with an agent stopped, its host's series go away (no zeros).
. "$(dirname "$0")/lib.sh"

EXPORTER=${EXPORTER:-$(command -v prometheus-snmp-exporter || true)}
PROMETHEUS=${PROMETHEUS:-$(command -v prometheus || true)}
[ -n "$EXPORTER" ] && [ -n "$PROMETHEUS" ] ||
    { echo "SKIP: prometheus or prometheus-snmp-exporter not installed"; exit 77; }
command -v curl >/dev/null && command -v jq >/dev/null ||
    { echo "SKIP: curl or jq not installed"; exit 77; }
P=$HWR_SRCDIR/conf/prometheus
# Debian's console libraries (prom.lib, menu.lib), which the console uses.
CONSOLE_LIBS=${CONSOLE_LIBS:-}
for d in /etc/prometheus/console_libraries /usr/share/doc/prometheus/examples/console_libraries; do
    [ -n "$CONSOLE_LIBS" ] || { [ -f "$d/prom.lib" ] && CONSOLE_LIBS=$d; }
done
[ -f "$CONSOLE_LIBS/prom.lib" ] ||
    fail "no prom.lib in /etc/prometheus/console_libraries or Debian's examples (package prometheus): set CONSOLE_LIBS=DIR"
RUN=${PROMETHEUS_MATRIX_SECONDS:-170}
RULES=${PROMETHEUS_RULES:-$P/hw-r10kevctr.rules.yml}

# A recording per pollInterval, a set every interval for 25 minutes
# (the run ends long before the recording does): 4 CPUs, groups node0
# (CPUs 0, 1) and node1 (2, 3); CPU 3 far from its group's IPC.
for iv in 1 5 10; do
    python3 "$HWR_SRCDIR/tests/nms/varying-replay.py" "$TMP/rec$iv" "$iv" 1500 "$iv" 4 2 3 ||
        fail "could not write the recording"
done
start_matrix "backend replay
replayFile $TMP/rec@POLL@"
# The gap host, on its own master: the same 4 CPUs, CPU 3 away from
# sets 14 to 16 and 30 to 32 (70 and 150 s after its agent's start, well
# inside the run), CPU 1's cycles reset at set 22.
python3 "$HWR_SRCDIR/tests/nms/varying-replay.py" --gap 3:14:3 --gap 3:30:3 --reset 1:22 \
    "$TMP/recgap" 5 1500 47 4 2 3 || fail "could not write the recording with gaps"
start_pair gap "backend replay
replayFile $TMP/recgap
pollInterval 5"
M1=127.0.0.1:$P1 M5=127.0.0.1:$PORT_p5 M10=127.0.0.1:$PORT_p10 ME=127.0.0.1:$PORT_ended
MG=127.0.0.1:$PORT_gap
# two polls: the rates and statistics exist
has_rate() { case $(snmpq snmpget hwR10kEvCtrRateCycles.0) in [0-9]*) true ;; *) false ;; esac; }
for p in $PORT_gap $PORT_p5 $PORT_p10 $P1; do
    PORT=$p
    wait_until 25 has_rate || fail "no rate after two polls (port $p)"
done

# snmp_exporter 0.21 and 0.22 (Debian 12) read snmp.yml; 0.23 and later
# (Debian 13's 0.28) snmp-0.23.yml, where an SNMPv3 module (*_v3) needs
# its auth named (auth=hw_r10kevctr_v3; the SNMPv2c one's is the
# default): doc/nms.md.
EVERSION=$("$EXPORTER" --version 2>&1 | sed -n 's/^snmp_exporter, version \([^ ]*\).*/\1/p')
case $EVERSION in
0.[0-9].* | 0.1[0-9].* | 0.2[0-2].*) SNMPYML=$P/snmp.yml V3AUTH= ;;
*) SNMPYML=$P/snmp-0.23.yml V3AUTH=hw_r10kevctr_v3 ;;
esac
EPORT=$(free_port)
"$EXPORTER" --config.file="$SNMPYML" --web.listen-address="127.0.0.1:$EPORT" \
    >"$TMP/exporter.log" 2>&1 &
EXTRA_PIDS="$EXTRA_PIDS $!"
wait_until 20 curl -sf "http://127.0.0.1:$EPORT/metrics" || fail "snmp_exporter did not start"

# What each module walks and the types the exporter serves: the
# default the totals and the groups (labelled by name), the per-CPU one
# the CPUs; counters as counters; neither the per-poll rates nor the
# statistics (the rules compute their own); the same over SNMPv3.
scrape() { # scrape MODULE TARGET
    auth=; case $1 in *_v3) auth=$V3AUTH ;; esac
    curl -sf "http://127.0.0.1:$EPORT/snmp?module=$1&target=$2${auth:+&auth=$auth}"
}
scrape hw_r10kevctr "$M1" >"$TMP/scrape.txt" || fail "the exporter's scrape failed"
grep -q '^# TYPE hwR10kEvCtrCycles counter' "$TMP/scrape.txt" || fail "summed cycles not a counter"
grep -q '^# TYPE hwR10kEvCtrGroupCycles counter' "$TMP/scrape.txt" || fail "group cycles not a counter"
grep -q '^# TYPE hwR10kEvCtrCountingTime counter' "$TMP/scrape.txt" || fail "the counting time not a counter"
grep -q '^hwR10kEvCtrGroupCycles{hwR10kEvCtrGroupName="node1"} [0-9]' "$TMP/scrape.txt" ||
    fail "group node1's cycles not labelled by its name"
grep -q '^hwR10kEvCtrGroupCpus{hwR10kEvCtrGroupCpus="2-3",hwR10kEvCtrGroupName="node1"} 1' "$TMP/scrape.txt" ||
    fail "group node1's CPU list"
if grep '^hwR10kEvCtr\(Cpu[A-Z]\|Rate[A-Z]\|Stat[A-Z]\|GroupRate\|GroupStat\)' "$TMP/scrape.txt" | head -3 | grep .; then
    fail "the default module walks per-CPU objects, per-poll rates or statistics"
fi
scrape hw_r10kevctr_cpu "$M1" >"$TMP/scrape-cpu.txt" || fail "the exporter's per-CPU scrape failed"
grep -q '^# TYPE hwR10kEvCtrCpuCycles counter' "$TMP/scrape-cpu.txt" || fail "per-CPU cycles not a counter"
grep -q '^hwR10kEvCtrCpuStatus{hwR10kEvCtrCpuGroupName="node1",hwR10kEvCtrCpuIndex="3",hwR10kEvCtrCpuStatus="counting"} 1' "$TMP/scrape-cpu.txt" ||
    fail "CPU 3's status state set, labelled with its group"
grep -q '^hwR10kEvCtrCpuDiscontinuityTime{hwR10kEvCtrCpuGroupName="node1",hwR10kEvCtrCpuIndex="3"} [0-9]' "$TMP/scrape-cpu.txt" ||
    fail "CPU 3's discontinuity time, labelled with its group"
grep -q '^hwR10kEvCtrCpuCycles{hwR10kEvCtrCpuGroupName="node0",hwR10kEvCtrCpuIndex="1"} [0-9]' "$TMP/scrape-cpu.txt" ||
    fail "CPU 1's cycles not labelled with its group node0"
if grep '^hwR10kEvCtr\(CpuRate\|CpuStat[A-Z]\|Rate[A-Z]\|Stat[A-Z]\|Group\|CpuTime\)' "$TMP/scrape-cpu.txt" | head -3 | grep .; then
    fail "the per-CPU module walks per-poll rates, statistics, groups or the enabled/running times"
fi
n_counter=$(grep -c '^# TYPE hwR10kEvCtr.* counter' "$TMP/scrape.txt")
n_cpu=$(grep -c '^# TYPE hwR10kEvCtr.* counter' "$TMP/scrape-cpu.txt")
for m in hw_r10kevctr hw_r10kevctr_cpu; do
    scrape ${m}_v3 "$M5" >"$TMP/scrape-v3.txt" || fail "the exporter's SNMPv3 scrape of ${m}_v3 failed"
    scrape $m "$M5" >"$TMP/scrape-v2.txt" || fail "the exporter's scrape failed"
    [ "$(grep -c '^hwR' "$TMP/scrape-v3.txt")" = "$(grep -c '^hwR' "$TMP/scrape-v2.txt")" ] ||
        fail "SNMPv3 scrape of ${m}_v3: $(grep -c '^hwR' "$TMP/scrape-v3.txt") samples, v2c $(grep -c '^hwR' "$TMP/scrape-v2.txt")"
done
ok "exporter: hw_r10kevctr $(grep -c '^hwR' "$TMP/scrape.txt") samples ($n_counter counters), hw_r10kevctr_cpu $(grep -c '^hwR' "$TMP/scrape-cpu.txt") ($n_cpu), the same over SNMPv3 authPriv"
# The walk's PDUs, counted by the master (snmpInPkts, minus our two gets).
pkts() { snmpq snmpget 1.3.6.1.2.1.11.1.0; }
b=$(pkts); scrape hw_r10kevctr "$M1" >/dev/null; a=$(pkts)
b2=$(pkts); scrape hw_r10kevctr_cpu "$M1" >/dev/null; a2=$(pkts)
ok "one scrape of a 4-CPU host: $((a - b - 1)) request PDUs (hw_r10kevctr), $((a2 - b2 - 1)) (hw_r10kevctr_cpu)"

# The shipped default job (its relabelling is the per-CPU job's too),
# once per scrape interval and module.  Its relabelling and rules
# unchanged; targets, the exporter's address and the interval set here.
DEAD=127.0.0.1:$(free_port)
PPORT=$(free_port)
job() { # job NAME INTERVAL MODULE TARGET...
    name=$1 iv=$2 mod=$3; shift 3
    auth=; case $mod in *_v3) auth=$V3AUTH ;; esac
    targets=$(printf "'%s', " "$@"); targets=${targets%, }
    sed -n '/^  - job_name: hw_r10kevctr$/,/^$/p' "$P/prometheus.yml" | sed \
        -e "s|job_name: hw_r10kevctr|job_name: $name|" \
        -e 's| &hw_r10kevctr_[a-z]*$||' \
        -e "s|scrape_interval: 15s|scrape_interval: $iv\n    scrape_timeout: 10s|" \
        -e "s|module: \[hw_r10kevctr\]|module: [$mod]${auth:+\\n      auth: [$auth]}|" \
        -e "s|targets: \[snmp-host.example:161\]|targets: [$targets]|" \
        -e "s|replacement: 127.0.0.1:9116|replacement: 127.0.0.1:$EPORT|"
}
{
    printf 'global:\n  evaluation_interval: 15s\n'
    printf 'rule_files:\n  - %s\nscrape_configs:\n' "$RULES"
    job s15 15s hw_r10kevctr "$M1" "$M5" "$M10" "$ME" "$DEAD" "$MG"
    job s60 60s hw_r10kevctr "$M1" "$M5" "$M10"
    job v3 15s hw_r10kevctr_v3 "$M5"
    job c15 15s hw_r10kevctr_cpu "$M1" "$M5" "$M10" "$ME" "$MG"
    job c60 60s hw_r10kevctr_cpu "$M1" "$M5" "$M10"
    job cv3 15s hw_r10kevctr_cpu_v3 "$M5"
} >"$TMP/prometheus.yml"
"$PROMETHEUS" --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
    --web.console.templates="$P/consoles" --web.console.libraries="$CONSOLE_LIBS" \
    --web.listen-address="127.0.0.1:$PPORT" >"$TMP/prometheus.log" 2>&1 &
EXTRA_PIDS="$EXTRA_PIDS $!"
wait_until 30 curl -sf "http://127.0.0.1:$PPORT/-/ready" || fail "prometheus did not start"
START=$(date +%s)
API=http://127.0.0.1:$PPORT/api/v1

q() { # q PROMQL: the result vector as "labels<TAB>value" lines
    curl -sf "$API/query" --data-urlencode "query=$1" |
        jq -r '.data.result[] | "\(.metric | del(.__name__) | to_entries | map("\(.key)=\(.value)") | join(","))\t\(.value[1])"'
}

# Wait for the run, checking the alerts on the way.
alerts() { q 'ALERTS' | sed 's/,severity=[a-z]*//' | sort; }
pending_ok() {
    alerts >"$TMP/alerts.txt"
    grep -q "alertname=HwR10kEvCtrUnreachable,alertstate=pending,instance=$DEAD,job=s15,module=hw_r10kevctr" "$TMP/alerts.txt" &&
        grep -q "alertname=HwR10kEvCtrCpuNotCounting,alertstate=pending,cpu=0,instance=$ME,job=c15" "$TMP/alerts.txt"
}
wait_until 90 pending_ok || { cat "$TMP/alerts.txt"; fail "the unreachable host's and the ended CPU's alerts are not pending"; }
ok "pending: HwR10kEvCtrUnreachable for $DEAD, HwR10kEvCtrCpuNotCounting for the ended recording's CPU"
while [ $(($(date +%s) - START)) -lt "$RUN" ]; do
    alerts >"$TMP/alerts.txt"
    grep -v "HwR10kEvCtrUnreachable.*instance=$DEAD\|HwR10kEvCtrCpuNotCounting.*instance=$ME\|HwR10kEvCtrDiscontinuity,.*instance=$MG\|HwR10kEvCtrGroupNotCounting,alertstate=pending,group=node1,instance=$MG" "$TMP/alerts.txt" >"$TMP/wrong.txt" &&
        { cat "$TMP/wrong.txt"; fail "an alert that does not mean what it says"; }
    sleep 10
done
grep -q "alertname=HwR10kEvCtrDiscontinuity,alertstate=firing,instance=$MG" "$TMP/alerts.txt" ||
    { cat "$TMP/alerts.txt"; fail "no HwR10kEvCtrDiscontinuity for the gap host"; }
ok "no other alert in $RUN s (not HwR10kEvCtrMultiplexed for the ended CPU at duty cycle 0, not HwR10kEvCtrAbsent for the dead host) but the gap host's HwR10kEvCtrDiscontinuity and, while CPU 3 is away, its group's HwR10kEvCtrGroupNotCounting pending"

# Every rule value of every host and job, against the recording.
python3 "$HWR_SRCDIR/tests/nms/prometheus-truth.py" ${PROMETHEUS_RULES:+--report} "$API" \
    $(($(date +%s) - START + 15)) 0.1 \
    "$M1=1:$TMP/rec1" "$M5=5:$TMP/rec5" "$M10=10:$TMP/rec10" "$MG=5:$TMP/recgap" >"$TMP/truth.txt"
rc=$?
cat "$TMP/truth.txt"
[ "$rc" = 0 ] || fail "recorded values more than 0.1 % from the recording, across a discontinuity, absent where defined (or too few)"
[ "$(grep -c '^ok: pollInterval' "$TMP/truth.txt")" = 16 ] || fail "not every cell of the matrix judged"
if [ -n "${PROMETHEUS_RULES:-}" ]; then
    ok "rules $PROMETHEUS_RULES: values judged, the absent ones counted (not judged); the test ends here"
    exit 0
fi
# (the per-CPU job: the other CPUs and node0 across CPU 3's gaps, the
# other CPUs and node1 across CPU 1's reset; the default job: node0
# across CPU 3's first gap, before the reset)
for l in "c15, host $MG (with discontinuities): CPU 3's gaps" \
    "c15, host $MG (with discontinuities): CPU 1's reset" \
    "s15, host $MG (with discontinuities): CPU 3's gaps"; do
    grep -q "^local: pollInterval 5 s, job $l: .* [1-9][0-9]* present, 0 absent$" "$TMP/truth.txt" ||
        fail "no value of another CPU or group in the windows holding a discontinuity (job $l)"
done
ok "matrix: pollInterval 1, 5, 10 s x scrape 15, 60 s (and SNMPv3) x module, and a host with CPU 3's gaps and CPU 1's reset: every recorded rate and ratio (per CPU, per group, summed; each CPU's deviation from its group's IPC) within 0.1 % of the recording, none across a discontinuity of what it covers, none absent where defined"
[ -n "$(q 'instance_cpu:hw_r10kevctr_ipc:deviation_group_rate5m{job="c15",cpu="3",group="node1"}')" ] ||
    fail "no deviation recorded for CPU 3 of group node1"

# The console, for the host polled every 5 s and its 15 s jobs.
python3 "$HWR_SRCDIR/tests/nms/prometheus-console.py" "$API" \
    "http://127.0.0.1:$PPORT/consoles/hw-r10kevctr.html" s15 c15 "$M5=5:$TMP/rec5" 3 >"$TMP/console.txt"
rc=$?
cat "$TMP/console.txt"
[ "$rc" = 0 ] || fail "the console does not show the recording's outlier as the recording has it"
ok "console: totals, groups, and the outlier CPU first with the recording's deviation"
# HWR_PROMETHEUS_SCREENSHOT=FILE.png keeps a picture of the console
# (doc/img/prometheus-console.png is made so).
if [ -n "${HWR_PROMETHEUS_SCREENSHOT:-}" ]; then
    chromium --headless --no-sandbox --hide-scrollbars --window-size=1200,900 \
        --screenshot="$HWR_PROMETHEUS_SCREENSHOT" \
        "http://127.0.0.1:$PPORT/consoles/hw-r10kevctr.html?instance=$M5&job=s15&cpu_job=c15" \
        >"$TMP/chromium.log" 2>&1 || { cat "$TMP/chromium.log"; fail "chromium could not take the console's picture"; }
fi

# Metadata: the exporter's names carry TYPE and HELP; the renamed series
# carry none (prometheus.yml says so; doc/nms.md lists their types).
meta=$(curl -sfG "$API/targets/metadata" --data-urlencode 'metric=hwR10kEvCtrGroupCycles' --data-urlencode 'match_target={job="s15"}' |
    jq -r '.data[0].type')
[ "$meta" = counter ] || fail "metadata of hwR10kEvCtrGroupCycles: $meta"
meta=$(curl -sfG "$API/targets/metadata" --data-urlencode 'metric=hw_r10kevctr_group_events_total' | jq -r '.data | length')
[ "$meta" = 0 ] || fail "the renamed series have metadata now ($meta): update prometheus.yml's comment and doc/nms.md"
ok "metadata: hwR10kEvCtrGroupCycles is a counter with the MIB's HELP; renamed series have none (as documented)"

# The agent stops: its host's series go stale, never zero; the absent
# rule names the host.
stop_agent
gone() { [ -z "$(q "hw_r10kevctr_events_total{instance=\"$M1\",job=\"s15\"}")" ]; }
wait_until 40 gone || fail "series still served with the agent stopped: $(q "hw_r10kevctr_events_total{instance=\"$M1\"}" | head -3)"
[ -z "$(q "hw_r10kevctr_state{instance=\"$M1\",job=\"s15\"}")" ] || fail "state still served with the agent stopped"
[ "$(q 'up{module=~"hw_r10kevctr.*"} == 1 unless on(job, instance) hw_r10kevctr_state' | grep -c "instance=$M1,job=s15")" -ge 1 ] ||
    fail "HwR10kEvCtrAbsent's expression does not name the host"
ok "agent stopped: no hw_r10kevctr series (no zeros), the absent rule names the host"
ok "prometheus: $(( $(date +%s) - START )) s of scrapes"
