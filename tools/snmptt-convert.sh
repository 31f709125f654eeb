#!/bin/sh
# snmptt-convert.sh - writes conf/snmptt/hw-r10kevctr.snmptt.conf: what
# Debian's snmpttconvertmib makes of HW-R10KEVCTR-MIB's notifications
# (FORMAT: each DESCRIPTION's first line, then the varbinds' values), under
# a header.  tests/integration/snmptt.sh runs it and compares.
#   tools/snmptt-convert.sh [OUT]     (default: the file in conf/snmptt)
# MIBDIRS: where snmptranslate finds HCNUM-TC, NET-SNMP-MIB and SNMPv2-*
# (default: mib/ietf, /usr/share/snmp/mibs and erlang-snmp's mibs).
set -eu
S=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$S/conf/snmptt/hw-r10kevctr.snmptt.conf}
command -v snmpttconvertmib >/dev/null || { echo "snmpttconvertmib not installed (Debian: snmptt)" >&2; exit 77; }
base=$(ls -d /usr/lib/erlang/lib/snmp-*/mibs 2>/dev/null | head -n 1)
: "${MIBDIRS:=$S/mib/ietf:/usr/share/snmp/mibs:${BASE_MIBDIR:-$base}}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$S/HW-R10KEVCTR-MIB.txt" "$tmp/"
# snmpttconvertmib names its input file in the output: a relative name.
(cd "$tmp" && MIBDIRS="$tmp:$MIBDIRS" MIBS=HW-R10KEVCTR-MIB \
    snmpttconvertmib --in=HW-R10KEVCTR-MIB.txt --out=converted >log 2>&1) ||
    { cat "$tmp/log" >&2; exit 1; }
grep -q '^Failed translations: *0$' "$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
{
    cat <<'HEAD'
# hw-r10kevctr.snmptt.conf - snmptt's events for HW-R10KEVCTR-MIB's
# notifications, made by snmpttconvertmib (tools/snmptt-convert.sh; do not
# edit).  Add this file to snmptt_conf_files in snmptt.ini, and hand
# snmptrapd's notifications to snmptt (traphandle default
# /usr/sbin/snmptthandler, or snmptt itself in standalone mode).  The log
# lines below need snmptt.ini's net_snmp_perl_enable = 1 (libsnmp-perl)
# and the MIB where Net-SNMP looks (snmp.conf's mibdirs and mibs, see the
# project's doc/mib-names.md, or snmptt.ini's mibs_environment); without them
# start snmptrapd with -On and snmptt still matches the numeric OIDs.
# A rising alarm is a Warning, the rest Normal.  A log line reads, for
# example:
#   Event counter alarm rose; name metric type CPU value threshold:
#     brmp hw.r10kevctr.fail.brmp ratePerSecond -1 9000000 5000000
HEAD
    sed 's/^\(EVENT hwR10kEvCtrRisingAlarm .* "Status Events"\) Normal$/\1 Warning/' "$tmp/converted"
} >"$OUT"
