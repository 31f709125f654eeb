#!/bin/sh
# The checked-in HW-R10KEVCTR-MIB.txt and Zabbix template are exactly what
# the generator makes from mib/*.def and mib/hw.help.  'make update-mib'
# refreshes both.
. "$(dirname "$0")/common.sh"
if ! diff -u "$CHECKED_IN" "$GENERATED"; then
    fail "HW-R10KEVCTR-MIB.txt is stale: run 'make update-mib' and commit it"
fi
echo "HW-R10KEVCTR-MIB.txt matches the generator's output"
if ! diff -u "$HWR_SRCDIR/conf/zabbix/hw-r10kevctr.zabbix.yaml" "$GENERATED_ZABBIX"; then
    fail "conf/zabbix/hw-r10kevctr.zabbix.yaml is stale: run 'make update-mib' and commit it"
fi
echo "conf/zabbix/hw-r10kevctr.zabbix.yaml matches the generator's output"
