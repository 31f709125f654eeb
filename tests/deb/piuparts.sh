#!/bin/sh
# piuparts: the package installed, removed and purged in a fresh root of
# the host's release (Debian 12 or 13: the package is built for it) of
# piuparts' own (debootstrap from the host's Debian mirror), with
# its dependencies; nothing of it may be left after purge, and its
# maintainer scripts must run without systemd running.
#   tests/deb/piuparts.sh PACKAGE.deb
# Ignored, each with its reason: directories systemd's own postinst
# creates in that root (systemd-tmpfiles over systemd's tmpfiles.d, run
# when systemd, a dependency through sysusers, is installed in the same
# transaction), which piuparts reports as not owned by any package.
# The package's own directories (/var/agentx without snmpd,
# /var/log/hw-r10kevctr, /run/hw-r10kevctr) are not ignored.
set -u
DEB=$1
[ -f "$DEB" ] || { echo "FAIL: no package $DEB"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: piuparts needs root"; exit 1; }
command -v piuparts >/dev/null || { echo "FAIL: piuparts not installed (tools/install-deps.sh --all)"; exit 1; }
MIRROR=${MIRROR:-$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
T0=$(date +%s)
out=$(mktemp /tmp/hwr-piuparts.XXXXXX)
trap 'rm -f "$out"' EXIT
set --
for d in /root/.ssh/ /var/cache/private/ /var/lib/private/ /var/log/private/ \
    /var/lib/systemd/coredump/ /var/lib/systemd/pstore/; do
    set -- "$@" --ignore="$d"
done
SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
if piuparts -d "$SUITE" -m "$MIRROR" --no-eatmydata "$@" "$DEB" >"$out" 2>&1; then
    grep -E "INFO: (PASS|Installation of|Removal of)" "$out" | sed 's/^[0-9ms.]* //'
    echo "ok: piuparts: installed, removed and purged, nothing left ($(($(date +%s) - T0)) s)"
else
    cat "$out"
    echo "FAIL: piuparts"
    exit 1
fi
