#!/bin/sh
# Installs what hw-r10kevctr needs to build, run and test on Debian 12.
# erlang-snmp provides the IETF base MIB modules as text (see DEVELOPERS.md);
# libpfm4-dev is optional for users (PMU event names), CI builds with it;
# clang and libclang-rt-14-dev build the libFuzzer targets (make fuzz);
# mrtg, collectd-core and monitoring-plugins-standard are the NMS pollers
# the tests drive; man-db and systemd check the man pages and the unit;
# pcp and libpcp build the pcp backend and run the private pmcd of its
# tests (pcp's postinst calls systemctl, which fails where PID 1 is not
# systemd: SYSTEMD_OFFLINE=1 makes it skip that); python3 runs the AgentX
# test master and the benchmark's pass_persist reference, taskset
# (util-linux) pins the benchmark.
set -eu
pkgs="build-essential autoconf automake libtool pkg-config
      libsnmp-dev snmpd snmp snmptrapd libsmi2-dev smitools libcmocka-dev
      libpfm4-dev erlang-snmp valgrind clang libclang-rt-14-dev
      mrtg collectd-core monitoring-plugins-standard man-db groff-base systemd
      pcp libpcp3-dev libpcp-import1-dev python3 util-linux"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { echo "install-deps: all packages present"; exit 0; }
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive SYSTEMD_OFFLINE=1 \
    apt-get install -y -q --no-install-recommends $missing
# Debian starts the system snmpd and snmptrapd on install; this project
# never uses them (tests run private ones), so leave them as they are.
