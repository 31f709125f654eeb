#!/bin/sh
# The agent's own start is a counter discontinuity relative to its
# master's sysUpTime (its Counter64s start from 0 again), as for IF-MIB's
# ifCounterDiscontinuityTime (agent/stamps.c, the MIB's DESCRIPTION):
#  - killed (SIGKILL) and started again under a running snmpd:
#    hwR10kEvCtrDiscontinuityTime is the master's sysUpTime at the new
#    agent's first poll (between the sysUpTime read before the kill and
#    the one after), and snmptrapd gets exactly one
#    hwR10kEvCtrCounterDiscontinuity for it, once the session is open;
#  - a session dropped and opened again with the same master (SIGSTOP
#    past the AgentX timeout), or a reload's new session: the TimeStamps
#    stay, nothing is sent;
#  - a discontinuity while the session is down: sent once when the same
#    master answers again;
#  - started before its master: 0, nothing sent, and a master restart
#    under it keeps 0 and sends nothing.
. "$(dirname "$0")/lib.sh"

CONF="backend sim
pollInterval 1
agentxPingInterval 1
simCpus 2"
# the starts notified: a line per notification in the example's format
started() { grep -c 'hwR10kEvCtrDiscontinuityReason.0 = STRING: "*the agent started' "$TMP/trapd.log"; }
notified() { grep -c 'hwR10kEvCtrCounterDiscontinuity' "$TMP/trapd.log"; }
polls() { snmpq snmpget hwR10kEvCtrPolls.0; }
polls_past() { p=$(polls) && [ "$p" -gt "$1" ]; }
started_is() { [ "$(started)" = "$1" ]; }

start_trapd
start_master
start_agent "$CONF"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 20 polls_past 3 || fail "no polls"
# this agent, too, started under the running master
wait_until 10 started_is 1 || fail "the first start was not notified: $(cat "$TMP/trapd.log")"

# Kill it (no Close) and start it again under the same master.
set -- $(snmpq snmpget .1.3.6.1.2.1.1.3.0 hwR10kEvCtrPolls.0 hwR10kEvCtrCycles.0 hwR10kEvCtrDiscontinuityTime.0)
up0=$1 polls0=$2 cycles0=$3 disc0=$4
n0=$(notified)
kill -KILL "$AGENT_PID"; wait "$AGENT_PID" 2>/dev/null; AGENT_PID=
start_agent "$CONF"
new_agent() { p=$(polls) && [ "$p" -lt "$polls0" ]; }
wait_until 20 new_agent || fail "the restarted agent never answered"
set -- $(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0 .1.3.6.1.2.1.1.3.0 hwR10kEvCtrCycles.0 hwR10kEvCtrLastPollTime.0)
disc=$1 up1=$2 cycles1=$3 last=$4
[ "$cycles1" -lt "$cycles0" ] || fail "the counters did not restart: $cycles0 -> $cycles1"
[ "$disc" -gt 0 ] && [ "$disc" -ne "$disc0" ] ||
    fail "restart under a running master: DiscontinuityTime $disc0 -> $disc"
[ "$disc" -ge "$up0" ] && [ "$disc" -le "$up1" ] ||
    fail "DiscontinuityTime $disc not between sysUpTime $up0 before the kill and $up1 after"
[ "$disc" -le "$last" ] || fail "DiscontinuityTime $disc after the last poll $last"
ok "killed and restarted: Cycles $cycles0 -> $cycles1, DiscontinuityTime $disc0 -> $disc (sysUpTime $up0 .. $up1)"

wait_until 10 started_is 2 || fail "no notification of the restart: $(cat "$TMP/trapd.log")"
grep 'the agent started' "$TMP/trapd.log" | tail -n 1 |
    grep -q "hwR10kEvCtrDiscontinuityTime.0 = Timeticks: ($disc)" ||
    fail "the notification's DiscontinuityTime is not the GET's ($disc): $(tail -n 1 "$TMP/trapd.log")"
p=$(polls); wait_until 10 polls_past $((p + 2)) || fail "polls stopped"
[ "$(notified)" = $((n0 + 1)) ] ||
    fail "$(( $(notified) - n0 )) discontinuity notifications for one restart: $(cat "$TMP/trapd.log")"
grep -q "counter discontinuity at sysUpTime $disc: the agent started; notified now" "$TMP/agent.log" ||
    fail "the agent did not log the notified start"
ok "one hwR10kEvCtrCounterDiscontinuity ('the agent started') for the restart, with DiscontinuityTime $disc"

# The same master hung past the AgentX timeout: a new session, the same
# sysUpTime: nothing moves, nothing is sent.
conns() { grep -c "AgentX subagent connected" "$TMP/agent.log"; }
c0=$(conns)
kill -STOP "$SNMPD_PID"
wait_until 20 grep -q "did not answer" "$TMP/agent.log" || { kill -CONT "$SNMPD_PID"; fail "the hung master went unnoticed"; }
kill -CONT "$SNMPD_PID"
reconnected() { [ "$(conns)" -gt "$c0" ]; }
wait_until 20 reconnected || fail "no new session with the same master"
wait_until 20 agent_serving || fail "not served after the new session"
p=$(polls); wait_until 10 polls_past $((p + 1)) || fail "polls stopped"
d=$(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0)
[ "$d" = "$disc" ] || fail "a new session with the same master moved DiscontinuityTime $disc -> $d"
[ "$(notified)" = $((n0 + 1)) ] || fail "a new session with the same master sent a notification"
ok "a new session with the same master: DiscontinuityTime stays $d, no notification"

