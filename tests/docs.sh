#!/bin/sh
# doc/operations.md, the man pages and the commented config must not
# disagree: every option the agent's usage lists is in
# hw-r10kevctr-agent(8) and in doc/operations.md's option table; every
# config token the agent accepts (its -H list: the generic ones and each
# backend's) is in hw-r10kevctr.conf(5) (whose headings the build writes
# from the same rows), in conf/hw-r10kevctr.conf and in doc/operations.md's
# token table.  (The README is a newcomer's page: it links them.)
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
    grep -q "^| \`$o" "$S/doc/operations.md" || fail "option $o not in doc/operations.md's option table"
done
[ "$bad" = 0 ] && echo "ok: $(echo $opts | wc -w) options in the usage, the man page and doc/operations.md"

tokens=$("$HWR_BUILDDIR/agent/hw-r10kevctr-agent" -H | awk '{ print $1 }')
[ "$(echo "$tokens" | wc -l)" -ge 13 ] || fail "config_tokens: $tokens"
for t in $tokens; do
    grep -q "^\.BI* $t\( \|$\)" "$HWR_BUILDDIR/man/hw-r10kevctr.conf.5" || fail "token $t not in hw-r10kevctr.conf(5)"
    grep -q "^#*$t\( \|$\)" "$S/conf/hw-r10kevctr.conf" || fail "token $t not in conf/hw-r10kevctr.conf"
    grep -q "^| \`$t\`" "$S/doc/operations.md" || fail "token $t not in doc/operations.md's token table"
done
[ "$bad" = 0 ] && echo "ok: $(echo $tokens | wc -w) config tokens in the man page, the config file and doc/operations.md"
# doc/architecture.md's "where a change goes": every path it names exists.
paths=$(sed -n '/^## Where a change goes/,/^## /p' "$S/doc/architecture.md" |
    grep -o '`[A-Za-z0-9_./-]*`' | tr -d '`' | grep '/' | grep -v NAME | sort -u)
[ "$(echo "$paths" | wc -l)" -ge 12 ] || fail "the change table names only: $paths"
for p in $paths; do
    [ -e "$S/$p" ] || fail "doc/architecture.md names $p, which does not exist"
done
[ "$bad" = 0 ] && echo "ok: the change table's $(echo "$paths" | wc -l) paths exist"

# The version lives in configure.ac's AC_INIT alone (the agent's
# --version is built from it); everything else that spells it follows:
# debian/changelog's top entry (upstream part), NEWS's top entry, the man
# pages' headers, every package file name the README and doc/ show.
ac=$(sed -n 's/^AC_INIT(\[hw-r10kevctr\], \[\([^]]*\)\].*/\1/p' "$S/configure.ac")
deb=$(sed -n '1s/^hw-r10kevctr (\([^)-]*\)-[^)]*).*/\1/p' "$S/debian/changelog")
[ -n "$ac" ] && [ "$ac" = "$deb" ] || fail "debian/changelog's version '$deb' is not configure.ac's '$ac'"
news=$(sed -n 's/^hw-r10kevctr \([0-9][^ ]*\) .*/\1/p' "$S/NEWS" | head -1)
[ "$news" = "$ac" ] || fail "NEWS's top entry is version '$news', not configure.ac's '$ac'"
for m in "$S/man/hw-r10kevctr-agent.8" "$S/man/hw-r10kevctr.conf.5.in"; do
    head -1 "$m" | grep -q "\"hw-r10kevctr $ac\"" || fail "$m: .TH is not version $ac: $(head -1 "$m")"
done
grep -q "hw-r10kevctr_$ac-" "$S/README.md" || fail "the README's package file name is not version $ac"
stale=$(grep -rno "hw-r10kevctr_[0-9][0-9.]*-" "$S/README.md" "$S/doc" | grep -v "_$ac-\$")
[ -z "$stale" ] || fail "package file names of another version than $ac: $stale"
"$HWR_BUILDDIR/agent/hw-r10kevctr-agent" --version | grep -q "^hw-r10kevctr $ac " ||
    fail "--version is not $ac: $("$HWR_BUILDDIR/agent/hw-r10kevctr-agent" --version | head -1)"
[ "$bad" = 0 ] && echo "ok: debian/changelog, NEWS, the man pages, the README and --version follow configure.ac's version $ac"

# The README is a newcomer's page: at most 250 lines, its two set-up
# commands first, and a link to each page its reference parts moved to
# (each of which exists).
n=$(wc -l <"$S/README.md")
[ "$n" -le 250 ] || fail "the README has $n lines (at most 250)"
grep -q '^tools/install-deps.sh && tools/demo.sh ' "$S/README.md" &&
    grep -q '^tools/install-deps.sh --all && tools/check-all.sh ' "$S/README.md" ||
    fail "the README does not start with the demo's and the tests' commands"
for page in doc/operations.md doc/testing.md bench/README.md doc/architecture.md doc/mib.md doc/img/dataflow.svg; do
    [ -f "$S/$page" ] || fail "$page does not exist"
    grep -q "]($page)" "$S/README.md" || fail "the README does not link $page"
done
[ "$bad" = 0 ] && echo "ok: the README has $n lines and links the pages its reference parts moved to"

# doc/testing.md's fuzz table: a row for each target of fuzz/
for f in "$S"/fuzz/fuzz_*.c; do
    t=$(basename "$f" .c)
    grep -q "^| \`$t\` |" "$S/doc/testing.md" || fail "doc/testing.md's fuzz table has no row for $t"
done
[ "$bad" = 0 ] && echo "ok: doc/testing.md's fuzz table has every target of fuzz/"

# doc/architecture.md: net-snmp's headers in agent/ only, every file there
# (it says so instead of listing them).
for f in "$S"/lib/*.[ch] "$S"/lib/*/*.[ch]; do
    grep -q '#include <net-snmp/' "$f" && fail "$f includes net-snmp's headers (doc/architecture.md: nothing in lib/)"
done
for f in "$S"/agent/*.c; do
    # but the reading thread's, which must call nothing of net-snmp
    [ "$f" = "$S/agent/reader.c" ] && continue
    grep -q '#include <net-snmp/' "$f" ||
        fail "$f does not include net-snmp's headers (doc/architecture.md: every file of agent/)"
done
grep -q '#include <net-snmp/' "$S/agent/reader.c" &&
    fail "agent/reader.c includes net-snmp's headers (doc/architecture.md: the reading thread calls nothing of it)"
[ "$bad" = 0 ] && echo "ok: net-snmp's headers in agent/ only, as doc/architecture.md says"

# doc/architecture.md's layout (the floors, their includes and prefixes):
# tests/layout.sh.

exit $bad
