#!/bin/sh
# SIGHUP reloads the config: a new CPU count changes the table and the
# discontinuity time and sends hwR10kEvCtrCounterDiscontinuity to the
# master's trap sink (a real snmptrapd); sums never go backwards; a bad
# config on reload is reported with FILE: line N and the running one stays.
. "$(dirname "$0")/lib.sh"

start_trapd
start_master
start_agent "backend sim
pollInterval 1
simCpus 2"
wait_until 20 agent_serving || fail "the subagent never answered"

# (started under a running master: its start is a discontinuity,
# agent-restart.sh)
set -- $(snmpq snmpget hwR10kEvCtrNumCpus.0 hwR10kEvCtrDiscontinuityTime.0 hwR10kEvCtrCycles.0)
[ "$1" = 2 ] && [ "$2" -gt 0 ] || fail "before reload: cpus=$1 disc=$2"
disc0=$2 before=$3

sed -i 's/^simCpus 2$/simCpus 4/' "$TMP/agent.conf"
kill -HUP "$AGENT_PID"
cpus4() { [ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = 4 ]; }
wait_until 10 cpus4 || fail "the table did not grow to 4 CPUs"
set -- $(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0 hwR10kEvCtrCycles.0 \
    hwR10kEvCtrCpuCycles.3 hwR10kEvCtrLastPollTime.0)
[ "$1" -gt "$disc0" ] || fail "discontinuity time not set: $disc0 -> $1"
[ "$2" -ge "$before" ] || fail "total went backwards: $before -> $2"
[ "$1" -le "$4" ] || fail "discontinuity $1 after the last poll $4"
# the new CPU counts from its first reading (the reopened sim's base)
cpu3_counts() { [ "$(snmpq snmpget hwR10kEvCtrCpuCycles.3)" -gt 0 ]; }
wait_until 10 cpu3_counts || fail "CPU 3 does not count"
disc=$1
grep -q "counter discontinuity: .*CPU 2 joined the table" "$TMP/agent.log" ||
    fail "the log does not say why"
ok "SIGHUP with simCpus 4: 4 rows, discontinuity at $disc, total $before -> $2"

got_trap() { grep -q "hwR10kEvCtrCounterDiscontinuity.*CPU 2 joined" "$TMP/trapd.log"; }
wait_until 10 got_trap || fail "no discontinuity notification at snmptrapd"
grep -q "hwR10kEvCtrDiscontinuityTime.0 = Timeticks: ($disc)" "$TMP/trapd.log" ||
    fail "notification varbinds disagree with GET ($disc)"
grep -q "hwR10kEvCtrNumCpus.0 = Gauge32: 4" "$TMP/trapd.log" || fail "NumCpus varbind"
grep -q 'hwR10kEvCtrDiscontinuityReason.0 = STRING: .*CPU 2 joined the table; CPU 3 joined the table' \
    "$TMP/trapd.log" || fail "the notification does not say why"
grep -q "^hwr10k notification from " "$TMP/trapd.log" || fail "the example's format2 is not used"
handled() { grep -q "hwR10kEvCtrNumCpus.0 = 4" "$TMP/handler.log"; }
wait_until 10 handled || fail "the example's traphandle (the shipped hwr10k-notify) did not run"
grep -q "^discontinuity from .*: .*hwR10kEvCtrDiscontinuityReason.0 = .*CPU 2 joined the table" "$TMP/handler.log" ||
    { cat "$TMP/handler.log"; fail "hwr10k-notify's line lacks the kind, the sender or the reason"; }
ok "snmptrapd (the shipped example) logged and handed on hwR10kEvCtrCounterDiscontinuity with the GET values; hwr10k-notify wrote one line"

printf 'backend sim\nsimCpus 1\npollInterval 0\n' >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
bad_logged() { grep -q "agent.conf: line 3: Error: pollInterval" "$TMP/agent.log"; }
wait_until 10 bad_logged || fail "bad reload line not reported"
grep -q "reload refused: 1 config problem(s), running config kept" "$TMP/agent.log" ||
    fail "no 'reload refused: 1 config problem(s), running config kept'"
more_polls 2
set -- $(snmpq snmpget hwR10kEvCtrNumCpus.0 hwR10kEvCtrPollInterval.0 hwR10kEvCtrDiscontinuityTime.0)
[ "$1" = 4 ] && [ "$2" = 1 ] && [ "$3" = "$disc" ] || fail "bad reload changed things: $*"
ok "a bad reload is named and ignored"

