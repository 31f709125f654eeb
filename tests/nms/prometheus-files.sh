#!/bin/sh
# The shipped Prometheus files: snmp.yml is what Debian 12's
# prometheus-snmp-generator (0.21) makes of generator.yml and the
# project's MIB (regenerated here, compared byte for byte), snmp-0.23.yml
# what tools/snmp-yml-auths.sh makes of that output (the format of
# snmp_exporter 0.23 and later, Debian 13's 0.28: loaded and scraped by
# tests/fresh/exporter-scrape.sh in a Debian 13 root); promtool accepts the scrape
# job and the rules, and the rules' unit tests pass.
set -u
: "${HWR_SRCDIR:?run me from make check}"
P=$HWR_SRCDIR/conf/prometheus
GENERATOR=${GENERATOR:-$(command -v prometheus-snmp-generator || true)}
PROMTOOL=${PROMTOOL:-$(command -v promtool || true)}
[ -n "$GENERATOR" ] && [ -n "$PROMTOOL" ] ||
    { echo "SKIP: prometheus-snmp-generator or promtool not installed"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
TMP=$(mktemp -d /tmp/hwr-prom.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# The modules the MIB imports, and nothing else, so that the output
# depends on them only: ours, HCNUM-TC, NET-SNMP-MIB (netSnmpPlaypen) and
# the SNMPv2 base modules (net-snmp reads them by module name, whatever
# the file is called; erlang-snmp's end in .mib).
mkdir "$TMP/mibs"
cp "$HWR_SRCDIR/HW-R10KEVCTR-MIB.txt" "$HWR_SRCDIR/mib/ietf/HCNUM-TC.txt" "$TMP/mibs/"
for d in $(echo "${NETSNMP_MIBDIRS:-/usr/share/snmp/mibs}" | tr ':' ' '); do
    [ -f "$d/NET-SNMP-MIB.txt" ] && { cp "$d/NET-SNMP-MIB.txt" "$TMP/mibs/"; break; }
done
[ -f "$TMP/mibs/NET-SNMP-MIB.txt" ] || fail "NET-SNMP-MIB.txt not in ${NETSNMP_MIBDIRS:-/usr/share/snmp/mibs}"
for m in SNMPv2-SMI SNMPv2-TC SNMPv2-CONF; do
    for f in "${BASE_MIBDIR:-}/$m" "${BASE_MIBDIR:-}/$m.txt" "${BASE_MIBDIR:-}/$m.mib"; do
        [ -f "$f" ] && { cp "$f" "$TMP/mibs/$m.txt"; break; }
    done
    [ -f "$TMP/mibs/$m.txt" ] || fail "$m not in BASE_MIBDIR (${BASE_MIBDIR:-unset})"
done
# Debian 12's generator (0.21) reads generator.yml as it is and must make
# snmp.yml byte for byte; 0.23 and later (Debian 13's 0.28) refuse its
# in-module version and auth: they get the same modules with the auths
# moved out (as tools/snmp-yml-auths.sh moves them in snmp.yml), and
# must make snmp-0.23.yml's modules (compared with the help texts'
# line wrapping undone: 0.28 wraps them elsewhere) and its auths (every
# line of each; 0.28 adds the defaults).
n=$(grep -c '^  - name:' "$P/snmp.yml")
cp "$P/generator.yml" "$TMP/"
generate() {
    (cd "$TMP" && MIBDIRS="$TMP/mibs" "$GENERATOR" generate) >"$TMP/generator.log" 2>&1 || return 1
    ! grep -qi 'level=warn.*msg="Could not find node' "$TMP/generator.log" ||
        { cat "$TMP/generator.log"; fail "generator.yml names an object the MIB does not have"; }
}
if generate; then
    if ! diff -u "$P/snmp.yml" "$TMP/snmp.yml" >"$TMP/diff"; then
        head -n 40 "$TMP/diff"
        fail "conf/prometheus/snmp.yml differs from what the generator makes (copy $TMP/snmp.yml there after checking)"
    fi
    echo "ok: snmp.yml is the generator's output ($n metrics)"
elif grep -q 'field version not found' "$TMP/generator.log"; then
    awk '/^modules:$/ { inmods = 1; next }
    !inmods || /^ *#/ { next }
    /^  [A-Za-z0-9_]+:$/ { mod = substr($0, 3, length($0) - 3); modules = modules $0 "\n"; inauth = 0; next }
    /^    version: / { ver[mod] = $2; inauth = 0; next }
    /^    auth:$/ { inauth = 1; order[++n] = mod; next }
    inauth && /^      / { auth[mod] = auth[mod] substr($0, 3) "\n"; next }
    { inauth = 0; modules = modules $0 "\n" }
    END {
        # one auth per distinct one (as tools/snmp-yml-auths.sh): public_v2,
        # or the shortest name of the modules that have it
        for (i = 1; i <= n; i++) {
            m = order[i]; k = auth[m] "    version: " ver[m] "\n"
            if (!(k in name)) {
                keys[++nk] = k
                name[k] = (ver[m] == 2 && auth[m] == "    community: public\n") ? "public_v2" : m
            } else if (name[k] != "public_v2" && length(m) < length(name[k]))
                name[k] = m
        }
        printf "auths:\n"
        for (i = 1; i <= nk; i++)
            printf "  %s:\n%s", name[keys[i]], keys[i]
        printf "modules:\n%s", modules
    }' "$P/generator.yml" >"$TMP/generator.yml"
    generate || { cat "$TMP/generator.log"; fail "the generator (0.23+) failed on generator.yml's modules with auths"; }
    # modules: one line per help text; auths: "auth key: value" lines
    modules() {
        awk '/^modules:$/ { on = 1 } !on { next }
        help && match($0, /^ */) && RLENGTH > hi { line = line " " substr($0, RLENGTH + 1); next }
        { if (line != "") print line; line = $0; help = 0 }
        /^ *help: / { help = 1; match($0, /^ */); hi = RLENGTH }
        END { print line }' "$1"
    }
    auths() {
        awk '/^auths:$/ { on = 1; next } /^[a-z]/ { on = 0 } !on { next }
        /^  [A-Za-z0-9_]+:$/ { a = $1; next } { print a, $1, $2 }' "$1" | sort
    }
    modules "$P/snmp-0.23.yml" >"$TMP/want.modules"; modules "$TMP/snmp.yml" >"$TMP/got.modules"
    if ! diff -u "$TMP/want.modules" "$TMP/got.modules" >"$TMP/diff"; then
        head -n 40 "$TMP/diff"
        fail "the generator's modules differ from snmp-0.23.yml's"
    fi
    auths "$P/snmp-0.23.yml" >"$TMP/want.auths"; auths "$TMP/snmp.yml" >"$TMP/got.auths"
    lost=$(comm -23 "$TMP/want.auths" "$TMP/got.auths")
    [ -z "$lost" ] || fail "the generator's auths lack snmp-0.23.yml's: $lost"
    echo "ok: snmp-0.23.yml's modules and auths are the generator's (0.23+) output of generator.yml with auths ($n metrics)"
else
    cat "$TMP/generator.log"; fail "the generator failed"
fi
sh "$HWR_SRCDIR/tools/snmp-yml-auths.sh" "$P/snmp.yml" >"$TMP/snmp-0.23.yml" ||
    fail "tools/snmp-yml-auths.sh failed"
if ! diff -u "$P/snmp-0.23.yml" "$TMP/snmp-0.23.yml" >"$TMP/diff"; then
    head -n 40 "$TMP/diff"
    fail "conf/prometheus/snmp-0.23.yml differs from tools/snmp-yml-auths.sh's conversion of snmp.yml (copy $TMP/snmp-0.23.yml there after checking)"
fi
[ "$(grep -c '^    - name:' "$P/snmp-0.23.yml")" -eq "$n" ] ||
    fail "snmp-0.23.yml has not snmp.yml's $n metrics"
echo "ok: snmp-0.23.yml is snmp.yml in the 0.23+ format ($n metrics, auths public_v2 and hw_r10kevctr_v3)"

"$PROMTOOL" check config "$P/prometheus.yml" || fail "promtool check config"
"$PROMTOOL" check rules "$P/hw-r10kevctr.rules.yml" || fail "promtool check rules"
"$PROMTOOL" test rules "$P/hw-r10kevctr.rules.test.yml" || fail "promtool test rules"
echo "ok: promtool accepts the scrape job and the rules; the rules' tests pass"