# A reload with a new agentxPingInterval: a new session handle (its
# sysUpTime starts from 0 until the master answers), the same master.
c0=$(conns)
printf '%s\nagentxPingInterval 2\n' "$(printf '%s\n' "$CONF" | grep -v agentxPingInterval)" >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
wait_until 20 reconnected || fail "no new session after the reload"
p=$(polls); wait_until 10 polls_past $((p + 2)) || fail "polls stopped"
set -- $(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0 .1.3.6.1.2.1.1.3.0 hwR10kEvCtrLastPollTime.0)
[ "$1" = "$disc" ] || fail "a reload's new session moved DiscontinuityTime $disc -> $1"
[ "$3" -gt "$disc" ] && [ "$3" -le "$2" ] || fail "after the reload's new session: LastPollTime $3, sysUpTime $2"
[ "$(notified)" = $((n0 + 1)) ] || fail "a reload's new session sent a notification"
ok "a reload's new session with the same master: DiscontinuityTime stays $1, LastPollTime $3 <= sysUpTime $2"

# A discontinuity while the session is down (the master hung, a reload
# that adds a CPU): sent when the same master answers again, once.
c0=$(conns)
n2=$(notified)
kill -STOP "$SNMPD_PID"
dropped() { [ "$(grep -c "did not answer" "$TMP/agent.log")" -gt 1 ]; }
wait_until 20 dropped || { kill -CONT "$SNMPD_PID"; fail "the hung master went unnoticed (2)"; }
printf '%s\nagentxPingInterval 2\nsimCpus 3\n' "$(printf '%s\n' "$CONF" | grep -v 'agentxPingInterval\|simCpus')" >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
wait_until 20 grep -q "will be sent when one connects" "$TMP/agent.log" ||
    { kill -CONT "$SNMPD_PID"; fail "the reload's discontinuity was not held for the master"; }
kill -CONT "$SNMPD_PID"
wait_until 20 reconnected || fail "no new session after the hung master"
joined() { grep -c 'hwR10kEvCtrDiscontinuityReason.0 = STRING: .*CPU 2 joined' "$TMP/trapd.log"; }
joined_is() { [ "$(joined)" = "$1" ]; }
wait_until 20 joined_is 1 || fail "the discontinuity while disconnected was not sent: $(tail -n 3 "$TMP/trapd.log")"
p=$(polls); wait_until 10 polls_past $((p + 2)) || fail "polls stopped"
d=$(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0)
[ "$d" -gt "$disc" ] || fail "DiscontinuityTime $disc -> $d after a CPU joined"
grep 'CPU 2 joined' "$TMP/trapd.log" | grep -q "hwR10kEvCtrDiscontinuityTime.0 = Timeticks: ($d)" ||
    fail "the late notification's DiscontinuityTime is not the GET's ($d)"
[ "$(notified)" = $((n2 + 1)) ] || fail "$(( $(notified) - n2 )) notifications for one discontinuity while disconnected"
ok "a discontinuity while the master hung: sent once when it answered, DiscontinuityTime $d"

# Started before its master: no discontinuity since that master's
# re-initialization.
stop_agent
stop_pid "$SNMPD_PID"; SNMPD_PID=
rm -f "$SOCK"
: >"$TMP/agent.log"
start_agent "$CONF"
wait_until 20 grep -q "polling backend sim" "$TMP/agent.log" || fail "the agent did not poll without a master"
n1=$(notified)
restart_master
wait_until 20 agent_serving || fail "the agent never connected to the later master"
p=$(polls); wait_until 10 polls_past $((p + 2)) || fail "polls stopped"
set -- $(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0 .1.3.6.1.2.1.1.3.0 hwR10kEvCtrLastPollTime.0)
[ "$1" = 0 ] || fail "agent before its master: DiscontinuityTime $1 (sysUpTime $2)"
[ "$3" -gt 0 ] && [ "$3" -le "$2" ] || fail "LastPollTime $3 (sysUpTime $2)"
[ "$(notified)" = "$n1" ] || fail "agent before its master: a notification was sent"
ok "started before its master: DiscontinuityTime 0, LastPollTime $3 <= sysUpTime $2, nothing sent"

# ... and that master restarted under it: still no discontinuity.
restart_master
wait_until 20 agent_serving || fail "no reconnection after the master restarted"
p=$(polls); wait_until 10 polls_past $((p + 1)) || fail "polls stopped"
set -- $(snmpq snmpget hwR10kEvCtrDiscontinuityTime.0 .1.3.6.1.2.1.1.3.0 hwR10kEvCtrLastPollTime.0)
[ "$1" = 0 ] && [ "$3" -le "$2" ] || fail "after a master restart: DiscontinuityTime $1, LastPollTime $3, sysUpTime $2"
[ "$(notified)" = "$n1" ] || fail "a master restart sent a discontinuity notification"
ok "the master restarted under it: DiscontinuityTime 0, nothing sent"
