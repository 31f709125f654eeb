#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then, after the
# README's first command: the README's second command, verbatim (the
# second line of its first code block, without the comment): every
# package of the full set, then the whole suite (tools/check-all.sh).
# Its output is kept in $HOME/check-all.out, outside the tree (where
# tests/dist.sh would find an untracked file); prints the suite's
# last line ("N passed, N failed, N skipped") as an ok: line when the
# suite passes.  40-70 minutes.
set -u
CMD=$(awk '/^```/ { if (inblock) exit; inblock = 1; next }
           inblock && ++n == 2 { sub(/[ \t]+#.*$/, ""); print; exit }' README.md)
case $CMD in
*check-all.sh*) ;;
*) echo "FAIL: the README's second command is not the suite: '$CMD'"; exit 1 ;;
esac
t=$(date +%s)
OUT=$HOME/check-all.out
sh -c "$CMD" >"$OUT" 2>&1
rc=$?
last=$(tail -n 1 "$OUT")
if [ "$rc" -ne 0 ]; then
    grep -E '^==== (FAILED|.*build failed)' "$OUT"
    echo "FAIL: '$CMD' exited $rc after $(($(date +%s) - t)) s: $last"
    exit 1
fi
echo "ok: '$CMD' in $(($(date +%s) - t)) s: $last"
