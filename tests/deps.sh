#!/bin/sh
# tools/install-deps.sh's default set installs what building and running
# the demo use, and none of the test engines' weight; --all adds the rest.
#
# "What the demo uses" is found, not listed: every program the build
# (autogen.sh, configure, make) and tools/demo.sh run, the pkg-config
# files configure requires, the base MIB module the demo's named walk
# imports, and every package configure's unconditional errors and warnings
# name must belong to a package of the default set or to one it depends
# on (this machine's dpkg and apt metadata; nothing is downloaded).
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
S=$HWR_SRCDIR
DEPS="$S/tools/install-deps.sh"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v dpkg >/dev/null && command -v apt-cache >/dev/null ||
    { echo "SKIP: no dpkg or apt-cache (not Debian)"; exit 77; }

sh -n "$DEPS" || fail "install-deps.sh: syntax"
base=$("$DEPS" --list) || fail "--list failed"
all=$("$DEPS" --all --list) || fail "--all --list failed"
"$DEPS" --bogus >/dev/null 2>&1 && fail "an unknown option was accepted"
[ "$(echo "$base" | wc -l)" -ge 5 ] || fail "default set: $base"
for p in $base; do
    echo "$all" | grep -qx "$p" || fail "$p is in the default set, not in --all"
done
ok "--list: $(echo "$base" | wc -l) packages by default, $(echo "$all" | wc -l) with --all, a superset"

# shellcheck disable=SC2086
closure=$(apt-cache depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances $base 2>/dev/null |
    grep -v '^ ' | sort -u)
[ -n "$closure" ] || { echo "SKIP: apt-cache knows none of the packages"; exit 77; }
installs() { echo "$closure" | grep -qx "$1"; }
owner() { dpkg -S "$(readlink -f "$1")" 2>/dev/null | sed -n '1s/:.*//p' | sed 's/,.*//'; }

# The programs: the build's and the demo's (tests/integration/lib.sh
# starts snmpd, snmpwalk walks by name).
for prog in autoreconf aclocal autoheader libtoolize pkg-config make cc \
    net-snmp-config smilint smidump snmpd snmpwalk; do
    path=$(PATH="$PATH:/usr/sbin:/sbin" command -v "$prog") ||
        { echo "SKIP: $prog is not installed here to look it up"; exit 77; }
    pkg=$(owner "$path")
    [ -n "$pkg" ] || fail "no package owns $path"
    installs "$pkg" || fail "$prog ($pkg) is not installed by the default set"
done
# The libraries configure requires, by their pkg-config files.
for pc in cmocka libsmi; do
    dir=$(pkg-config --variable=pcfiledir "$pc") || fail "no $pc.pc here"
    pkg=$(owner "$dir/$pc.pc")
    installs "$pkg" || fail "$pc.pc ($pkg) is not installed by the default set"
done
ok "the build's and the demo's programs and configure's libraries are installed by the default set"

# The base MIB module the named walk imports, where lib.sh finds it.
smi=
for f in /usr/share/snmp/mibs/ietf/SNMPv2-SMI* /usr/share/mibs/ietf/SNMPv2-SMI* \
    /usr/lib/erlang/lib/snmp-*/mibs/SNMPv2-SMI*; do
    [ -e "$f" ] && { smi=$f; break; }
done
[ -n "$smi" ] || fail "no SNMPv2-SMI here"
installs "$(owner "$smi")" || fail "$smi ($(owner "$smi")) is not installed by the default set"
ok "the base MIBs ($(owner "$smi")) are installed by the default set"

# Every package configure names in an error or warning that a default
# configure can raise (not those of --with-X=yes) is in the default set.
named=$(cat "$S/configure.ac" "$S"/m4/*.m4 |
    awk '/AC_MSG_(ERROR|WARN)/ && /install the Debian package/ && prev !~ /= xyes/ && $0 !~ /= xyes/ {
             s = $0; sub(/.*install the Debian packages? /, "", s); sub(/ *[;()\]].*/, "", s)
             gsub(/ and /, " ", s); print s }
         { prev = $0 }' | tr ' ' '\n' | grep . | sort -u)
[ "$(echo "$named" | wc -l)" -ge 4 ] || fail "configure names only: $named"
for p in $named; do
    echo "$base" | grep -qx "$p" || fail "configure needs $p; not in the default set"
done
ok "configure's required packages ($(echo $named)) are in the default set"

# --deb: what tools/deb.sh needs on a fresh machine.  Every package of
# debian/control's Build-Depends (debhelper-compat and dh-sequence-*:
# debhelper, which provides them), build-essential, dpkg-dev for
# dpkg-buildpackage and lintian; no demo, no test engine.
deb=$("$DEPS" --deb --list) || fail "--deb --list failed"
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$S/debian/control" | sed '$d' |
    sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/[[(].*//; s/^ *//; s/ *$//' | grep . |
    sed 's/^debhelper-compat$/debhelper/; s/^dh-sequence-.*/debhelper/' | sort -u)
[ "$(echo "$bdeps" | wc -l)" -ge 5 ] || fail "debian/control's Build-Depends: $bdeps"
for p in $bdeps build-essential dpkg-dev lintian; do
    echo "$deb" | grep -qx "$p" || fail "tools/deb.sh needs $p; not in --deb"
done
for p in snmpd erlang-snmp valgrind prometheus; do
    echo "$deb" | grep -qx "$p" && fail "--deb installs $p, which the package build does not use"
done
for p in $deb; do
    echo "$all" | grep -qx "$p" || fail "$p is in --deb, not in --all"
done
# The pages that print tools/deb.sh install a set that holds it.
printed=$(grep -h 'tools/install-deps.sh.* && tools/deb.sh' "$S/README.md" "$S"/doc/*.md | sed 's/^ *//; s/ *#.*//')
[ -n "$printed" ] || fail "no page prints tools/deb.sh after tools/install-deps.sh"
echo "$printed" | grep -v -e '--deb' -e '--all' | grep . &&
    fail "a page prints tools/deb.sh after a set without debian/control's Build-Depends"
ok "--deb: debian/control's Build-Depends ($(echo $bdeps)), build-essential, dpkg-dev and lintian; a subset of --all"

# Not the engines: no web server, database, Zabbix or browser by default.
for heavy in apache2 libapache2-mod-php8.2 postgresql zabbix-server-pgsql \
    zabbix-frontend-php chromium prometheus; do
    installs "$heavy" && fail "the default set installs $heavy"
done
for p in postgresql zabbix-server-pgsql chromium prometheus; do
    echo "$all" | grep -qx "$p" || fail "--all lacks $p, which the tests use"
done
ok "the default set installs no web server, database, Zabbix or browser; --all has them"
