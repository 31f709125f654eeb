#!/bin/sh
# tools/snmp-yml-auths.sh [SNMP.YML] > snmp-0.23.yml: snmp_exporter 0.21's
# modules (conf/prometheus/snmp.yml: Debian 12's generator's output, each
# module with its own `version:` and `auth:`) in the format of
# snmp_exporter 0.23 and later (Debian 13 has 0.28): the modules under
# `modules:`, their walks and metrics unchanged, and each module's
# version and auth moved into an `auths:` entry.  The SNMPv2c auth with
# community public is `public_v2`, the exporter's default auth, so a
# scrape that names only the module works as with 0.21; any other is
# named after the shortest name of the modules that have it (the SNMPv3
# modules hw_r10kevctr_v3 and hw_r10kevctr_cpu_v3 share the auth
# hw_r10kevctr_v3: scrape with auth=hw_r10kevctr_v3).
# A text transformation of the generator's layout (top-level modules,
# two-space indent), so the one generator.yml makes both files:
# tests/nms/prometheus-files.sh regenerates and compares both.
set -eu
${AWK:-awk} '
function flush_auth() {
    if (mod == "") return
    key = auth "    version: " ver "\n"
    if (!(key in name)) {
        keys[++nkeys] = key
        name[key] = (ver == 2 && auth == "    community: public\n") ? "public_v2" : mod
    } else if (name[key] != "public_v2" && length(mod) < length(name[key]))
        name[key] = mod
    modules = modules "  " mod ":\n" body
}
NR == 1 && /^#/ { header = $0 "\n"; next }
/^[A-Za-z0-9_]+:$/ { flush_auth(); mod = substr($0, 1, length($0) - 1); body = ""; auth = ""; ver = 2; inauth = 0; next }
/^  version: / { ver = $2; inauth = 0; next }
/^  auth:$/ { inauth = 1; next }
inauth && /^    / { auth = auth $0 "\n"; next }
{ inauth = 0; body = body "  " $0 "\n" }
END {
    flush_auth()
    for (i = 1; i <= nkeys; i++)
        auths = auths "  " name[keys[i]] ":\n" keys[i]
    printf "%s", header
    printf "# snmp_exporter 0.23+ format: made from snmp.yml by tools/snmp-yml-auths.sh.\n"
    printf "auths:\n%smodules:\n%s", auths, modules
}' "${1:-conf/prometheus/snmp.yml}"
