#!/bin/sh
# The demo: builds if needed, starts a private snmpd master (127.0.0.1, a
# free high port, AgentX socket in a temp dir) and the subagent on the sim
# backend, prints a named snmpwalk of HW-R10KEVCTR-MIB, and stops both.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
HWR_BUILDDIR=$("$top/tools/build.sh" --reuse "$top/build-demo")
HWR_SRCDIR=$top
export HWR_SRCDIR HWR_BUILDDIR
. "$top/tests/integration/lib.sh"
start_master
start_agent "backend sim
pollInterval 1
simCpus 2
alarm brmp hw.r10kevctr.fail.brmp each rate 2000000 1000000"
wait_until 20 agent_serving || fail "the subagent did not come up"
sleep 1
echo "# snmpwalk -v2c -c public -m HW-R10KEVCTR-MIB 127.0.0.1:$PORT hwR10kEvCtrMIB"
snmp snmpwalk hwR10kEvCtrMIB
