#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then, after the
# README's first command (a documented command, not in CI: minutes):
#   tests/fresh/readme-root.sh --suite trixie --then deb-build.sh
# installs debian/control's Build-Depends (apt-get build-dep) and
# lintian, builds the package with tools/deb.sh (dpkg-buildpackage, then
# lintian: no error, no warning), installs the .deb with apt, and checks
# that the agent runs and the examples are there.
set -eu
export DEBIAN_FRONTEND=noninteractive
t=$(date +%s)
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
{ apt-get install -y -q --no-install-recommends dpkg-dev lintian &&
  apt-get build-dep -y -q --no-install-recommends ./; } >/tmp/deb-deps.log 2>&1 ||
    { tail -n 30 /tmp/deb-deps.log; exit 1; }
. /etc/os-release
echo "ok: the build dependencies on Debian $VERSION_ID in $(($(date +%s) - t)) s (debhelper $(dpkg-query -W -f='${Version}' debhelper), lintian $(dpkg-query -W -f='${Version}' lintian))"
t=$(date +%s)
sh tools/deb.sh /tmp/deb-out >/tmp/deb.out 2>&1 || { cat /tmp/deb.out; exit 1; }
echo "ok: tools/deb.sh in $(($(date +%s) - t)) s: $(sed -n 's/^deb.sh: //p' /tmp/deb.out | grep -v '^building' | tr '\n' ' ')"
t=$(date +%s)
apt-get install -y -q --no-install-recommends /tmp/deb-out/hw-r10kevctr_*.deb >/tmp/deb-install.log 2>&1 ||
    { tail -n 30 /tmp/deb-install.log; exit 1; }
rm -f /usr/sbin/policy-rc.d
dpkg-query -W -f='${Status}' hw-r10kevctr | grep -q 'ok installed' || { echo "not installed"; exit 1; }
/usr/sbin/hw-r10kevctr-agent --version || { echo "the installed agent does not run"; exit 1; }
# the unit where the release keeps units, and enabled by the maintainer scripts
unit=$(dpkg -L hw-r10kevctr | grep '/systemd/system/hw-r10kevctr.service$')
grep -q 'deb-systemd-helper' /var/lib/dpkg/info/hw-r10kevctr.postinst ||
    { echo "the postinst does not enable $unit"; exit 1; }
for f in prometheus/snmp.yml prometheus/snmp-0.23.yml zabbix/hw-r10kevctr.zabbix.yaml; do
    [ -f "/usr/share/doc/hw-r10kevctr/examples/$f" ] || { echo "examples/$f not installed"; exit 1; }
done
debs=; for f in /tmp/deb-out/*.deb; do debs="$debs${f##*/} "; done
echo "ok: ${debs}installed with apt in $(($(date +%s) - t)) s; the agent runs, $unit enabled by the postinst, both exporter files and the template in examples/"
