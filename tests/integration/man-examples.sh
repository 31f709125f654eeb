#!/bin/sh
# The man pages' examples, run as printed (taken from the rendered pages,
# not copied here): hw-r10kevctr-agent(8)'s quick start (a private snmpd,
# the agent, a named snmpwalk that must answer) and hw-r10kevctr.conf(5)'s
# example file (every line accepted).  The production line of (8) runs in
# the package's throwaway root (tests/deb/install-root.sh).
. "$(dirname "$0")/lib.sh"

command -v man >/dev/null || { echo "SKIP: man-db not installed"; exit 77; }
render() { MANWIDTH=200 man -l "$1" 2>/dev/null | sed 's/^ *//; s/  */ /g'; } # justified: one space
render "$HWR_SRCDIR/man/hw-r10kevctr-agent.8" >"$TMP/agent.8.txt"
render "$HWR_BUILDDIR/man/hw-r10kevctr.conf.5" >"$TMP/conf.5.txt" # generated

# ---- hw-r10kevctr-agent(8): EXAMPLES, the quick start
sed -n '/^Try it against a private master/,/^where/p' "$TMP/agent.8.txt" |
    grep -E '^(snmpd|hw-r10kevctr-agent|snmpwalk) ' >"$TMP/quick.cmds"
[ "$(wc -l <"$TMP/quick.cmds")" = 3 ] || fail "the quick start is not 3 commands: $(cat "$TMP/quick.cmds")"
# the files, as the page says what they hold
grep -q "snmpd.conf holds master agentx, agentXSocket unix:./agentx.sock and rocommunity public 127.0.0.1, and agent.conf holds backend sim" \
    "$TMP/agent.8.txt" || fail "the page no longer says what the quick start's files hold"
Q=$TMP/quick
mkdir -p "$Q"
printf 'master agentx\nagentXSocket unix:./agentx.sock\nrocommunity public 127.0.0.1\n' >"$Q/snmpd.conf"
printf 'backend sim\n' >"$Q/agent.conf"
# The commands as printed; only the programs are this build's and the
# test's snmpd (their names are the page's), and the MIBs are found where
# this build keeps them (MIBDIRS: Debian ships no IETF base MIBs).
MIBDIRS=$MIBPATH
export MIBDIRS
cmd() { sed -n "$1p" "$Q/../quick.cmds" | sed 's/ &$//'; }
(cd "$Q" && eval "exec \"$SNMPD\" $(cmd 1 | sed 's/^snmpd //')") >"$Q/snmpd.out" 2>&1 &
EXTRA_PIDS="$!"
wait_until 10 test -S "$Q/agentx.sock" || fail "the quick start's snmpd made no ./agentx.sock: $(cmd 1)"
(cd "$Q" && eval "exec $HWR_VALGRIND \"$AGENT\" $(cmd 2 | sed 's/^hw-r10kevctr-agent //')") >"$Q/agent.out" 2>&1 &
AGENT_PID=$!
walked() { (cd "$Q" && eval "$(cmd 3)") >"$Q/walk.out" 2>&1 && grep -q "hwR10kEvCtrCycles.0 = Counter64: " "$Q/walk.out"; }
wait_until 30 walked || fail "the quick start's snmpwalk: $(head -5 "$Q/walk.out")"
stop_agent "the quick start's agent"
ok "hw-r10kevctr-agent(8) quick start as printed: $(grep -c . "$Q/walk.out") objects walked by name"

# ---- hw-r10kevctr.conf(5): EXAMPLE
sed -n '/^# \/etc\/snmp\/hw-r10kevctr.conf$/,/^SEE ALSO$/p' "$TMP/conf.5.txt" |
    sed '/^SEE ALSO$/d; /^$/d' >"$TMP/example.conf"
grep -q "^backend " "$TMP/example.conf" || fail "no example file in hw-r10kevctr.conf(5): $(cat "$TMP/example.conf")"
"$AGENT" --dump -C -c "$TMP/example.conf" >"$TMP/example.out" 2>&1
if grep -E "Error|line [0-9]+" "$TMP/example.out"; then
    fail "hw-r10kevctr.conf(5)'s example has a bad line"
fi
grep -q "^backend perf$" "$TMP/example.out" || fail "the example's backend was not used: $(head -5 "$TMP/example.out")"
ok "hw-r10kevctr.conf(5) example: all $(grep -c . "$TMP/example.conf") lines accepted"