# One problem, one count: a config without its backend line (it was
# counted twice) is one problem; the running config stays.
printf 'simCpus 1\npollInterval 1\n' >"$TMP/agent.conf"
n=$(grep -c "reload refused" "$TMP/agent.log")
kill -HUP "$AGENT_PID"
refused_again() { [ "$(grep -c "reload refused" "$TMP/agent.log")" -gt "$n" ]; }
wait_until 10 refused_again || fail "the reload without a backend line was not refused"
grep "reload refused" "$TMP/agent.log" | tail -1 | grep -q "reload refused: 1 config problem(s), running config kept" ||
    fail "no backend line: $(grep "reload refused" "$TMP/agent.log" | tail -1)"
[ "$(grep -c "no 'backend' line" "$TMP/agent.log")" = 1 ] || fail "the missing backend line not named once"
[ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = 4 ] || fail "a reload without a backend line changed the table"
ok "a reload without a backend line: one problem, refused"

printf 'backend sim\nsimCpus 4\npollInterval 1\nsimRate hw.r10kevctr.cycles 7\n' >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
# 7 per second on the sim's clock: 7 per poll at pollInterval 1, counted
# between two polls (one GET sees one poll), whatever the machine's load
rate7() {
    set -- $(snmpq snmpget hwR10kEvCtrCpuCycles.0 hwR10kEvCtrPolls.0)
    a=$1 pa=$2
    wait_until 20 polls_past $((pa + 1)) || return 1
    set -- $(snmpq snmpget hwR10kEvCtrCpuCycles.0 hwR10kEvCtrPolls.0)
    [ $(($1 - a)) -eq $((7 * ($2 - pa))) ]
}
wait_until 10 rate7 || fail "the new rate did not apply"
ok "a good reload applies the new rates"

# The -c file removed before a SIGHUP: named, and the running config stays.
mv "$TMP/agent.conf" "$TMP/agent.conf.away"
kill -HUP "$AGENT_PID"
gone_logged() { grep -q "agent.conf: cannot read the config file: No such file" "$TMP/agent.log"; }
wait_until 10 gone_logged || fail "a missing config file on reload was not named"
# a file is not a line: one problem, named as a file
grep "reload refused" "$TMP/agent.log" | tail -1 | grep -q "reload refused: 1 config problem(s), running config kept" ||
    fail "a gone file: $(grep "reload refused" "$TMP/agent.log" | tail -1)"
grep -q "bad config line" "$TMP/agent.log" && fail "the log still speaks of bad lines"
more_polls 2
set -- $(snmpq snmpget hwR10kEvCtrNumCpus.0 hwR10kEvCtrBackend.0)
[ "$1" = 4 ] || fail "a missing config file on reload changed the table: $*"
mv "$TMP/agent.conf.away" "$TMP/agent.conf"
ok "a config file gone at reload is named; the running config stays"

# A relative -c path still names the same file after daemonizing (cwd /).
stop_agent
printf 'backend sim\nsimCpus 2\npollInterval 1\n' >"$TMP/rel.conf"
(cd "$TMP" && $HWR_VALGRIND "$AGENT" -C -c rel.conf -x "unix:$SOCK" -Lf "$TMP/daemon.log" -p "$TMP/daemon.pid")
wait_until 10 test -s "$TMP/daemon.pid" || fail "the daemon wrote no pid file"
DPID=$(cat "$TMP/daemon.pid")
AGENT_PID=$DPID # cleanup stops it if the test fails
cpus_are() { [ "$(snmpq snmpget hwR10kEvCtrNumCpus.0)" = "$1" ]; }
wait_until 20 cpus_are 2 || fail "the daemon does not serve rel.conf"
sed -i 's/^simCpus 2$/simCpus 3/' "$TMP/rel.conf"
kill -HUP "$DPID"
wait_until 10 cpus_are 3 || { cat "$TMP/daemon.log"; fail "a daemon's reload lost its relative -c file"; }
ok "a daemon reloads its relative -c file after chdir /"
stop_pid "$DPID"; AGENT_PID=
kill -0 "$DPID" 2>/dev/null && fail "the daemon did not stop on SIGTERM"
wait_until 5 test ! -e "$TMP/daemon.pid" || fail "the daemon left its pid file"
ok "the daemon stops on SIGTERM and removes its pid file"
