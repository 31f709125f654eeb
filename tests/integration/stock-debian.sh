#!/bin/sh
# The docs' commands as printed, on a stock Debian 12: doc/mib-names.md's
# code blocks (net-snmp's tools, and libsmi's with SMIPATH), the snmpwalk
# of hw-r10kevctr-agent(8)'s EXAMPLES, README.md's walk and snmptranslate,
# doc/mib.md's snmptranslate, doc/nms.md's generator line, and the man
# page's production line started a second time.  Each is taken from the page's text (never copied here)
# and run by sh as printed.
#
# Where: a private mount and network namespace (unshare -m -n), so that
# `localhost` and port 161 are this test's and the host is untouched.
# Inside it, bind mounts only: /etc/snmp is a directory holding Debian's
# stock snmp.conf (tests/data/debian12-snmp.conf, checked against the
# md5sum dpkg recorded for libsnmp-base's conffile; libsmi's
# /etc/smi.conf is the host's, which must be libsmi2ldbl's as shipped), /var/lib/snmp and
# /run are empty temp dirs, and the MIB is installed twice in turn: where
# the package puts it (/usr/share/snmp/mibs) and where `make install`
# puts it (a DESTDIR install with prefix /usr/local, bound over
# /usr/local).  Nothing is written to the host's /etc, /usr, /var or /run.
if [ -z "${HWR_STOCK_NS:-}" ]; then
    [ "$(id -u)" = 0 ] || { echo "SKIP: needs root for unshare -m -n"; exit 77; }
    command -v unshare >/dev/null && command -v ip >/dev/null ||
        { echo "SKIP: unshare or ip not installed"; exit 77; }
    HWR_STOCK_NS=1 exec unshare -m -n --propagation private sh "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

command -v man >/dev/null || { echo "SKIP: man-db not installed"; exit 77; }
command -v snmpwalk >/dev/null || { echo "SKIP: snmp not installed"; exit 77; }
command -v smidump >/dev/null && command -v smilint >/dev/null ||
    { echo "SKIP: smitools not installed (doc/mib-names.md's libsmi tools)"; exit 77; }
ls -d /usr/lib/erlang/lib/snmp-*/mibs >/dev/null 2>&1 ||
    { echo "SKIP: erlang-snmp not installed (doc/mib-names.md's way 2)"; exit 77; }
[ -d /etc/snmp ] || { echo "SKIP: no /etc/snmp to bind over"; exit 77; }
ip link set lo up || fail "cannot bring up the namespace's loopback"

# ---- the stage: Debian's stock snmp.conf, private state
STOCK=$HWR_SRCDIR/tests/data/debian12-snmp.conf
want=$(dpkg-query -W -f='${Conffiles}\n' libsnmp-base 2>/dev/null | awk '$1 == "/etc/snmp/snmp.conf" { print $2 }')
if [ -n "$want" ]; then
    [ "$(md5sum <"$STOCK" | cut -d' ' -f1)" = "$want" ] ||
        fail "$STOCK is not the snmp.conf of this host's libsnmp-base (md5sum $want)"
fi
# libsmi's path comes from /etc/smi.conf: the SMIPATH lines are checked
# against Debian's file as shipped.
want=$(dpkg-query -W -f='${Conffiles}\n' libsmi2ldbl 2>/dev/null | awk '$1 == "/etc/smi.conf" { print $2 }')
if [ -n "$want" ]; then
    [ "$(md5sum </etc/smi.conf | cut -d' ' -f1)" = "$want" ] ||
        fail "/etc/smi.conf is not libsmi2ldbl's as shipped (md5sum $want): doc/mib-names.md's SMIPATH lines assume Debian's"
fi
mkdir -p "$TMP/etc-snmp" "$TMP/run" "$TMP/varlibsnmp" "$TMP/home" "$TMP/nolocal"
cp "$STOCK" "$TMP/etc-snmp/snmp.conf"
mount --bind "$TMP/etc-snmp" /etc/snmp || fail "cannot bind over /etc/snmp"
mount --bind "$TMP/run" /run || fail "cannot bind over /run"
[ ! -d /var/lib/snmp ] || mount --bind "$TMP/varlibsnmp" /var/lib/snmp || fail "cannot bind over /var/lib/snmp"
HOME=$TMP/home
export HOME
unset MIBS MIBDIRS SNMPCONFPATH
# the MIB as `make install` installs it, under a DESTDIR
make -s -C "$HWR_BUILDDIR" install-dist_mibDATA prefix=/usr/local DESTDIR="$TMP/destdir" >"$TMP/install.log" 2>&1 ||
    { cat "$TMP/install.log"; fail "make install-dist_mibDATA"; }
