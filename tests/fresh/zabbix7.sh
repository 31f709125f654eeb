#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then (a Debian
# 13 root: Zabbix 7.0), after the README's first command built
# build-demo/:
#   tests/fresh/readme-root.sh --suite trixie --then zabbix7.sh
# installs Zabbix's server, frontend and PostgreSQL from the release,
# runs them privately as tests/integration/zabbix.sh does (zabbix-lib.sh:
# a cluster in a temp dir, the API on php -S), imports the shipped
# template (6.0's export format) through configuration.import, links it
# to a host on the private snmpd and the agent on the sim (2 CPUs, a
# group each), per-CPU discovery turned on, and checks that discovery
# makes the per-group and per-CPU items, that no item or discovery rule
# of the host is unsupported, and that the counters, the state and the
# calculated rates (the exact formulas, {$HWR10K.NODATA} after the items
# appear) get values.
set -eu
export DEBIAN_FRONTEND=noninteractive
t=$(date +%s)
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
apt-get install -y -q --no-install-recommends postgresql zabbix-server-pgsql zabbix-frontend-php \
    php-cli php-pgsql php-bcmath php-mbstring php-gd php-xml locales curl jq python3 \
    >/tmp/zabbix-install.log 2>&1 || { tail -n 20 /tmp/zabbix-install.log; exit 1; }
rm -f /usr/sbin/policy-rc.d
echo "ok: Zabbix $(dpkg-query -W -f='${Version}' zabbix-server-pgsql) and PostgreSQL installed in $(($(date +%s) - t)) s"

HWR_SRCDIR=$(pwd) HWR_BUILDDIR=$(pwd)/build-demo
export HWR_SRCDIR HWR_BUILDDIR
# as tests/integration/zabbix.sh: every check says "|| fail" (zabbix-lib's
# exit trap stops the servers with commands that may fail)
set +e
. tests/integration/lib.sh
. tests/integration/zabbix-lib.sh
zbx_need
start_master
start_agent "backend sim
pollInterval 1
simCpus 2
simNodes 2"
wait_until 20 agent_serving || fail "the subagent did not come up"
zbx_start
zbx_import
T1=$(date +%s)
GROUP=$(call hostgroup.get '{"filter": {"name": ["Linux servers"]}, "output": ["groupid"]}' | jq -r '.[0].groupid')
HOST=$(call host.create "{\"host\": \"sim\",
    \"groups\": [{\"groupid\": \"$GROUP\"}], \"templates\": [{\"templateid\": \"$TPL\"}],
    \"interfaces\": [{\"type\": 2, \"main\": 1, \"useip\": 1, \"ip\": \"127.0.0.1\", \"dns\": \"\",
        \"port\": \"$PORT\", \"details\": {\"version\": 2, \"bulk\": 1, \"community\": \"public\"}}],
    \"macros\": [{\"macro\": \"{\$HWR10K.INTERVAL}\", \"value\": \"10s\"},
        {\"macro\": \"{\$HWR10K.INFO.INTERVAL}\", \"value\": \"30s\"},
        {\"macro\": \"{\$HWR10K.LLD.INTERVAL}\", \"value\": \"5s\"},
        {\"macro\": \"{\$HWR10K.NODATA}\", \"value\": \"30s\"},
        {\"macro\": \"{\$HWR10K.WINDOW}\", \"value\": \"30s\"},
        {\"macro\": \"{\$HWR10K.CPU.WALK}\", \"value\": \"1.3.6.1.4.1.8072.9999.9999.59.1\"},
        {\"macro\": \"{\$HWR10K.LLD.CPU.MATCHES}\", \"value\": \".*\"}]}" | jq -r '.hostids[0]')
itemid() { # itemid KEY
    call item.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"key_\": [\"$1\"]}, \"output\": [\"itemid\"]}" |
        jq -r '.[0].itemid // empty'
}
lastvalue() { # lastvalue KEY
    call item.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"key_\": [\"$1\"]}, \"output\": [\"lastvalue\", \"lastclock\"]}" |
        jq -r '.[0] | select(.lastclock != "0") | .lastvalue'
}
discovered() { [ -n "$(itemid 'hwr10k.cpu.events[1,cycles]')" ] && [ -n "$(itemid 'hwr10k.group.events[node1,cycles]')" ]; }
wait_until 120 discovered || fail "low-level discovery made no item for CPU 1 or group node1"
nitems=$(call item.get "{\"hostids\": [\"$HOST\"], \"countOutput\": true}" | tr -d '"')
ok "LLD: CPU 1's items made $(($(date +%s) - T1)) s after linking ($nitems items)"
# the rates start about {$HWR10K.WINDOW} after their items appear
rated() { v=$(lastvalue 'hwr10k.cpu.events[1,cycles]') && [ -n "$v" ] &&
    v=$(lastvalue 'hwr10k.group.events[node1,cycles]') && [ -n "$v" ]; }
wait_until 150 rated || fail "no value of CPU 1's cycle rate"
sleep 20 # more readings of every item
bad=$(call item.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"state\": 1}, \"output\": [\"key_\", \"error\"]}")
[ "$bad" = "[]" ] || fail "unsupported items: $bad"
badrules=$(call discoveryrule.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"state\": 1}, \"output\": [\"key_\", \"error\"]}")
[ "$badrules" = "[]" ] || fail "unsupported discovery rules: $badrules"
nvalues=$(call item.get "{\"hostids\": [\"$HOST\"], \"output\": [\"lastclock\"]}" | jq '[.[] | select(.lastclock != "0")] | length')
rate=$(lastvalue 'hwr10k.cpu.events[1,cycles]')
state=$(lastvalue hwr10k.state)
[ "$state" = "$(snmpq snmpget hwR10kEvCtrState.0)" ] || fail "state $state"
simrate=$(sed -n 's/^M(3, "cycles", .*, \([0-9]*\))$/\1/p' "$HWR_SRCDIR/lib/tables/metrics.def")
# CPU 1 counts twice the sim's rate (tests/fresh/readme-root.sh)
within 0.1 "$rate" $((2 * simrate)) || fail "CPU 1's cycle rate $rate, the sim's 2 x $simrate"
grate=$(lastvalue 'hwr10k.group.events[node1,cycles]')
within 0.1 "$grate" $((2 * simrate)) || fail "node1's (CPU 1's) cycle rate $grate, the sim's 2 x $simrate"
ok "Zabbix $version: no unsupported item or discovery rule ($nitems items, $nvalues with values), state $state, CPU 1's cycles $rate/s, node1's $grate/s (the sim's 2 x $simrate)"
ok "zabbix7.sh: $(($(date +%s) - ZBX_T0)) s from PostgreSQL's start"
