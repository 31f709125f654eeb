#!/bin/sh
# Zabbix 6.0 end to end, with Debian's packages, all of it private: a
# PostgreSQL cluster in the test's directory (unix socket only) with
# Zabbix's schema, zabbix_server with its own config, ports and pid, and
# the frontend's API served by php -S on loopback (a copy of the frontend
# whose config path points into the test's directory: Debian's build reads
# /etc/zabbix/zabbix.conf.php, which the test never touches).  Through the
# API: the shipped template is imported (configuration.import), a host
# with an SNMPv2 interface on the private master gets it, low-level
# discovery makes the per-CPU items, and the collected values (history.get)
# equal the sim's rates within 2 %.  With the agent stopped, the items turn
# unsupported: no zeros.
. "$(dirname "$0")/lib.sh"

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
ZSERVER=${ZSERVER:-$(command -v zabbix_server || echo /usr/sbin/zabbix_server)}
ZSCHEMA=${ZSCHEMA:-/usr/share/zabbix-server-pgsql}
ZWEB=${ZWEB:-/usr/share/zabbix}
[ -x "$PGBIN/postgres" ] && [ -x "$ZSERVER" ] && [ -f "$ZSCHEMA/schema.sql.gz" ] &&
    [ -f "$ZWEB/api_jsonrpc.php" ] && command -v php >/dev/null ||
    { echo "SKIP: postgresql, zabbix-server-pgsql, zabbix-frontend-php or php-cli not installed"; exit 77; }
command -v curl >/dev/null && command -v jq >/dev/null || { echo "SKIP: curl or jq not installed"; exit 77; }
id postgres >/dev/null 2>&1 && id zabbix >/dev/null 2>&1 ||
    { echo "SKIP: no postgres or zabbix user (their packages make them)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (PostgreSQL and Zabbix run as their own users)"; exit 77; }
T0=$(date +%s)
# The servers run as their users: they need to reach their directories.
chmod 711 "$TMP"
as_postgres() { setpriv --reuid=postgres --regid=postgres --clear-groups "$@"; }

# --- the SNMP side: master and agent (CPU n counts rate * (n + 1) per s)
start_master
start_agent "backend sim
pollInterval 1
simCpus 2
simRate hw.r10kevctr.cycles 1000000
simRate hw.r10kevctr.grad.instrg 500000"
wait_until 20 agent_serving || fail "the subagent never answered"

# --- PostgreSQL: a cluster of the test's own, reached by its socket only
mkdir "$TMP/pg" "$TMP/pgsock"
chown postgres: "$TMP/pg" "$TMP/pgsock"
as_postgres "$PGBIN/initdb" -D "$TMP/pg" -U zabbix --auth=trust -E UTF8 \
    --locale=C.UTF-8 >"$TMP/initdb.log" 2>&1 || fail "initdb failed"
PGPORT=$(free_port)
as_postgres "$PGBIN/postgres" -D "$TMP/pg" -k "$TMP/pgsock" -p "$PGPORT" \
    -c listen_addresses= -c fsync=off -c synchronous_commit=off \
    -c full_page_writes=off >"$TMP/postgres.log" 2>&1 &
PG_PID=$!
psql_() { psql -X -q -h "$TMP/pgsock" -p "$PGPORT" -U zabbix -v ON_ERROR_STOP=1 "$@"; }
wait_until 30 psql_ -d postgres -c 'select 1' || fail "postgres did not start"
psql_ -d postgres -c 'create database zabbix' || fail "createdb"
# Zabbix's schema and data (Debian's files), in one transaction.
zcat "$ZSCHEMA/schema.sql.gz" "$ZSCHEMA/images.sql.gz" "$ZSCHEMA/data.sql.gz" |
    psql_ -1 -d zabbix >"$TMP/schema.log" 2>&1 || fail "the Zabbix schema did not load"
ok "PostgreSQL with Zabbix's schema: $(($(date +%s) - T0)) s"

