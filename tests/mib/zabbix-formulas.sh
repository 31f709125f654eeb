#!/bin/sh
# The Zabbix template's calculated formulas under Zabbix 6.0's way of
# reading them (one function at a time while history syncs store values):
# every value is discarded or exact, never a mix of two readings
# (tests/mib/zabbix-formulas.py says how).  The real server's matrix is
# tests/integration/zabbix.sh.
. "$(dirname "$0")/common.sh"
python3 "$HWR_SRCDIR/tests/mib/zabbix-formulas.py" \
    "$HWR_SRCDIR/conf/zabbix/hw-r10kevctr.zabbix.yaml" ||
    fail "a calculated formula of conf/zabbix can store a wrong value"
