#!/bin/sh
# CPU groups through a real master: a sim of 10 CPUs in 3 nodes (simNodes)
# walked once; each group's counter and rate equals the sum of its CPUs'
# values from the same walk (an independent truth: the walk's own CPU
# rows, the group's CPU list as served), the totals the sum of the
# groups; each CPU's row names its group; cpuGroup lines replace the
# nodes at a reload (a CPU in none: an empty name); -t names bad
# cpuGroup lines with file and line.
. "$(dirname "$0")/lib.sh"

R=.1.3.6.1.4.1.8072.9999.9999.59.1
start_master
start_agent "backend sim
pollInterval 2
simCpus 10
simSeed 7
simNodes 3"
wait_until 20 agent_serving || fail "the subagent never answered"
wait_until 20 polls_past 2 || fail "no second poll"

# check_walk NGROUPS: one bulkwalk; per group and counter, the group's
# Counter64 (.12) and rate (.13) against the CPUs' (.2, .6) of its list
# (.11.1.3), and every summed scalar (.1.ARC) against the groups' sum.
check_walk() {
    snmp snmpbulkwalk -Cr50 -On -OUqt hwR10kEvCtrMIB >"$TMP/walk" || fail "walk: $(cat "$TMP/walk")"
    awk -v R="$R" -v want="$1" -v all="$2" '
    function arc(oid, n,   a) { split(substr(oid, length(R) + 2), a, "."); return a[n] }
    function expand(list, g,   parts, i, r, c) {
        gsub(/"/, "", list); split(list, parts, ",")
        for (i in parts) {
            if (split(parts[i], r, "-") == 2) { for (c = r[1]; c <= r[2]; c++) grp[c] = g }
            else grp[parts[i]] = g
        }
    }
    index($1, R ".") == 1 {
        t = arc($1, 1); c = arc($1, 3); i = arc($1, 4)
        if (t == 11 && c == 3) { expand($2, i); ngroups++ }
        else if (t == 11 && c == 5) counting[i] = $2
        else if (t == 2) { cpu[c, i] = $2; cpus[i] = 1 }
        else if (t == 6) crate[c, i] = $2
        else if (t == 12) { gval[c, i] = $2; cols[c] = 1 }
        else if (t == 13) grate[c, i] = $2
        else if (t == 1 && arc($1, 2) > 2) total[arc($1, 2)] = $2
    }
    END {
        if (ngroups != want) { print "groups: " ngroups " (want " want ")"; exit 1 }
        for (c in cols) {
            delete s; delete r
            for (i in cpus) if (i in grp) { s[grp[i]] += cpu[c, i]; r[grp[i]] += crate[c, i] }
            t = 0
            for (g = 1; g <= ngroups; g++) {
                if (gval[c, g] != s[g]) { print "group " g " column " c ": " gval[c, g] " != " s[g]; exit 1 }
                if (grate[c, g] != r[g]) { print "group " g " rate " c ": " grate[c, g] " != " r[g]; exit 1 }
                t += gval[c, g]
            }
            if (all && total[c] != t) { print "total " c ": " total[c] " != " t; exit 1 }
            n++
        }
        if (n < 20) { print "only " n " counters"; exit 1 }
        print n
    }' "$TMP/walk" >"$TMP/check" || fail "$(cat "$TMP/check")"
}
check_walk 3 1
n=$(cat "$TMP/check")
set -- $(snmpq snmpget hwR10kEvCtrGroupName.1 hwR10kEvCtrGroupCpus.1 \
    hwR10kEvCtrGroupCpus.3 hwR10kEvCtrGroupNumCpus.2 hwR10kEvCtrGroupCountingCpus.3)
[ "$*" = '"node0" "0-3" "7-9" 3 3' ] || [ "$*" = 'node0 0-3 7-9 3 3' ] || fail "group rows: $*"
out=$(snmp snmpget -Ir hwR10kEvCtrGroupName.4 "$R.11.1.2.0")
[ "$(echo "$out" | grep -c 'No Such Instance')" = 2 ] || fail "groups 0 and 4: $out"
ok "3 sim nodes: $n counters and rates per group are the sums of their CPUs' in one walk, the totals the groups'"

# cpu_group CPU NAME: hwR10kEvCtrCpuGroupName.CPU is NAME ('' for none)
cpu_group() {
    got=$(snmpq snmpget "hwR10kEvCtrCpuGroupName.$1")
    [ "$got" = "\"$2\"" ] || [ "$got" = "$2" ] || fail "CPU $1's group: $got, not '$2'"
}
cpu_group 0 node0; cpu_group 3 node0; cpu_group 4 node1; cpu_group 9 node2
ok "each CPU's row names its node (0-3 node0, 4-6 node1, 7-9 node2)"

# cpuGroup lines replace the nodes; CPUs in no group are in the totals only.
printf 'backend sim\npollInterval 2\nsimCpus 10\nsimSeed 7\nsimNodes 3\ncpuGroup even 0,2,4,6\ncpuGroup odd 1,3,5\n' >"$TMP/agent.conf"
kill -HUP "$AGENT_PID"
groups_are() { [ "$(snmpq snmpget hwR10kEvCtrGroupName.2)" = '"odd"' ] || [ "$(snmpq snmpget hwR10kEvCtrGroupName.2)" = odd ]; }
wait_until 10 groups_are || fail "cpuGroup lines not served: $(snmp snmpwalk hwR10kEvCtrGroupTable)"
p=$(polls); wait_until 10 polls_past $((p + 2)) || fail "no polls after the reload"
check_walk 2 0
ok "cpuGroup lines replace the nodes at a reload: each group the sum of its CPUs"
cpu_group 2 even; cpu_group 3 odd; cpu_group 7 ''; cpu_group 9 ''
[ "$(snmp snmpwalk -OUqv hwR10kEvCtrCpuGroupName | wc -l)" = 10 ] ||
    fail "not every CPU row has its group's name: $(snmp snmpwalk hwR10kEvCtrCpuGroupName)"
ok "after the reload each CPU names its cpuGroup, a CPU in none an empty name (every row has one)"

printf 'backend sim\ncpuGroup a 0-3\ncpuGroup b 3-5\ncpuGroup a 8\ncpuGroup c 9-7\n' >"$TMP/bad.conf"
"$AGENT" -t -C -c "$TMP/bad.conf" >"$TMP/out" 2>&1 && fail "-t passed a bad cpuGroup"
for want in "line 3: Error: cpuGroup: CPU 3 of group 'b' is in group 'a' already" \
    "line 4: Error: cpuGroup: group 'a' named twice" \
    "line 5: Error: cpuGroup: group 'c': bad CPU list '9-7'"; do
    grep -qF "$TMP/bad.conf: $want" "$TMP/out" || fail "-t: no '$want' in: $(cat "$TMP/out")"
done
ok "-t names overlapping, twice-named and badly listed groups with file and line"