# --- zabbix_server: private config, ports, pid, log and sockets
ZPORT=$(free_port)
mkdir "$TMP/zabbix"
chown zabbix: "$TMP/zabbix"
cat >"$TMP/zabbix_server.conf" <<CONF
ListenIP=127.0.0.1
ListenPort=$ZPORT
LogFile=$TMP/zabbix/zabbix_server.log
LogFileSize=0
PidFile=$TMP/zabbix/zabbix_server.pid
SocketDir=$TMP/zabbix
DBHost=$TMP/pgsock
DBPort=$PGPORT
DBName=zabbix
DBUser=zabbix
StartPollers=2
StartPollersUnreachable=1
StartTrappers=1
StartPingers=0
StartDiscoverers=0
StartHTTPPollers=0
StartReportWriters=0
StartLLDProcessors=1
StartPreprocessors=1
StartDBSyncers=1
CacheUpdateFrequency=2
HousekeepingFrequency=0
Timeout=4
User=zabbix
CONF
# Its own process group, so that every process it forks is stopped.
setsid "$ZSERVER" -f -c "$TMP/zabbix_server.conf" >"$TMP/zabbix_server.out" 2>&1 &
ZS_PID=$!
sleep 1
kill -0 "$ZS_PID" 2>/dev/null || fail "zabbix_server exited: $(cat "$TMP/zabbix_server.out")"

# --- the frontend's API: a copy reading its config from the test's dir
cp -a "$ZWEB" "$TMP/web"
sed -i "s|const CONFIG_FILE_PATH = '[^']*';|const CONFIG_FILE_PATH = '$TMP/zabbix.conf.php';|" \
    "$TMP/web/include/classes/core/CConfigFile.php"
grep -q "CONFIG_FILE_PATH = '$TMP/" "$TMP/web/include/classes/core/CConfigFile.php" ||
    fail "the frontend's config path was not found to redirect"
cat >"$TMP/zabbix.conf.php" <<PHP
<?php
\$DB['TYPE'] = 'POSTGRESQL';
\$DB['SERVER'] = '$TMP/pgsock';
\$DB['PORT'] = '$PGPORT';
\$DB['DATABASE'] = 'zabbix';
\$DB['USER'] = 'zabbix';
\$DB['PASSWORD'] = '';
\$DB['SCHEMA'] = '';
\$DB['ENCRYPTION'] = false;
\$DB['KEY_FILE'] = '';
\$DB['CERT_FILE'] = '';
\$DB['CA_FILE'] = '';
\$DB['VERIFY_HOST'] = false;
\$DB['CIPHER_LIST'] = '';
\$DB['VAULT_URL'] = '';
\$DB['VAULT_DB_PATH'] = '';
\$DB['VAULT_TOKEN'] = '';
\$DB['DOUBLE_IEEE754'] = true;
\$ZBX_SERVER = '127.0.0.1';
\$ZBX_SERVER_PORT = '$ZPORT';
\$ZBX_SERVER_NAME = 'hw-r10kevctr test';
\$IMAGE_FORMAT_DEFAULT = IMAGE_FORMAT_PNG;
PHP
WPORT=$(free_port)
php -S "127.0.0.1:$WPORT" -t "$TMP/web" >"$TMP/php.log" 2>&1 &
PHP_PID=$!
EXTRA_PIDS="$PHP_PID"
stop_zabbix() {
    [ -n "$ZS_PID" ] || return 0
    kill -TERM "$ZS_PID" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$ZS_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$ZS_PID" 2>/dev/null
    wait "$ZS_PID" 2>/dev/null
    ZS_PID=
}
stop_postgres() {
    [ -n "$PG_PID" ] || return 0
    kill -INT "$PG_PID" 2>/dev/null # fast shutdown
    for _ in $(seq 100); do kill -0 "$PG_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PG_PID" 2>/dev/null
    wait "$PG_PID" 2>/dev/null
    PG_PID=
}
trap 'rc=$?; stop_zabbix; stop_postgres; (exit $rc); cleanup' EXIT

API=http://127.0.0.1:$WPORT/api_jsonrpc.php
AUTH=null
call() { # call METHOD PARAMS-JSON: the result, or fail with the error
    out=$(jq -cn --arg m "$1" --argjson p "$2" --argjson a "$AUTH" \
        '{jsonrpc: "2.0", method: $m, params: $p, auth: $a, id: 1}' |
        curl -sf -H 'Content-Type: application/json-rpc' --data-binary @- "$API") ||
        fail "API $1: no answer"
    echo "$out" | jq -e 'has("result")' >/dev/null || fail "API $1: $(echo "$out" | jq -c .error)"
    echo "$out" | jq -c .result
}
wait_until 20 curl -sf -o /dev/null "$API" -H 'Content-Type: application/json-rpc' \
    -d '{"jsonrpc":"2.0","method":"apiinfo.version","params":{},"id":1}' ||
    fail "the frontend's API did not answer"
