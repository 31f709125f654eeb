#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then (CI: the
# Debian 13 root), after the README's first command built build-demo/:
# installs the release's snmp_exporter (Debian 13: 0.28), starts it on
# 127.0.0.1 with the shipped conf/prometheus/snmp-0.23.yml (the auths:
# format), and scrapes /snmp once per module from the private snmpd and
# the agent on the sim (tests/integration/lib.sh, as tools/demo.sh):
# hw_r10kevctr and hw_r10kevctr_cpu over SNMPv2c (the default auth
# public_v2), hw_r10kevctr_v3 and hw_r10kevctr_cpu_v3 over SNMPv3
# authPriv (auth=hw_r10kevctr_v3, the user of conf/snmpd.conf.example).
# The scraped cycles counters (the sum; per CPU, CPUs 0 and 1) must
# equal an snmpget of the same poll.
set -eu
export DEBIAN_FRONTEND=noninteractive
t=$(date +%s)
# no daemon starts on install (the package's own exporter service)
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
apt-get install -y -q --no-install-recommends prometheus-snmp-exporter curl >/tmp/exporter-install.log 2>&1 ||
    { tail -n 20 /tmp/exporter-install.log; exit 1; }
rm -f /usr/sbin/policy-rc.d
EXPORTER=/usr/bin/prometheus-snmp-exporter
version=$("$EXPORTER" --version 2>&1 | sed -n 's/^snmp_exporter, version \([^ ]*\).*/\1/p')
echo "ok: snmp_exporter $version installed in $(($(date +%s) - t)) s"

HWR_SRCDIR=$(pwd) HWR_BUILDDIR=$(pwd)/build-demo
export HWR_SRCDIR HWR_BUILDDIR
. tests/integration/lib.sh
CONFIG=$HWR_SRCDIR/conf/prometheus/snmp-0.23.yml
"$EXPORTER" --dry-run --config.file="$CONFIG" >"$TMP/dry-run.log" 2>&1 ||
    { cat "$TMP/dry-run.log"; fail "snmp_exporter $version rejects snmp-0.23.yml"; }
SNMPD_EXTRA=$(grep -E '^(view|createUser|rouser) ' "$HWR_SRCDIR/conf/snmpd.conf.example")
start_master
# pollInterval 2: a poll stays served while the exporter and snmpget read it
start_agent "backend sim
pollInterval 2
simCpus 2"
wait_until 20 agent_serving || fail "the subagent did not come up"
counted() { c=$(snmpq snmpget hwR10kEvCtrCycles.0) && [ "$c" -gt 0 ]; }
wait_until 20 counted || fail "no cycles counted after 20 s"

for try in 1 2 3 4 5; do
    EPORT=$((30000 + ($$ * 13 + try * 977) % 20000))
    "$EXPORTER" --config.file="$CONFIG" --web.listen-address="127.0.0.1:$EPORT" \
        >"$TMP/exporter.log" 2>&1 &
    EPID=$!
    wait_until 10 curl -sf "http://127.0.0.1:$EPORT/metrics" && break
    stop_pid "$EPID"; EPID=
done
[ -n "$EPID" ] || { cat "$TMP/exporter.log"; fail "snmp_exporter did not start"; }
EXTRA_PIDS="$EXTRA_PIDS $EPID"

# scrape MODULE [AUTH]: the exporter's /snmp page for the agent
scrape() {
    curl -sf "http://127.0.0.1:$EPORT/snmp?module=$1&target=127.0.0.1:$PORT${2:+&auth=$2}"
}
sample() { sed -n "s/^$1 \([0-9.e+]*\)$/\1/p" "$2" | awk '{ printf "%.0f\n", $1 }'; }
# (a CPU's sample: its index among its labels, its group's name beside it)
label_sample() { sed -n "s/^$1{\([^}]*,\)\{0,1\}hwR10kEvCtrCpuIndex=\"$2\"\(,[^}]*\)\{0,1\}} \([0-9.e+]*\)$/\3/p" "$3" | awk '{ printf "%.0f\n", $1 }'; }
check_module() { # check_module MODULE [AUTH]
    case $1 in
    *_cpu*) objs="hwR10kEvCtrCpuCycles.0 hwR10kEvCtrCpuCycles.1" what="CPU 0, CPU 1" counter=hwR10kEvCtrCpuCycles ;;
    *) objs=hwR10kEvCtrCycles.0 what=sum counter=hwR10kEvCtrCycles ;;
    esac
    for try in 1 2 3; do
        before=$(snmpq snmpget hwR10kEvCtrPolls.0)
        scrape "$@" >"$TMP/scrape.txt" || fail "the scrape of module $1 failed ($(tail -n 3 "$TMP/exporter.log"))"
        walked=$(snmpq snmpget $objs | tr '\n' ' ' | sed 's/ $//')
        after=$(snmpq snmpget hwR10kEvCtrPolls.0)
        [ "$before" = "$after" ] && break # the same poll
    done
    [ "$before" = "$after" ] || fail "the agent polled during every try"
    case $1 in
    *_cpu*) scraped="$(label_sample hwR10kEvCtrCpuCycles 0 "$TMP/scrape.txt") $(label_sample hwR10kEvCtrCpuCycles 1 "$TMP/scrape.txt")" ;;
    *) scraped=$(sample hwR10kEvCtrCycles "$TMP/scrape.txt") ;;
    esac
    case $walked in 0\ * | 0 | '') fail "module $1: no cycles counted ($walked)" ;; esac
    [ "$scraped" = "$walked" ] || fail "module $1: cycles scraped '$scraped', snmpget '$walked'"
    grep -q "^# TYPE $counter counter" "$TMP/scrape.txt" || fail "module $1: $counter not a counter"
    grep -q '^# TYPE hwR10kEvCtrCountingTime counter' "$TMP/scrape.txt" || fail "module $1: the counting time not a counter"
    ok "snmp_exporter $version, module $1${2:+ auth $2}: $(grep -c '^hwR' "$TMP/scrape.txt") samples, cycles ($what) $walked as snmpget reads them"
}
check_module hw_r10kevctr
check_module hw_r10kevctr_v3 hw_r10kevctr_v3
check_module hw_r10kevctr_cpu
check_module hw_r10kevctr_cpu_v3 hw_r10kevctr_v3
