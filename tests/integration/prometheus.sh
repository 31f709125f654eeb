#!/bin/sh
# Prometheus end to end, with Debian's engines: a private snmpd master and
# the agent (sim, 2 CPUs, known rates), snmp_exporter with the shipped
# snmp.yml, and a Prometheus server scraping it every second with the
# shipped scrape job (its relabelling) and rules.  After a minute of
# scrapes, the HTTP API's rate() and the recording rules equal the sim's
# rates within 2 %, per CPU and summed; then, with the agent stopped, the
# host's series go away (no zeros) and a host with no SNMP agent is up 0.
. "$(dirname "$0")/lib.sh"

EXPORTER=${EXPORTER:-$(command -v prometheus-snmp-exporter || true)}
PROMETHEUS=${PROMETHEUS:-$(command -v prometheus || true)}
[ -n "$EXPORTER" ] && [ -n "$PROMETHEUS" ] ||
    { echo "SKIP: prometheus or prometheus-snmp-exporter not installed"; exit 77; }
command -v curl >/dev/null && command -v jq >/dev/null ||
    { echo "SKIP: curl or jq not installed"; exit 77; }
P=$HWR_SRCDIR/conf/prometheus

start_master
# CPU n counts rate * (n + 1) per second (backend_sim.c).
start_agent "backend sim
pollInterval 1
simCpus 2
simRate hw.r10kevctr.cycles 1000000
simRate hw.r10kevctr.grad.instrg 500000
simRate hw.r10kevctr.grad.loadg 3000
simRate hw.r10kevctr.grad.storeg 1000
simRate hw.r10kevctr.pcache.dmiss 1000
simRate hw.r10kevctr.scache.dmiss 250
simRate hw.r10kevctr.issue.brd 2000
simRate hw.r10kevctr.fail.brmp 100"
wait_until 20 agent_serving || fail "the subagent never answered"
sleep 2.5 # two polls: the statistics exist

EPORT=$(free_port)
"$EXPORTER" --config.file="$P/snmp.yml" --web.listen-address="127.0.0.1:$EPORT" \
    >"$TMP/exporter.log" 2>&1 &
EXTRA_PIDS="$EXTRA_PIDS $!"
wait_until 20 curl -sf "http://127.0.0.1:$EPORT/metrics" || fail "snmp_exporter did not start"

# The shipped job with the test's addresses, a 1 s scrape, and a second
# target where no SNMP agent listens.
DEAD=127.0.0.1:$(free_port)
PPORT=$(free_port)
{
    printf 'global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n'
    sed -e "s|- hw-r10kevctr.rules.yml|- $P/hw-r10kevctr.rules.yml|" \
        -e "s|scrape_interval: 15s|scrape_interval: 1s\n    scrape_timeout: 1s|" \
        -e "s|targets: \[snmp-host.example:161\]|targets: ['127.0.0.1:$PORT', '$DEAD']|" \
        -e "s|replacement: 127.0.0.1:9116|replacement: 127.0.0.1:$EPORT|" \
        "$P/prometheus.yml"
} >"$TMP/prometheus.yml"
"$PROMETHEUS" --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
    --web.listen-address="127.0.0.1:$PPORT" >"$TMP/prometheus.log" 2>&1 &
EXTRA_PIDS="$EXTRA_PIDS $!"
wait_until 30 curl -sf "http://127.0.0.1:$PPORT/-/ready" || fail "prometheus did not start"
START=$(date +%s)

q() { # q PROMQL: the result vector as "labels<TAB>value" lines
    curl -sf "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" |
        jq -r '.data.result[] | "\(.metric | del(.job, .instance, .__name__) | to_entries | map("\(.key)=\(.value)") | join(","))\t\(.value[1])"'
}
# expect WHAT PROMQL LABELS VALUE: one series with exactly these labels, within 2 %
expect() {
    got=$(q "$2" | awk -F '\t' -v l="$3" '$1 == l { print $2 }')
    [ -n "$got" ] || { q "$2"; fail "$1: no series {$3} from $2"; }
    within 2 "$got" "$4" || fail "$1: $2 {$3} = $got, the sim's is $4"
    echo "ok: $1 {$3} = $got (sim $4)"
}

# The types the exporter serves: counters as counters, gauges as gauges.
curl -sf "http://127.0.0.1:$EPORT/snmp?module=hw_r10kevctr&target=127.0.0.1:$PORT" >"$TMP/scrape.txt" ||
    fail "the exporter's scrape failed"
