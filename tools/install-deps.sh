#!/bin/sh
# tools/install-deps.sh [--all] [--deb] [--list | --missing]: installs the
# Debian 12 or 13 packages hw-r10kevctr needs (the release from
# /etc/os-release).
#   (default)  what building it and running tools/demo.sh needs: the
#              compiler and autotools; net-snmp (libsnmp-dev to build,
#              snmpd and snmp for the demo's master and walk); libsmi2-dev,
#              smitools and libcmocka-dev, which configure requires; and
#              erlang-snmp for the IETF base MIB modules as text, which the
#              demo's named walk imports (see DEVELOPERS.md).  libpfm4-dev
#              and the PCP libraries are optional (configure builds without
#              them).  Minutes less than --all, and no web server.
#   --all      also everything the tests need (tools/check-all.sh, CI):
#              see below.
#   --deb      instead, what tools/deb.sh needs to build the Debian package
#              and check it, and nothing else (no demo, no test engines):
#              debian/control's Build-Depends (debhelper provides
#              debhelper-compat and dh-sequence-installsysusers, and pulls
#              in dh-autoreconf with autoconf, automake and libtool: the
#              package build runs autoreconf), build-essential (which
#              dpkg-buildpackage assumes), dpkg-dev (dpkg-buildpackage) and
#              lintian; so that `tools/install-deps.sh --deb && tools/deb.sh`
#              works on a fresh Debian 12 or 13.  With --all: both sets.
#   --list     print the packages (one a line) and exit; nothing installed.
#   --missing  print those of them not installed, and exit.
# What --all adds:
# libpfm4-dev (PMU event names; CI builds with it); valgrind; clang and
# its runtime (libclang-rt-N-dev, N the release's clang: 14 on Debian 12,
# 19 on 13) build the libFuzzer targets (make fuzz);
# snmptrapd receives the tests' notifications;
# mrtg, collectd-core and monitoring-plugins-standard are the NMS pollers
# the tests drive (rrdtool: tools/graph.sh draws doc/nms.md's picture; graphviz: tests/dataflow-svg.sh renders the README's);
# man-db and systemd check the man pages and the unit;
# pcp and libpcp build the pcp backend and run the private pmcd of its
# tests (pcp's postinst calls systemctl, which fails where PID 1 is not
# systemd: SYSTEMD_OFFLINE=1 makes it skip that); python3 runs the AgentX
# test master and the benchmark's pass_persist reference, taskset
# (util-linux) pins the benchmark; git lists the tree's files for the
# brand-new-machine roots and reads its history for
# tests/version-content.sh and tests/dist.sh (a clone has it already);
# ip (iproute2) with util-linux's unshare runs two tests in network
# namespaces of their own (a minbase root or a container has no
# iproute2: without it they skip).  The NMS engines the tests drive end
# to end: prometheus and prometheus-snmp-exporter (its generator and
# promtool), Zabbix 6.0's server and frontend on a private PostgreSQL
# with php-cli serving the API, snmptt (with libnet-ip-perl, which its
# package needs but does not declare); curl and jq query their APIs;
# headless chromium (driven by python3-selenium) renders the Zabbix
# dashboard.  gcov (with gcc) and gcovr: tools/mutate.sh's per-test
# coverage and doc/testing.md's coverage figures.
# The Debian package: debhelper, dpkg-dev and pkgconf build it (its
# debian/control lists the rest above), lintian checks it, debootstrap
# makes the throwaway root its install test runs in, piuparts installs,
# removes and purges it in a fresh root of its own.
# tests/deps.sh checks that the default set has what the demo uses, and
# that --deb has every Build-Depends of debian/control.
set -eu
# The names that differ between releases (every other name is both's:
# tests/fresh/package-names.sh checks the lists in a root of each).
codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"')
case $codename in
bookworm) clang_rt=libclang-rt-14-dev ;;
trixie) clang_rt=libclang-rt-19-dev ;;
*) clang_rt=libclang-rt-19-dev
   echo "install-deps: '${codename:-unknown}' is neither Debian 12 (bookworm) nor 13 (trixie): using Debian 13's names" >&2 ;;
esac
base="build-essential autoconf automake libtool pkg-config
      libsnmp-dev snmpd snmp libsmi2-dev smitools libcmocka-dev erlang-snmp"
tests="snmptrapd libpfm4-dev valgrind clang $clang_rt
      mrtg collectd-core monitoring-plugins-standard rrdtool graphviz man-db groff-base systemd
      pcp libpcp3-dev libpcp-import1-dev python3 util-linux iproute2 git
      prometheus prometheus-snmp-exporter snmptt libnet-ip-perl curl jq
      postgresql zabbix-server-pgsql zabbix-frontend-php php-cli php-pgsql
      php-bcmath php-mbstring php-gd php-xml locales chromium chromium-driver python3-selenium
      debhelper dpkg-dev pkgconf lintian debootstrap piuparts autopkgtest gcovr"
deb="build-essential dpkg-dev debhelper lintian
      libcmocka-dev libsmi2-dev libpcp-import1-dev libpcp3-dev libpfm4-dev
      libsnmp-dev pkgconf smitools"
all= debset=
mode=install
for arg in "$@"; do
    case $arg in
    --all) all=yes ;;
    --deb) debset=yes ;;
    --list) mode=list ;;
    --missing) mode=missing ;;
    *) echo "usage: $0 [--all] [--deb] [--list | --missing]" >&2; exit 2 ;;
    esac
done
if [ -n "$all" ]; then
    pkgs="$base $tests" set=all
    [ -z "$debset" ] || pkgs="$pkgs $deb" set="all and Debian package"
elif [ -n "$debset" ]; then
    pkgs=$deb set="Debian package"
else
    pkgs=$base set="build and demo"
fi
# once each, in order
pkgs=$(for p in $pkgs; do echo "$p"; done | awk '!seen[$0]++')
if [ "$mode" = list ]; then
    for p in $pkgs; do echo "$p"; done
    exit 0
fi
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ "$mode" = missing ]; then # one a line; nothing installed
    for p in $missing; do echo "$p"; done
    exit 0
fi
[ -z "$missing" ] && { echo "install-deps: all packages present ($set)"; exit 0; }
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# Packages start their daemons on install (snmpd, prometheus, postgresql,
# zabbix-server...) where no policy says otherwise.  The tests run private
# ones only, so none is started: policy-rc.d's "101" (action forbidden)
# for this install, unless the machine has its own policy.
policy=/usr/sbin/policy-rc.d
own_policy=
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# tools/install-deps.sh: no daemon starts during its install\nexit 101\n' |
        $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
    own_policy=yes
fi
rc=0
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive SYSTEMD_OFFLINE=1 \
    apt-get install -y -q --no-install-recommends $missing || rc=$?
[ -z "$own_policy" ] || $SUDO rm -f "$policy"
exit "$rc"
