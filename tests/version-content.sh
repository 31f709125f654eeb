#!/bin/sh
# A version per package content (DEVELOPERS.md, Versions): no file that
# reaches the Debian package or `make install` may change after the commit
# that set the current version.  Otherwise a package built now and one
# built at that commit carry the same version and differ, and dpkg, apt
# and every inventory take one for the other.
#
# The commit that set the version is the newer of two: the last commit
# that changed AC_INIT's version in configure.ac, and the last that
# changed the version of debian/changelog's top entry (its first line; a
# new Debian revision is a new package too).  The files changed since
# then are those of `git diff THAT_COMMIT HEAD`, the uncommitted changes
# (staged or not) and the untracked files git does not ignore (tools/deb.sh
# builds from those too): `git status --porcelain`'s list.  A version set
# in the working tree and not yet committed is new: nothing was built
# under it, and the test passes.
#
# Outside a git checkout of its own (a tarball, make distcheck's copy
# inside a build tree) there is no history to compare: exit 77.
set -u -f
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
S=$HWR_SRCDIR
fail() { echo "FAIL: $*"; exit 1; }

# What never reaches the built .deb or `make install`: a changed file
# matching one of these needs no new version.  Everything else counts:
# the sources (agent/, lib/, mib/*.c: genmib writes the installed MIB,
# objects.c and the Zabbix template), the build (configure.ac, m4/,
# Makefile.am, */Makefile.inc outside the folders below, autogen.sh),
# man/, conf/ (the examples and conffiles), doc/ and README.md and NEWS
# (all installed under /usr/share/doc/hw-r10kevctr), the MIBs, debian/
# but for the two below.  Keep a path here only when no install rule
# (Makefile.am, */Makefile.inc, debian/*.install) names it.
#   tests/          the test suite and its data (make check only; the
#                   package build runs unit tests, whose result is no
#                   content)
#   fuzz/           the fuzz targets and their seeds (make fuzz)
#   bench/          the benchmarks and their report
#   tools/          the developer's scripts (install-deps, build, demo,
#                   check-all, deb: it builds the package, it is not in it)
#   .ci/            CI's script
#   DEVELOPERS.md   in the tarball, not installed
#   mib/README.md   in the tarball, not installed (the generator's notes)
#   .gitignore .clang-format
#   debian/tests/   the autopkgtest, run against the package, not in it
#   debian/source/  the source package's format; no binary file follows
#                   from it
excluded() {
    case $1 in
    tests/* | fuzz/* | bench/* | tools/* | .ci/*) return 0 ;;
    DEVELOPERS.md | mib/README.md | .gitignore | .clang-format) return 0 ;;
    debian/tests/* | debian/source/*) return 0 ;;
    esac
    return 1
}

command -v git >/dev/null 2>&1 || { echo "SKIP: git is not installed: no history to compare"; exit 77; }
top=$(git -C "$S" rev-parse --show-toplevel 2>/dev/null) ||
    { echo "SKIP: $S is not a git checkout (a tarball?): no history to find the version's commit in"; exit 77; }
[ "$(cd "$top" && pwd -P)" = "$(cd "$S" && pwd -P)" ] ||
    { echo "SKIP: $S is not a git checkout of its own (inside $top: make distcheck's copy?)"; exit 77; }
g() { git -C "$S" "$@"; }
g rev-parse --verify -q HEAD >/dev/null || { echo "SKIP: no commit yet"; exit 77; }

# The version of REV's configure.ac and debian/changelog (REV "" for the
# working tree).
ac_at() {
    if [ -z "$1" ]; then cat "$S/configure.ac"; else g show "$1:configure.ac" 2>/dev/null; fi |
        sed -n 's/^AC_INIT(\[hw-r10kevctr\], \[\([^]]*\)\].*/\1/p'
}
deb_at() {
    if [ -z "$1" ]; then cat "$S/debian/changelog"; else g show "$1:debian/changelog" 2>/dev/null; fi |
        sed -n '1s/^hw-r10kevctr (\([^)]*\)).*/\1/p'
}
ac=$(ac_at "") deb=$(deb_at "")
[ -n "$ac" ] || fail "configure.ac has no AC_INIT([hw-r10kevctr], [VERSION])"
[ -n "$deb" ] || fail "debian/changelog's first line is not 'hw-r10kevctr (VERSION) ...'"
if [ "$ac" != "$(ac_at HEAD)" ] || [ "$deb" != "$(deb_at HEAD)" ]; then
    echo "ok: the version ($ac, package $deb) is set in the working tree, not yet committed: nothing was built under it"
    exit 0
fi

# setter FILE FUNCTION: the newest commit of HEAD's history whose FILE's
# version (FUNCTION) differs from its parent's.
setter() {
    for c in $(g log --format=%H HEAD -- "$1"); do
        [ "$($2 "$c")" != "$($2 "$c^")" ] && { echo "$c"; return 0; }
    done
    return 1
}
c_ac=$(setter configure.ac ac_at) || fail "no commit of HEAD's history sets configure.ac's version $ac"
c_deb=$(setter debian/changelog deb_at) || fail "no commit of HEAD's history sets debian/changelog's version $deb"
if g merge-base --is-ancestor "$c_ac" "$c_deb"; then
    vc=$c_deb
elif g merge-base --is-ancestor "$c_deb" "$c_ac"; then
    vc=$c_ac
elif [ "$(g log -1 --format=%ct "$c_ac")" -ge "$(g log -1 --format=%ct "$c_deb")" ]; then
    vc=$c_ac
else
    vc=$c_deb
fi
vc_line=$(g log -1 --format='%h %s' "$vc")

# The files changed since, committed or not; --no-renames names both
# sides of a move.
committed=$(g diff --no-renames --name-only "$vc" HEAD)
uncommitted=$( {
    g diff --no-renames --name-only HEAD
    g ls-files --others --exclude-standard
} | sort -u)
changed=$(printf '%s\n%s\n' "$committed" "$uncommitted" | grep . | sort -u)
reach=
n=0
for f in $changed; do
    excluded "$f" && continue
    note=
    printf '%s\n' "$uncommitted" | grep -qxF "$f" && note=" (uncommitted)"
    reach="$reach
  $f$note"
    n=$((n + 1))
done
nchanged=$(printf '%s\n' "$changed" | grep -c .)
if [ "$n" -gt 0 ]; then
    echo "FAIL: $n file(s) that reach the package changed since the commit that set version $ac (package $deb), $vc_line:$reach"
    echo "A package built now differs from one built at $(g log -1 --format=%h "$vc") under the same version $deb."
    echo "Fix: bump the version: DEVELOPERS.md, Versions."
    exit 1
fi
echo "ok: version $ac (package $deb) set by $vc_line; $nchanged file(s) changed since, none that reaches the package"
