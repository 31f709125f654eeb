#!/bin/sh
# zabbix-lib.sh - sourced after lib.sh by tests/integration/zabbix.sh,
# bench/zabbix-scale.sh and tests/fresh/zabbix7.sh: Zabbix from Debian's
# packages (Debian 12's 6.0, 13's 7.0), all of it
# private: a PostgreSQL cluster in $TMP (unix socket only) with Zabbix's
# schema, zabbix_server with its own config, ports and pid, and the
# frontend's API served by php -S on loopback (a copy of the frontend
# whose config path points into $TMP: Debian's build reads
# /etc/zabbix/zabbix.conf.php, which nothing here touches).  All of it is
# stopped by PID at exit.

# zbx_need: exit 77 (skip) unless the packages and users are there.
zbx_need() {
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
}

as_postgres() { setpriv --reuid=postgres --regid=postgres --clear-groups "$@"; }
psql_() { psql -X -q -h "$TMP/pgsock" -p "$PGPORT" -U zabbix -v ON_ERROR_STOP=1 "$@"; }
stop_zabbix() { # the server, then whatever of its group is left
    [ -n "$ZS_PID" ] || return 0
    stop_procs TERM 100 "$ZS_PID"
    kill -KILL "-$ZS_PID" 2>/dev/null
    wait "$ZS_PID" 2>/dev/null
    ZS_PID=
}
stop_postgres() {
    [ -n "$PG_PID" ] || return 0
    # the postmaster as it recorded itself, in case it is not our child
    pm=$(head -n 1 "$TMP/pg/postmaster.pid" 2>/dev/null)
    stop_procs INT 100 $PG_PID $pm # INT: a fast shutdown
    wait "$PG_PID" 2>/dev/null
    PG_PID=
}
stop_php() { # its process group: the workers outlive their parent
    [ -n "$PHP_PID" ] || return 0
    stop_procs TERM 50 "-$PHP_PID"
    wait "$PHP_PID" 2>/dev/null
    PHP_PID=
}
call() { # call METHOD PARAMS-JSON: the result, or fail with the error
    # (the parameters on jq's stdin: the template is more than an
    # argument may hold, 128 KiB)
    out=$(printf '%s' "$2" | jq -c --arg m "$1" --argjson a "$AUTH" \
        '{jsonrpc: "2.0", method: $m, params: ., auth: $a, id: 1}' |
        curl -sf -H 'Content-Type: application/json-rpc' --data-binary @- "$API") ||
        fail "API $1: no answer"
    echo "$out" | jq -e 'has("result")' >/dev/null || fail "API $1: $(echo "$out" | jq -c .error)"
    echo "$out" | jq -c .result
}

