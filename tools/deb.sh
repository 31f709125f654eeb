#!/bin/sh
# deb.sh - builds the Debian package from a clean copy of the tree (the
# files git tracks, with the working tree's content) with
# dpkg-buildpackage -us -uc -b, then checks it with lintian: no error, no
# warning (overrides only with a written reason, in debian/).
#   tools/deb.sh [OUTDIR]        (default: build-deb; the .deb, .changes,
#                                 .buildinfo and lintian.txt land there)
# The build dependencies are debian/control's; tools/install-deps.sh
# --deb installs them with dpkg-dev and lintian (--all does too).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$top/build-deb}" && cd "${1:-$top/build-deb}" && pwd)
for t in dpkg-buildpackage lintian; do
    command -v "$t" >/dev/null || { echo "deb.sh: $t not installed (tools/install-deps.sh --deb)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/hwr-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
src=$work/hw-r10kevctr
mkdir "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$top" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$src"
else
    (cd "$top" && tar --exclude='./build*' --exclude=./autom4te.cache -cf - .) | tar -xf - -C "$src"
fi
echo "deb.sh: building in $src"
start=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
    { tail -n 60 "$out/build.log"; echo "deb.sh: dpkg-buildpackage failed (log: $out/build.log)" >&2; exit 1; }
rm -f "$out"/hw-r10kevctr*.deb "$out"/hw-r10kevctr*.changes "$out"/hw-r10kevctr*.buildinfo
mv "$work"/hw-r10kevctr*.deb "$work"/hw-r10kevctr*.changes "$work"/hw-r10kevctr*.buildinfo "$out/"
echo "deb.sh: built in $(($(date +%s) - start)) s: $(cd "$out" && ls hw-r10kevctr*.deb | tr "\n" " ")"
changes=$(ls "$out"/hw-r10kevctr_*.changes)
rc=0
# -I --pedantic: the info and pedantic tags are printed too (reported,
# not failed on); --info would only add their explanations.
lintian --fail-on error,warning -I --pedantic "$changes" >"$out/lintian.txt" 2>&1 || rc=$?
cat "$out/lintian.txt"
[ "$rc" = 0 ] || { echo "deb.sh: lintian found errors or warnings" >&2; exit 1; }
echo "deb.sh: lintian: no errors, no warnings ($(grep -c '^[IP]:' "$out/lintian.txt" || true) info/pedantic tags)"
