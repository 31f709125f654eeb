#!/bin/sh
# bench/bulkwalk.sh [CPUS] - end to end: time snmpbulkwalk of the whole
# module through a private snmpd master and the subagent on the sim backend
# with CPUS simulated CPUs (default 256), 5 runs, and the agent's RSS.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cpus=${1:-256}
"$top/tools/build.sh" "$top/build-bench"
HWR_SRCDIR=$top HWR_BUILDDIR=$top/build-bench
export HWR_SRCDIR HWR_BUILDDIR
. "$top/tests/integration/lib.sh"
start_master
start_agent "backend sim
pollInterval 5
simCpus $cpus"
wait_until 20 agent_serving || fail "the subagent did not come up"
sleep 5.5 # a second poll, so the rates exist too
for run in 1 2 3 4 5; do
    start=$(date +%s.%N)
    n=$(snmp snmpbulkwalk -Cr50 -On hwR10kEvCtrMIB | wc -l)
    end=$(date +%s.%N)
    echo "run $run: $n objects in $(echo "$end - $start" | bc) s"
done
echo "agent RSS: $(awk '/VmRSS/ {print $2, $3}' "/proc/$AGENT_PID/status")"