# zbx_start: PostgreSQL, zabbix_server and the API, logged in as Admin
# (API, AUTH, call); ZBX_POLLERS, ZBX_PREPROCESSORS, ZBX_DBSYNCERS size
# the server (default 2, 1, 1: a test's few hosts); ZBX_CACHESIZE, if
# set, its configuration cache (CacheSize; Zabbix's default is 32M);
# ZBX_CACHEUPDATE how often it reloads that from the database (default
# 2 s, for a test's new items; Zabbix's is 60).
zbx_start() {
    ZBX_T0=$(date +%s)
    # The servers run as their users: they need to reach their directories.
    chmod 711 "$TMP"
    # --- PostgreSQL: a cluster of the test's own, reached by its socket only
    mkdir "$TMP/pg" "$TMP/pgsock"
    chown postgres: "$TMP/pg" "$TMP/pgsock"
    as_postgres "$PGBIN/initdb" -D "$TMP/pg" -U zabbix --auth=trust -E UTF8 \
        --locale=C.UTF-8 >"$TMP/initdb.log" 2>&1 || fail "initdb failed"
    PGPORT=$(free_port)
    # setpriv itself (not a shell function in the background, whose $! would
    # be a subshell): it execs postgres, so PG_PID is the postmaster.
    setpriv --reuid=postgres --regid=postgres --clear-groups \
        "$PGBIN/postgres" -D "$TMP/pg" -k "$TMP/pgsock" -p "$PGPORT" \
        -c listen_addresses= -c fsync=off -c synchronous_commit=off \
        -c full_page_writes=off >"$TMP/postgres.log" 2>&1 &
    PG_PID=$!
    wait_until 30 psql_ -d postgres -c 'select 1' || fail "postgres did not start"
    psql_ -d postgres -c 'create database zabbix' || fail "createdb"
    # Zabbix's schema and data (Debian's files), in one transaction.
    zcat "$ZSCHEMA/schema.sql.gz" "$ZSCHEMA/images.sql.gz" "$ZSCHEMA/data.sql.gz" |
        psql_ -1 -d zabbix >"$TMP/schema.log" 2>&1 || fail "the Zabbix schema did not load"
    ok "PostgreSQL with Zabbix's schema: $(($(date +%s) - ZBX_T0)) s"

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
StartPollers=${ZBX_POLLERS:-2}
StartPollersUnreachable=1
# an interface that does not answer is unavailable after 10 s, not 45 s
UnreachablePeriod=10
UnreachableDelay=5
UnavailableDelay=15
StartTrappers=1
StartPingers=0
StartDiscoverers=0
StartHTTPPollers=0
StartReportWriters=0
StartLLDProcessors=1
StartPreprocessors=${ZBX_PREPROCESSORS:-1}
StartDBSyncers=${ZBX_DBSYNCERS:-1}
CacheUpdateFrequency=${ZBX_CACHEUPDATE:-2}
${ZBX_CACHESIZE:+CacheSize=$ZBX_CACHESIZE}
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
    # Its relative symlinks (the graphs' font) point outside the copy: copies.
    find "$ZWEB" -type l | while read -r l; do
        [ -e "$l" ] && rm -rf "$TMP/web${l#"$ZWEB"}" && cp -rL "$l" "$TMP/web${l#"$ZWEB"}"
    done
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
    # The frontend sets the user's locale (en_US): a private compiled copy
    # (LOCPATH), the host's locales left as they are.
    mkdir "$TMP/locale"
    localedef -i en_US -f UTF-8 "$TMP/locale/en_US.UTF-8" >"$TMP/localedef.log" 2>&1 ||
        fail "localedef en_US.UTF-8 (package locales): $(cat "$TMP/localedef.log")"
    # Several workers: the dashboard's widgets load in parallel (PHP's
    # built-in server is one process otherwise).
    # (Its workers outlive their parent: it runs in a process group of its
    # own, stopped as one.)
    PHP_CLI_SERVER_WORKERS=4 LOCPATH=$TMP/locale \
        setsid php -S "127.0.0.1:$WPORT" -t "$TMP/web" >"$TMP/php.log" 2>&1 &
    PHP_PID=$!
    trap 'rc=$?; stop_php; stop_zabbix; stop_postgres; (exit $rc); cleanup' EXIT

    API=http://127.0.0.1:$WPORT/api_jsonrpc.php
    AUTH=null
    wait_until 20 curl -sf -o /dev/null "$API" -H 'Content-Type: application/json-rpc' \
        -d '{"jsonrpc":"2.0","method":"apiinfo.version","params":{},"id":1}' ||
        fail "the frontend's API did not answer"
    version=$(call apiinfo.version '{}' | tr -d '"')
    AUTH=$(call user.login '{"username": "Admin", "password": "zabbix"}')
    ok "Zabbix $version API up"
    # Zabbix's own example host polls a Zabbix agent the test does not run.
    call host.update '{"hostid": "10084", "status": 1}' >/dev/null
}

# zbx_import: the shipped template, as an operator imports it (TPL: its id).
zbx_import() {
    # Zabbix 6.2 split the groups into host and template groups (7.0
    # refuses the rule "groups"); the 6.0 file imports into both.  (Names
    # with _zi_: a sourcing script's own variables stay its own.)
    case ${version:-6.0} in
    6.0* | 5.*) _zi_groups='"groups": {"createMissing": true}' ;;
    *) _zi_groups='"template_groups": {"createMissing": true}, "host_groups": {"createMissing": true}' ;;
    esac
    rules='{'"$_zi_groups"',
            "templates": {"createMissing": true, "updateExisting": true},
            "items": {"createMissing": true, "updateExisting": true},
            "discoveryRules": {"createMissing": true, "updateExisting": true},
            "triggers": {"createMissing": true, "updateExisting": true},
            "graphs": {"createMissing": true, "updateExisting": true},
            "templateDashboards": {"createMissing": true, "updateExisting": true},
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
}
