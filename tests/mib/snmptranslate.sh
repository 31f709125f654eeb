#!/bin/sh
# net-snmp's parser resolves every descriptor of the module to an OID under
# the module root, with no MIB error on stderr.
. "$(dirname "$0")/common.sh"
need_base_mibs
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
cp "$GENERATED" "$dir/HW-R10KEVCTR-MIB.txt"
cp "$HWR_SRCDIR/mib/ietf/HCNUM-TC.txt" "$dir/"
root=$(snmptranslate -M "$dir:$NETSNMP_MIBDIRS:$BASE_MIBDIR" -m HW-R10KEVCTR-MIB \
    -On HW-R10KEVCTR-MIB::hwR10kEvCtrMIB 2>"$dir/err") || fail "no module root"
[ ! -s "$dir/err" ] || { cat "$dir/err"; fail "snmptranslate printed errors"; }
names=$(SMIPATH="$HWR_SMIPATH" "$SMIDUMP" -q -f identifiers "$GENERATED" |
    awk '$1 == "HW-R10KEVCTR-MIB" && $3 != "type" { print $2 }')
n=0
for name in $names; do
    oid=$(snmptranslate -M "$dir:$NETSNMP_MIBDIRS:$BASE_MIBDIR" -m HW-R10KEVCTR-MIB \
        -On "HW-R10KEVCTR-MIB::$name" 2>"$dir/err") || fail "$name does not resolve"
    [ ! -s "$dir/err" ] || { cat "$dir/err"; fail "errors resolving $name"; }
    case "$oid" in "$root"|"$root".*) ;; *) fail "$name is $oid, not under $root" ;; esac
    n=$((n + 1))
done
defs=$(grep -cE '^[a-z][A-Za-z0-9]* +(MODULE-IDENTITY|OBJECT-TYPE|OBJECT IDENTIFIER|NOTIFICATION-TYPE|OBJECT-GROUP|NOTIFICATION-GROUP|MODULE-COMPLIANCE)' "$GENERATED")
[ "$n" -eq "$defs" ] || fail "$n descriptors resolved, the module defines $defs"
echo "snmptranslate resolved $n descriptors under $root"
