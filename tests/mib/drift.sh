#!/bin/sh
# The checked-in HW-R10KEVCTR-MIB.txt, Zabbix template and snmp_exporter
# generator.yml are exactly what
# the generator makes from lib/tables/*.def and mib/hw.help.  'make update-mib'
# refreshes them.
. "$(dirname "$0")/common.sh"
if ! diff -u "$CHECKED_IN" "$GENERATED"; then
    fail "HW-R10KEVCTR-MIB.txt is stale: run 'make update-mib' and commit it"
fi
echo "HW-R10KEVCTR-MIB.txt matches the generator's output"
if ! diff -u "$HWR_SRCDIR/conf/zabbix/hw-r10kevctr.zabbix.yaml" "$GENERATED_ZABBIX"; then
    fail "conf/zabbix/hw-r10kevctr.zabbix.yaml is stale: run 'make update-mib' and commit it"
fi
echo "conf/zabbix/hw-r10kevctr.zabbix.yaml matches the generator's output"
if ! diff -u "$HWR_SRCDIR/conf/prometheus/generator.yml" "$GENERATED_PROMGEN"; then
    fail "conf/prometheus/generator.yml is stale: run 'make update-mib' and commit it"
fi
echo "conf/prometheus/generator.yml matches the generator's output"