grep -q '^# TYPE hwR10kEvCtrCpuCycles counter' "$TMP/scrape.txt" || fail "per-CPU cycles not a counter"
grep -q '^# TYPE hwR10kEvCtrStatIpc gauge' "$TMP/scrape.txt" || fail "IPC not a gauge"
grep -q '^# TYPE hwR10kEvCtrStatScondOk gauge' "$TMP/scrape.txt" || fail "ScondOk not a gauge"
grep -q '^hwR10kEvCtrCpuStatus{hwR10kEvCtrCpuIndex="1",hwR10kEvCtrCpuStatus="counting"} 1' "$TMP/scrape.txt" ||
    fail "CPU 1's status state set"
if grep -q 'Rate' "$TMP/scrape.txt"; then fail "the rate objects are exported"; fi
ok "exporter: $(grep -c '^hwR' "$TMP/scrape.txt") samples, types as the MIB says"

# rate() needs a full window of scrapes: the rules use 1m.
while [ $(($(date +%s) - START)) -lt 66 ]; do sleep 2; done

expect "rate() cycles cpu 0" 'rate(hw_r10kevctr_cpu_events_total{event="Cycles"}[1m])' "cpu=0,event=Cycles" 1000000
expect "rate() cycles cpu 1" 'rate(hw_r10kevctr_cpu_events_total{event="Cycles"}[1m])' "cpu=1,event=Cycles" 2000000
expect "rate() cycles summed" 'rate(hw_r10kevctr_events_total{event="Cycles"}[1m])' "event=Cycles" 3000000
expect "rule per-CPU rate" 'instance_cpu_event:hw_r10kevctr_events:rate1m{event="GradInstrg"}' "cpu=1,event=GradInstrg" 1000000
expect "rule summed rate" 'instance_event:hw_r10kevctr_events:rate1m{event="GradInstrg"}' "event=GradInstrg" 1500000
expect "rule IPC cpu 0" 'instance_cpu:hw_r10kevctr_ipc:ratio_rate1m' "cpu=0" 0.5
expect "rule IPC summed" 'instance:hw_r10kevctr_ipc:ratio_rate1m' "" 0.5
expect "rule pcache miss ratio" 'instance_cpu:hw_r10kevctr_pcache_dmiss:ratio_rate1m' "cpu=1" 0.25
expect "rule scache miss ratio" 'instance_cpu:hw_r10kevctr_scache_dmiss:ratio_rate1m' "cpu=0" 0.25
expect "rule mispredict ratio" 'instance_cpu:hw_r10kevctr_branch_mispredict:ratio_rate1m' "cpu=1" 0.05
# the agent's own statistic, in its scale (thousandths), as a gauge
expect "agent IPC statistic" 'hw_r10kevctr_cpu_ipc_thousandths' "cpu=1" 500
expect "state" 'hw_r10kevctr_state' "" "$(snmpq snmpget hwR10kEvCtrState.0)"
expect "cpurev info" 'hw_r10kevctr_cpurev_info' "cpurev=3.4" 1
expect "duty cycle" 'hw_r10kevctr_cpu_duty_cycle_percent' "cpu=0" 100
[ "$(q 'up' | sort)" = "$(printf '\t0\n\t1')" ] || { q up; fail "up is not 1 for the agent's host and 0 for the dead one"; }
ok "up: 1 for the host, 0 where no SNMP agent answers"
[ -z "$(q 'ALERTS{alertstate="firing"}')" ] || fail "alerts firing: $(q ALERTS)"

# The agent stops: its series go stale, never zero.
stop_pid "$AGENT_PID"; AGENT_PID=
sleep 8
[ -z "$(q 'hw_r10kevctr_events_total')" ] || fail "series still served with the agent stopped: $(q hw_r10kevctr_events_total | head -3)"
[ -z "$(q 'hw_r10kevctr_state')" ] || fail "state still served with the agent stopped"
[ "$(q 'up{job="hw_r10kevctr"} == 1 unless on(instance) hw_r10kevctr_state' | wc -l)" = 1 ] ||
    fail "HwR10kEvCtrAbsent's expression does not name the host"
ok "agent stopped: no hw_r10kevctr series (no zeros), the absent rule names the host"
ok "prometheus: $(( $(date +%s) - START )) s of scrapes"
