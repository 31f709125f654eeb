# common.sh - sourced by the MIB checks: paths and a skip/fail vocabulary.
set -u
: "${HWR_SRCDIR:?run me from make check}" "${HWR_BUILDDIR:?}"
GENERATED="$HWR_BUILDDIR/mib/HW-R10KEVCTR-MIB.generated.txt"
CHECKED_IN="$HWR_SRCDIR/HW-R10KEVCTR-MIB.txt"
GENERATED_ZABBIX="$HWR_BUILDDIR/mib/hw-r10kevctr.zabbix.generated.yaml"
GENERATED_PROMGEN="$HWR_BUILDDIR/mib/generator.generated.yml"
fail() { echo "FAIL: $*" >&2; exit 1; }
need_base_mibs() {
    [ -n "${BASE_MIBDIR:-}" ] && [ -d "$BASE_MIBDIR" ] ||
        fail "no IETF base MIB modules (install erlang-snmp, see DEVELOPERS.md)"
}