version=$(call apiinfo.version '{}' | tr -d '"')
AUTH=$(call user.login '{"username": "Admin", "password": "zabbix"}')
ok "Zabbix $version API up"
# Zabbix's own example host polls a Zabbix agent the test does not run.
call host.update '{"hostid": "10084", "status": 1}' >/dev/null

# --- the template, as an operator imports it
rules='{"groups": {"createMissing": true},
        "templates": {"createMissing": true, "updateExisting": true},
        "items": {"createMissing": true, "updateExisting": true},
        "discoveryRules": {"createMissing": true, "updateExisting": true},
        "triggers": {"createMissing": true, "updateExisting": true},
        "valueMaps": {"createMissing": true, "updateExisting": true}}'
params=$(jq -cn --rawfile src "$HWR_SRCDIR/conf/zabbix/hw-r10kevctr.zabbix.yaml" \
    --argjson r "$rules" '{format: "yaml", source: $src, rules: $r}')
[ "$(call configuration.import "$params")" = true ] || fail "import"
TPL=$(call template.get '{"filter": {"host": ["HW R10000 event counters by SNMP"]}, "output": ["templateid"]}' |
    jq -r '.[0].templateid')
[ -n "$TPL" ] && [ "$TPL" != null ] || fail "the imported template is not there"
n=$(call item.get "{\"templateids\": [\"$TPL\"], \"countOutput\": true}" | tr -d '"')
np=$(call itemprototype.get "{\"templateids\": [\"$TPL\"], \"countOutput\": true}" | tr -d '"')
nt=$(call trigger.get "{\"templateids\": [\"$TPL\"], \"countOutput\": true}" | tr -d '"')
ok "template imported: $n items, $np item prototypes, $nt triggers"

