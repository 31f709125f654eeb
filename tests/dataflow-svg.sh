#!/bin/sh
# The README's picture says what its source says: doc/img/dataflow.svg is
# doc/img/dataflow.dot rendered by Graphviz's dot.  When dot is installed
# the source is rendered again and the two pictures' words compared: every
# node and edge (the SVG's <title>s) and every label (its <text>s), in
# order.  Coordinates are left out: they follow the fonts installed, the
# words do not.  Without dot: skip (77).  After editing the .dot:
#   dot -Tsvg doc/img/dataflow.dot -o doc/img/dataflow.svg
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
src=$HWR_SRCDIR/doc/img/dataflow.dot
svg=$HWR_SRCDIR/doc/img/dataflow.svg
[ -f "$src" ] && [ -f "$svg" ] || { echo "FAIL: $src or $svg missing"; exit 1; }
command -v dot >/dev/null || { echo "SKIP: dot not installed (Debian: graphviz)"; exit 77; }
words() { grep -o -e '<title>[^<]*</title>' -e '<text[^>]*>[^<]*</text>' | sed 's/<text[^>]*>/<text>/'; }
TMP=$(mktemp -d /tmp/hwr-svg.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
dot -Tsvg "$src" -o "$TMP/new.svg" || { echo "FAIL: dot cannot render $src"; exit 1; }
words <"$svg" >"$TMP/old"
words <"$TMP/new.svg" >"$TMP/new"
[ "$(wc -l <"$TMP/new")" -ge 20 ] || { echo "FAIL: the rendered picture has only: $(cat "$TMP/new")"; exit 1; }
if ! cmp -s "$TMP/old" "$TMP/new"; then
    echo "FAIL: doc/img/dataflow.svg is not doc/img/dataflow.dot rendered; run"
    echo "  dot -Tsvg doc/img/dataflow.dot -o doc/img/dataflow.svg"
    diff "$TMP/old" "$TMP/new" | head -20
    exit 1
fi
echo "ok: doc/img/dataflow.svg says what doc/img/dataflow.dot says ($(wc -l <"$TMP/new") titles and labels)"
