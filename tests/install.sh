#!/bin/sh
# 'make install DESTDIR=...' lays down the tree an operator expects: the
# daemon, the MIB, both man pages (rendered by man without a warning), the
# examples (never a live config), and, where configured, the systemd unit
# and its sysusers.d file; the installed unit passes systemd-analyze verify
# and checks the config (-t) before its reload's SIGHUP.
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${HWR_BUILDDIR:=$HWR_SRCDIR}"
TMP=$(mktemp -d /tmp/hwr-install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
raw_var() { sed -n "s|^$1 = ||p" "$HWR_BUILDDIR/Makefile" | head -n 1; }
var() { raw_var "$1" | sed "s|\${prefix}|$(raw_var prefix)|"; } # one level

D="$TMP/root"
${MAKE:-make} -s -C "$HWR_BUILDDIR" install DESTDIR="$D" >"$TMP/install.log" 2>&1 ||
    { cat "$TMP/install.log"; fail "make install"; }
find "$D" -type f | sed "s|^$D||" | sort >"$TMP/tree"
cat "$TMP/tree"
has() { grep -q "$1\$" "$TMP/tree" || fail "not installed: $1"; }
has /sbin/hw-r10kevctr-agent
has /share/snmp/mibs/HW-R10KEVCTR-MIB.txt
has /share/snmp/mibs/HCNUM-TC.txt
has /man/man8/hw-r10kevctr-agent.8
has /man/man5/hw-r10kevctr.conf.5
for f in hw-r10kevctr.conf snmpd.conf.example snmptrapd.conf.example mrtg.cfg.example \
    collectd.conf.example check_snmp.cfg.example snmpd.conf.d/hw-r10kevctr.conf; do
    has "/doc/hw-r10kevctr/examples/$f"
done
for f in README.md NEWS doc/nms.md doc/alarms.md doc/img/replay-phases.png; do
    has "/doc/hw-r10kevctr/$f"
done
# every document and picture of doc/ (the README links them), installed
# where its link points
for f in "$HWR_SRCDIR"/doc/*.md "$HWR_SRCDIR"/doc/img/*.png; do
    has "/doc/hw-r10kevctr/doc/${f#"$HWR_SRCDIR"/doc/}"
done
grep -q "/etc/" "$TMP/tree" && fail "something was installed into an etc directory"
has /hw-r10kevctr/hwr10k-notify
ok "binary, MIB, man pages, README, NEWS and doc/, examples and the trap handler installed; nothing in etc"

# Every installed path an example names is where this build installs it.
ex=$D$(dirname "$(grep '/examples/mrtg.cfg.example$' "$TMP/tree")")
for p in $(grep -ho '/[A-Za-z0-9_./-]*\(HW-R10KEVCTR-MIB\|HCNUM-TC\)\.txt\|/[A-Za-z0-9_./-]*/hwr10k-notify' \
        "$ex/mrtg.cfg.example" "$ex/snmptrapd.conf.example" | sort -u); do
    [ -e "$D$p" ] || fail "an example names $p, which this build does not install"
done
n=0
for p in $(grep -ho '/[A-Za-z0-9_./-]*\(HW-R10KEVCTR-MIB\|HCNUM-TC\)\.txt\|/[A-Za-z0-9_./-]*/hwr10k-notify' \
        "$ex/mrtg.cfg.example" "$ex/snmptrapd.conf.example" | sort -u); do n=$((n + 1)); done
[ "$n" -ge 3 ] || fail "the examples name only $n installed files (the handler and two MIB files expected)"
ok "the examples name the MIB and the handler where this prefix installs them"

for page in man8/hw-r10kevctr-agent.8 man5/hw-r10kevctr.conf.5; do
    f=$(grep "/man/$page\$" "$TMP/tree")
    warn=$(MANWIDTH=80 man --warnings -l "$D$f" 2>&1 >/dev/null)
    [ -z "$warn" ] || fail "man -l $page: $warn"
    lines=$(MANWIDTH=80 man -l "$D$f" 2>/dev/null | wc -l)
    [ "$lines" -gt 60 ] || fail "man -l $page renders $lines lines"
done
ok "man -l renders both pages without a warning"

unitdir=$(var systemdsystemunitdir)
if [ "$unitdir" != no ]; then
    unit="$D$unitdir/hw-r10kevctr.service"
    [ -f "$unit" ] || fail "no unit in $unitdir"
    [ -f "$D$(var sysusersdir)/hw-r10kevctr.conf" ] || fail "no sysusers.d file"
    [ -f "$D$(var tmpfilesdir)/hw-r10kevctr.conf" ] || fail "no tmpfiles.d file"
    command -v systemd-analyze >/dev/null || fail "systemd-analyze is missing"
    # verify wants ExecStart's program and Documentation='s man pages to
    # exist: check a copy whose ExecStart names the DESTDIR binary, with
    # the DESTDIR man pages on MANPATH.
    exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
    [ -x "$D$exe" ] || fail "ExecStart=$exe is not the installed binary"
    mandir=$(dirname "$(dirname "$(grep '/man8/hw-r10kevctr-agent.8$' "$TMP/tree")")")
    mkdir -p "$TMP/unit"
    sed "s|^\(Exec[A-Za-z]*=\)$exe|\1$D$exe|" "$unit" >"$TMP/unit/hw-r10kevctr.service"
    if ! MANPATH="$D$mandir" systemd-analyze verify \
        "$TMP/unit/hw-r10kevctr.service" >"$TMP/verify" 2>&1; then
        cat "$TMP/verify"; fail "systemd-analyze verify"
    fi
    [ -s "$TMP/verify" ] && { cat "$TMP/verify"; fail "systemd-analyze verify printed warnings"; }
    grep -q "^ExecStart=.*/sbin/hw-r10kevctr-agent -f -Le$" "$unit" || fail "ExecStart"
    # a reload checks the config (-t) first: a bad file fails it and
    # no SIGHUP is sent
    [ "$(sed -n 's/^ExecReload=//p' "$unit" | tr '\n' '|')" = "$exe -t|/bin/kill -HUP \$MAINPID|" ] ||
        fail "ExecReload is not the config check then the SIGHUP: $(grep ^ExecReload "$unit")"
    prefix=$(var prefix)
    if [ "$prefix" != /usr ]; then # nothing outside the prefix
        for d in "$unitdir" "$(var sysusersdir)" "$(var tmpfilesdir)"; do
            case $d in "$prefix"/*) ;; *) fail "$d is outside the prefix $prefix" ;; esac
        done
    fi
    ok "systemd unit, sysusers.d and tmpfiles.d files installed (in $unitdir); systemd-analyze verify passes"
fi

# DESTDIR-safe: uninstall leaves no file behind.
${MAKE:-make} -s -C "$HWR_BUILDDIR" uninstall DESTDIR="$D" >"$TMP/uninstall.log" 2>&1 ||
    { cat "$TMP/uninstall.log"; fail "make uninstall"; }
left=$(find "$D" -type f | wc -l)
[ "$left" = 0 ] || { find "$D" -type f; fail "uninstall left $left files"; }
ok "make uninstall removes everything"
