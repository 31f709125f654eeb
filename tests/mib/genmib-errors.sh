#!/bin/sh
# genmib refuses a bad hw.help with FILE:LINE and leaves no output behind.
. "$(dirname "$0")/common.sh"
genmib="$HWR_BUILDDIR/mib/genmib"
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT

expect() { # expect NAME EXPECTED-MESSAGE; input in $dir/NAME.help
    if "$genmib" "$dir/$1.help" "$dir/out.mib" "$dir/out.c" "$dir/out.yaml" "$dir/out.yml" 2>"$dir/err"; then
        fail "$1: genmib accepted a bad file"
    fi
    grep -qF -- "$2" "$dir/err" || { cat "$dir/err"; fail "$1: no '$2'"; }
    [ ! -e "$dir/out.mib" ] && [ ! -e "$dir/out.c" ] && [ ! -e "$dir/out.yaml" ] &&
        [ ! -e "$dir/out.yml" ] || fail "$1: output left"
    echo "ok: $1"
}
help="$HWR_SRCDIR/mib/hw.help"
sed 's/^@ hw.r10kevctr.tlb .*/@ hw.r10kevctr.tlb/' "$help" >"$dir/nosummary.help"
expect nosummary "nosummary.help:$(grep -n '^@ hw.r10kevctr.tlb' "$help" | cut -d: -f1): '@' line has no one-line summary"
sed 's/^@ hw.r10kevctr.vcc /@ hw.r10kevctr.vcx /' "$help" >"$dir/unknown.help"
expect unknown "metric hw.r10kevctr.vcx is not in the metrics table"
grep -v '^@ hw.r10kevctr.cpurev' "$help" >"$dir/missing.help"
expect missing "metric hw.r10kevctr.cpurev of the metrics table has no entry"
printf 'junk\n' | cat - "$help" >"$dir/junk.help"
expect junk "junk.help:1: text before the first '@' entry"
sed 's/once per clock cycle/once per clock cycle \xe2\x80\x94/' "$help" >"$dir/utf8.help"
expect utf8 "byte outside printable ASCII (0xe2)"
sed 's/is the sum over all CPUs\./is summed./' "$help" >"$dir/nophrase.help"
expect nophrase "hw.r10kevctr.cycles does not say \"hw.r10kevctr.cycles is the sum over all CPUs\""
expect absent "absent.help: cannot open"