[ -f "$TMP/destdir/usr/local/share/snmp/mibs/HW-R10KEVCTR-MIB.txt" ] ||
    fail "make install put no MIB in /usr/local/share/snmp/mibs"
# the MIB as the package installs it: the stock directory plus the two files
mkdir -p "$TMP/pkgmibs"
cp -p /usr/share/snmp/mibs/* "$TMP/pkgmibs/"
cp "$TMP/destdir/usr/local/share/snmp/mibs/"* "$TMP/pkgmibs/"

# a private master on localhost's 161 and the quick start's 16161
PORT=161
write_snmpd_conf
"$SNMPD" -f -C -c "$TMP/snmpd.conf" -Lf "$TMP/snmpd.log" -M "$MIBPATH" -m SNMPv2-MIB \
    -p "$TMP/snmpd.pid" udp:127.0.0.1:161,udp:127.0.0.1:16161 &
SNMPD_PID=$!
wait_until 10 test -S "$SOCK" || fail "the private snmpd did not start"
start_agent "backend sim"
wait_until 20 agent_serving || fail "the subagent never answered"

layout() { # layout package|install: where the MIB is
    umount /usr/local 2>/dev/null; umount /usr/share/snmp/mibs 2>/dev/null
    case $1 in
    package) mount --bind "$TMP/pkgmibs" /usr/share/snmp/mibs &&
        mount --bind "$TMP/nolocal" /usr/local ;;
    install) mount --bind "$TMP/destdir/usr/local" /usr/local ;;
    esac || fail "cannot set up the $1 layout"
}
# run NAME SCRIPT-FILE: sh runs it in a fresh HOME; it must exit 0, print
# no "Cannot find module" and name or number one of the agent's objects.
run() {
    rm -rf "$HOME" && mkdir -p "$HOME"
    (cd "$TMP" && sh "$2") >"$TMP/run.out" 2>&1; rc=$?
    [ "$rc" = 0 ] || fail "$1 exited $rc: $(cat "$2"): $(head -5 "$TMP/run.out")"
    ! grep -q "Cannot find module" "$TMP/run.out" ||
        fail "$1: $(grep -c "Cannot find module" "$TMP/run.out") lines of Cannot find module: $(cat "$2")"
    grep -q "hwR10kEvCtr\|\.1\.3\.6\.1\.4\.1\.8072\.9999\.9999\.59\." "$TMP/run.out" ||
        fail "$1 showed none of the agent's objects: $(head -5 "$TMP/run.out")"
}

# ---- doc/mib-names.md: each code block (lines indented 4 or more)
awk -v dir="$TMP" '
    /^ {4,}[^ ]/ && (blank || inblock) { if (!inblock) n++; inblock = 1
        sub(/^ +/, ""); print > (dir "/block." n ".sh"); blank = 0; next }
    { inblock = 0; blank = ($0 ~ /^ *$/) }
    END { print n > (dir "/blocks") }' "$HWR_SRCDIR/doc/mib-names.md"
blocks=$(cat "$TMP/blocks")
[ "$blocks" -ge 4 ] 2>/dev/null || fail "doc/mib-names.md has $blocks code blocks, not 4 or more"
# ---- hw-r10kevctr-agent(8): the EXAMPLES' snmpwalk
MANWIDTH=300 man -l "$HWR_SRCDIR/man/hw-r10kevctr-agent.8" 2>/dev/null | sed 's/^ *//' >"$TMP/agent.8.txt"
grep '^snmpwalk ' "$TMP/agent.8.txt" >"$TMP/man-walk.sh"
[ "$(wc -l <"$TMP/man-walk.sh")" = 1 ] || fail "hw-r10kevctr-agent(8) has not one snmpwalk line: $(cat "$TMP/man-walk.sh")"
# ---- README.md: "Walk by name"'s fenced blocks, the walk and the
# snmptranslate
awk '/^## Walk by name/ { on = 1; next } on && /^## / { exit }
     on && f && /^```$/ { f = 0; next } on && f { print >>(dir "/readme." n ".sh") }
     on && /^```sh$/ { f = 1; n++ }' dir="$TMP" "$HWR_SRCDIR/README.md"