# --- a host on the private master: read every 10 s, discovered every 5 s
GROUP=$(call hostgroup.get '{"filter": {"name": ["Linux servers"]}, "output": ["groupid"]}' | jq -r '.[0].groupid')
HOST=$(call host.create "{\"host\": \"r10k-test\",
    \"groups\": [{\"groupid\": \"$GROUP\"}], \"templates\": [{\"templateid\": \"$TPL\"}],
    \"interfaces\": [{\"type\": 2, \"main\": 1, \"useip\": 1, \"ip\": \"127.0.0.1\", \"dns\": \"\",
        \"port\": \"$PORT\", \"details\": {\"version\": 2, \"bulk\": 1, \"community\": \"public\"}}],
    \"macros\": [{\"macro\": \"{\$HWR10K.INTERVAL}\", \"value\": \"10s\"},
                 {\"macro\": \"{\$HWR10K.INFO.INTERVAL}\", \"value\": \"10s\"},
                 {\"macro\": \"{\$HWR10K.LLD.INTERVAL}\", \"value\": \"5s\"}]}" | jq -r '.hostids[0]')
itemid() { # itemid KEY
    call item.get "{\"hostids\": [\"$HOST\"], \"filter\": {\"key_\": [\"$1\"]}, \"output\": [\"itemid\"]}" |
        jq -r '.[0].itemid // empty'
}
discovered() { [ -n "$(itemid 'hwr10k.cpu.events[1,cycles]')" ]; }
wait_until 60 discovered || fail "low-level discovery made no item for CPU 1"
per_cpu=$(call item.get "{\"hostids\": [\"$HOST\"], \"search\": {\"key_\": \"hwr10k.cpu.events[\"}, \"countOutput\": true}" | tr -d '"')
[ "$per_cpu" = 62 ] || fail "$per_cpu per-CPU event items, expected 2 CPUs x 31"
ok "LLD: 2 CPUs discovered, $per_cpu per-CPU event items ($(($(date +%s) - T0)) s)"

# The rate over the collected window: change-per-second values weighted by
# the time each covers (their sum telescopes to the counter's change over
# the window, so the sim's whole-second steps cannot tilt it).
window_rate() { # window_rate KEY HISTORY-TYPE: "rate values seconds"
    id=$(itemid "$1")
    [ -n "$id" ] || { echo "0 0 0"; return; }
    call history.get "{\"itemids\": [\"$id\"], \"history\": $2, \"sortfield\": \"clock\",
        \"sortorder\": \"ASC\", \"output\": \"extend\", \"limit\": 100}" |
        jq -r '[.[] | {t: ((.clock | tonumber) + (.ns | tonumber) / 1e9), v: (.value | tonumber)}] as $h
            | if ($h | length) < 2 then "0 \($h | length) 0" else
              [range(1; $h | length) as $i | {dt: ($h[$i].t - $h[$i - 1].t), v: $h[$i].v}] as $p
              | "\(($p | map(.dt * .v) | add) / ($p | map(.dt) | add)) \($h | length) \($p | map(.dt) | add)" end'
}
long_enough() { set -- $(window_rate 'hwr10k.cpu.events[1,cycles]' 0); awk -v s="$3" 'BEGIN { exit !(s >= 60) }'; }
wait_until 150 long_enough || fail "Zabbix collected less than a minute of CPU 1's cycles: $(window_rate 'hwr10k.cpu.events[1,cycles]' 0)"
expect() { # expect KEY HISTORY-TYPE SIM-VALUE
    set -- "$1" "$2" "$3" $(window_rate "$1" "$2")
    within 2 "$4" "$3" || fail "$1: Zabbix collected $4 over $6 s ($5 values), the sim's is $3"
    echo "ok: $1 = $4 over $6 s ($5 values; sim $3)"
}
expect 'hwr10k.cpu.events[0,cycles]' 0 1000000
expect 'hwr10k.cpu.events[1,cycles]' 0 2000000
expect 'hwr10k.events[cycles]' 0 3000000
expect 'hwr10k.cpu.events[1,grad.instrg]' 0 1000000
expect 'hwr10k.events[grad.instrg]' 0 1500000
last() { # last KEY HISTORY-TYPE
    call history.get "{\"itemids\": [\"$(itemid "$1")\"], \"history\": $2, \"sortfield\": \"clock\",
        \"sortorder\": \"DESC\", \"limit\": 1}" | jq -r '.[0].value // empty'
}
[ "$(last 'hwr10k.cpu.stat[1,ipc]' 0)" = 0.5 ] || fail "CPU 1's IPC (thousandths x 0.001) is $(last 'hwr10k.cpu.stat[1,ipc]' 0), not 0.5"
[ "$(last 'hwr10k.cpu.status[0]' 3)" = 1 ] || fail "CPU 0's status is not counting(1)"
[ "$(last hwr10k.cpurev 1)" = 3.4 ] || fail "cpurev: $(last hwr10k.cpurev 1)"
[ "$(last hwr10k.state 0)" = "$(snmpq snmpget hwR10kEvCtrState.0)" ] || fail "state: $(last hwr10k.state 0)"
ok "statistics as ratios (IPC 0.5), status counting, cpurev 3.4, state as served"
problems=$(call problem.get "{\"hostids\": [\"$HOST\"], \"output\": [\"name\"]}")
[ "$problems" = "[]" ] || fail "problems on a healthy host: $problems"
ok "no trigger fired on the healthy host"

# --- the agent stops: the master answers noSuchObject, items turn
# unsupported, nothing is stored as a zero.
stop_pid "$AGENT_PID"; AGENT_PID=
since=$(date +%s)
unsupported() {
    [ "$(call item.get "{\"itemids\": [\"$(itemid 'hwr10k.cpu.events[1,cycles]')\"], \"output\": [\"state\"]}" |
        jq -r '.[0].state')" = 1 ]
}
wait_until 60 unsupported || fail "CPU 1's cycles item still supported with the agent stopped"
zeros=$(call history.get "{\"itemids\": [\"$(itemid 'hwr10k.cpu.events[1,cycles]')\"], \"history\": 0,
    \"time_from\": $since, \"output\": \"extend\"}" | jq '[.[] | select((.value | tonumber) == 0)] | length')
[ "$zeros" = 0 ] || fail "$zeros zero values stored after the agent stopped"
ok "agent stopped: items unsupported, no zeros stored"
ok "zabbix: $(($(date +%s) - T0)) s in all"
