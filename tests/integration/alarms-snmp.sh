#!/bin/sh
# alarms.sh with the same two alarms created over SNMP (rows 1025, 1026)
# instead of config lines: every expectation holds for both.
HWR_ALARMS_VIA=snmp
export HWR_ALARMS_VIA
exec "$(dirname "$0")/alarms.sh"