grep -q '^snmpwalk ' "$TMP/readme.1.sh" || fail "README.md's Walk by name has no snmpwalk first: $(cat "$TMP/readme.1.sh")"
mv "$TMP/readme.1.sh" "$TMP/readme-walk.sh"
grep -q '^snmptranslate ' "$TMP/readme.2.sh" || fail "README.md's Walk by name has no snmptranslate second"
mv "$TMP/readme.2.sh" "$TMP/readme-translate.sh"
[ ! -e "$TMP/readme.3.sh" ] || fail "README.md's Walk by name has a block this test does not run: $(cat "$TMP/readme.3.sh")"
# ---- doc/mib.md: the whole tree (an indented line and its continuation)
sed -n '/^    snmptranslate /,/[^\\]$/s/^    //p' "$HWR_SRCDIR/doc/mib.md" >"$TMP/mib-translate.sh"
[ "$(grep -c '^snmptranslate ' "$TMP/mib-translate.sh")" = 1 ] ||
    fail "doc/mib.md has not one snmptranslate line: $(cat "$TMP/mib-translate.sh")"
# ---- doc/nms.md: the generator line (a code block)
sed -n 's/^    \(MIBDIRS=.* prometheus-snmp-generator generate\)$/\1/p' "$HWR_SRCDIR/doc/nms.md" >"$TMP/gen.sh"
[ "$(wc -l <"$TMP/gen.sh")" = 1 ] || fail "doc/nms.md has not one generator line: $(cat "$TMP/gen.sh")"
GENERATOR=$(command -v prometheus-snmp-generator || true)
# The line regenerates snmp.yml with Debian 12's generator (0.21, as
# doc/nms.md says): 0.23 and later (Debian 13's 0.28) refuse
# generator.yml's in-module version and auth, and fail on the parse error
# in erlang-snmp's SNMP-COMMUNITY-MIB that 0.21 only warns of
# (tests/nms/prometheus-files.sh checks 0.23+'s output otherwise).
gen_version=$(prometheus-snmp-exporter --version 2>&1 | sed -n 's/^snmp_exporter, version \([^ ]*\).*/\1/p')
case $gen_version in
0.[0-9].* | 0.1[0-9].* | 0.2[0-2].* | '') ;;
*) GENERATOR= ;;
esac
gen_done=
smi=
[ -z "$GENERATOR" ] || gen_done=" and doc/nms.md's generator line"

for where in package install; do
    layout "$where"
    i=1
    while [ "$i" -le "$blocks" ]; do
        # The package's SMIPATH line names no /usr/local: the package only.
        if [ "$where" = install ] && grep -q '^export SMIPATH=' "$TMP/block.$i.sh" &&
            ! grep -q '^export SMIPATH=.*/usr/local/' "$TMP/block.$i.sh"; then
            i=$((i + 1)); continue
        fi
        run "doc/mib-names.md block $i ($where)" "$TMP/block.$i.sh"
        if grep -q '^smilint ' "$TMP/block.$i.sh"; then
            ! grep -q 'HW-R10KEVCTR-MIB.txt:' "$TMP/run.out" ||
                fail "doc/mib-names.md block $i ($where): smilint said: $(grep 'HW-R10KEVCTR-MIB.txt:' "$TMP/run.out" | head -3)"
            grep -q '^--hwR10kEvCtrMIB(1.3.6.1.4.1.8072.9999.9999.59)' "$TMP/run.out" ||
                fail "doc/mib-names.md block $i ($where): smidump printed no tree: $(head -3 "$TMP/run.out")"
            smi=" (the SMIPATH lines: smilint clean, smidump's tree)"
        fi
        i=$((i + 1))
    done
    run "hw-r10kevctr-agent(8)'s snmpwalk ($where)" "$TMP/man-walk.sh"
    grep -q "hwR10kEvCtrCycles.0 = Counter64: " "$TMP/run.out" ||
        fail "the man page's snmpwalk gave no named cycles ($where): $(head -3 "$TMP/run.out")"
    run "README.md's walk by name ($where)" "$TMP/readme-walk.sh"
    grep -q "hwR10kEvCtrCycles.0 = Counter64: " "$TMP/run.out" ||
        fail "README.md's walk gave no named cycles ($where): $(head -3 "$TMP/run.out")"
    for t in readme-translate mib-translate; do
        run "$t ($where)" "$TMP/$t.sh"
        grep -q "hwR10kEvCtrCycles(3)" "$TMP/run.out" ||
            fail "$t's snmptranslate printed no tree ($where): $(head -3 "$TMP/run.out")"
    done
    if [ -n "$GENERATOR" ]; then
        rm -rf "$TMP/gen" && mkdir "$TMP/gen"
        cp "$HWR_SRCDIR/conf/prometheus/generator.yml" "$TMP/gen/"
        (cd "$TMP/gen" && sh ../gen.sh) >"$TMP/gen.log" 2>&1 ||
            fail "doc/nms.md's generator line ($where): $(tail -5 "$TMP/gen.log")"
        grep -q "hwR10kEvCtr" "$TMP/gen/snmp.yml" || fail "the generator wrote no module ($where)"
    fi
    ok "$where layout: doc/mib-names.md's blocks$smi, the man page's and README.md's snmpwalk, README.md's and doc/mib.md's snmptranslate$gen_done as printed, on Debian's stock snmp.conf"
