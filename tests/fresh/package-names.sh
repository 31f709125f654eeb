#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then: every
# package tools/install-deps.sh names, default set and --all, exists in
# this release's archive (apt-cache show), so --all cannot stop at a name
# the release does not have (Debian 13 has no libclang-rt-14-dev).
set -eu
. /etc/os-release
pkgs=$(sh tools/install-deps.sh --all --list)
missing=
for p in $pkgs; do
    apt-cache show "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] || { echo "not in Debian $VERSION_ID ($VERSION_CODENAME):$missing"; exit 1; }
echo "ok: the $(echo "$pkgs" | wc -l) packages of install-deps.sh --all exist in Debian $VERSION_ID"
