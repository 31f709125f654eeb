#!/bin/sh
# The checked-in HW-R10KEVCTR-MIB.txt is exactly what the generator makes
# from mib/metrics.def and mib/hw.help.  'make update-mib' refreshes it.
. "$(dirname "$0")/common.sh"
if ! diff -u "$CHECKED_IN" "$GENERATED"; then
    fail "HW-R10KEVCTR-MIB.txt is stale: run 'make update-mib' and commit it"
fi
echo "HW-R10KEVCTR-MIB.txt matches the generator's output"