done

# ---- hw-r10kevctr-agent(8): the production line, started twice.  Its
# user exists in this namespace only (a bound copy of /etc/passwd).
line=$(sed -n 's/^\(hw-r10kevctr-agent -LSid -p .*\)$/\1/p' "$TMP/agent.8.txt")
[ -n "$line" ] || fail "no production line in hw-r10kevctr-agent(8)"
cp /etc/passwd "$TMP/passwd"; cp /etc/group "$TMP/group"
getent passwd hw-r10kevctr >/dev/null ||
    echo "hw-r10kevctr:x:64999:64999::/nonexistent:/usr/sbin/nologin" >>"$TMP/passwd"
getent group Debian-snmp >/dev/null || echo "Debian-snmp:x:64998:" >>"$TMP/group"
getent group hw-r10kevctr >/dev/null || echo "hw-r10kevctr:x:64999:" >>"$TMP/group"
mount --bind "$TMP/passwd" /etc/passwd && mount --bind "$TMP/group" /etc/group ||
    fail "cannot bind the namespace's passwd and group"
printf 'backend sim\nagentXSocket unix:%s\n' "$SOCK" >/etc/snmp/hw-r10kevctr.conf
# its state directory, as the package's tmpfiles.d makes it
mkdir -p /usr/local/var/lib/hw-r10kevctr && chown hw-r10kevctr /usr/local/var/lib/hw-r10kevctr && chmod 700 /usr/local/var/lib/hw-r10kevctr ||
    fail "cannot make the agent's state directory"
chmod 755 "$TMP" # the agent's user reaches its socket's directory
PATH=$HWR_BUILDDIR/agent:$PATH
unset SNMP_PERSISTENT_DIR # as printed: net-snmp's /var/lib/snmp (the namespace's)
(cd / && sh -c "$line") >"$TMP/first.out" 2>&1 || fail "the production line did not start: $line: $(cat "$TMP/first.out")"
first=$(cat /run/hw-r10kevctr/agent.pid)
EXTRA_PIDS="$first"
(cd / && sh -c "$line") >"$TMP/second.out" 2>"$TMP/second.err"; rc=$?
[ "$rc" = 1 ] || fail "a second start of the production line exited $rc"
[ "$(cat "$TMP/second.err")" = "/run/hw-r10kevctr/agent.pid: held by process $first, another hw-r10kevctr-agent with this pid file; not starting" ] ||
    fail "a second start said nothing on the terminal: $(cat "$TMP/second.err")"
[ "$(cat /run/hw-r10kevctr/agent.pid)" = "$first" ] && kill -0 "$first" || fail "the second start disturbed the first"
[ ! -s "$TMP/second.out" ] || fail "a second start wrote to standard output: $(cat "$TMP/second.out")"
ok "the production line ($line) started twice: the second exits 1 and says why on the terminal: $(cat "$TMP/second.err")"
