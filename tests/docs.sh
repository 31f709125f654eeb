#!/bin/sh
# The README, the man pages and the commented config must not disagree:
# every option the agent's usage lists is in hw-r10kevctr-agent(8) and in
# the README's option table; every config token the agent accepts (its -H
# list: the generic ones and each backend's) is in hw-r10kevctr.conf(5)
# (whose headings the build writes from the same rows), in
# conf/hw-r10kevctr.conf and in the README.
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${HWR_BUILDDIR:=$HWR_SRCDIR}"
S=$HWR_SRCDIR
fail() { echo "FAIL: $*"; bad=1; }
bad=0

opts=$("$HWR_BUILDDIR/agent/hw-r10kevctr-agent" -h | sed -n 's/^  \(-[A-Za-z]\).*/\1/p; s/^  -h, --help.*/-h/p')
[ "$(echo "$opts" | wc -l)" -ge 10 ] || fail "usage lists only: $opts"
for o in $opts; do
    l=${o#-}
    grep -q "^\.B[IR]* *\\\\-$l\( \|$\)" "$S/man/hw-r10kevctr-agent.8" || fail "option $o not in hw-r10kevctr-agent(8)"
    grep -q "^| \`$o" "$S/README.md" || fail "option $o not in the README's option table"
done
[ "$bad" = 0 ] && echo "ok: $(echo $opts | wc -w) options in the usage, the man page and the README"

tokens=$("$HWR_BUILDDIR/agent/hw-r10kevctr-agent" -H | awk '{ print $1 }')
[ "$(echo "$tokens" | wc -l)" -ge 13 ] || fail "config_tokens: $tokens"
for t in $tokens; do
    grep -q "^\.BI* $t\( \|$\)" "$HWR_BUILDDIR/man/hw-r10kevctr.conf.5" || fail "token $t not in hw-r10kevctr.conf(5)"
    grep -q "^#*$t\( \|$\)" "$S/conf/hw-r10kevctr.conf" || fail "token $t not in conf/hw-r10kevctr.conf"
    grep -q "^| \`$t\`" "$S/README.md" || fail "token $t not in the README's token table"
done
[ "$bad" = 0 ] && echo "ok: $(echo $tokens | wc -w) config tokens in the man page, the config file and the README"
# doc/architecture.md's "where a change goes": every path it names exists.
paths=$(sed -n '/^## Where a change goes/,/^## /p' "$S/doc/architecture.md" |
    grep -o '`[A-Za-z0-9_./-]*`' | tr -d '`' | grep '/' | grep -v NAME | sort -u)
[ "$(echo "$paths" | wc -l)" -ge 12 ] || fail "the change table names only: $paths"
for p in $paths; do
    [ -e "$S/$p" ] || fail "doc/architecture.md names $p, which does not exist"
done
[ "$bad" = 0 ] && echo "ok: the change table's $(echo "$paths" | wc -l) paths exist"

# The Debian package's version is configure.ac's (debian/changelog's top
# entry, upstream part), and the README's package file name says it.
ac=$(sed -n 's/^AC_INIT(\[hw-r10kevctr\], \[\([^]]*\)\].*/\1/p' "$S/configure.ac")
deb=$(sed -n '1s/^hw-r10kevctr (\([^)-]*\)-[^)]*).*/\1/p' "$S/debian/changelog")
[ -n "$ac" ] && [ "$ac" = "$deb" ] || fail "debian/changelog's version '$deb' is not configure.ac's '$ac'"
grep -q "hw-r10kevctr_$ac-" "$S/README.md" || fail "the README's package file name is not version $ac"
[ "$bad" = 0 ] && echo "ok: debian/changelog and the README follow configure.ac's version $ac"

exit $bad

