#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then, after the
# README's first command: the README's second command, verbatim (the
# second line of its first code block, without the comment): every
# package of the full set, then the whole suite (tools/check-all.sh).
# Its output is kept in check-all.out in the tree; prints the suite's
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
sh -c "$CMD" >check-all.out 2>&1
rc=$?
last=$(tail -n 1 check-all.out)
if [ "$rc" -ne 0 ]; then
    grep -E '^==== (FAILED|.*build failed)' check-all.out
    echo "FAIL: '$CMD' exited $rc after $(($(date +%s) - t)) s: $last"
    exit 1
fi
echo "ok: '$CMD' in $(($(date +%s) - t)) s: $last"
