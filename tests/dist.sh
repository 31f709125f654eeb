#!/bin/sh
# The release tarball holds every file the repository tracks (except
# .gitignore): a header or script left out of the Makefile lists breaks
# 'make distcheck' and every build from the tarball, so catch it in the
# ordinary test run. Skipped (77) outside a git checkout, e.g. in distcheck.
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${HWR_BUILDDIR:=$HWR_SRCDIR}"
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null 2>&1 && git -C "$HWR_SRCDIR" rev-parse --git-dir >/dev/null 2>&1 ||
    { echo "SKIP: $HWR_SRCDIR is not a git checkout"; exit 77; }
TMP=$(mktemp -d /tmp/hwr-dist.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
${MAKE:-make} -s -C "$HWR_BUILDDIR" distdir distdir="$TMP/d" >"$TMP/log" 2>&1 ||
    { cat "$TMP/log"; fail "make distdir"; }
(cd "$TMP/d" && find . -type f | sed 's|^\./||' | sort) >"$TMP/dist"
(cd "$HWR_SRCDIR" && git ls-files --cached --others --exclude-standard) |
    grep -v -x -e .gitignore | sort >"$TMP/tracked"
missing=$(comm -23 "$TMP/tracked" "$TMP/dist")
[ -z "$missing" ] || fail "files the tarball leaves out (add them to a Makefile list):
$missing"
echo "ok: all $(wc -l <"$TMP/tracked") tracked files are in the tarball"
