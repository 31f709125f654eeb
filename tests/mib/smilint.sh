#!/bin/sh
# smilint at its strictest level prints nothing for the generated module.
. "$(dirname "$0")/common.sh"
need_base_mibs
for mib in "$GENERATED" "$CHECKED_IN"; do
    out=$(SMIPATH="$HWR_SMIPATH" "$SMILINT" -l 6 -s "$mib" 2>&1)
    echo "smilint -l 6 $mib: ${out:-clean}"
    [ -z "$out" ] || fail "smilint complains about $mib"
done
