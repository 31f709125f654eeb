#!/bin/sh
# bench/gap-absent.sh [RULES...]
#
# Issue 47's before and after: the rule values absent around a CPU's gap.
# Runs tests/integration/prometheus.sh once per rules file with
# PROMETHEUS_RULES=FILE (the counts reported, absent values not judged)
# and prints, for its gap host (CPU 3 of group node1 away for three sets
# twice, CPU 1 of node0 reset between), tests/nms/prometheus-truth.py's
# counts per job and scope: the values present and absent where the
# truth is defined, and the other scopes' values in the windows holding
# each CPU's discontinuity.  Without RULES: "before", the shipped rules
# with each CPU's and group's guard replaced by the host-wide one of the
# rules before issue 47 (8ed5c22^: any change of the module's
# hwR10kEvCtrDiscontinuityTime drops every rate of the host; joined on
# the instance alone, as that single module walked the CPUs too, since
# 8ed5c22^'s own file has no group rules and guards nothing in the
# per-CPU module, which does not walk that TimeStamp), then "after", the
# shipped rules.
#
# Root is not needed.  The packages of `tools/install-deps.sh --all`, and
# a build tree: HWR_BUILDDIR (default build-bench; built here if
# missing).  About 5 minutes per rules file: not a test, never run by CI.
# Figures: bench/README.md.
set -u
HWR_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
: "${HWR_BUILDDIR:=$HWR_SRCDIR/build-bench}"
export HWR_SRCDIR HWR_BUILDDIR
[ -x "$HWR_BUILDDIR/agent/hw-r10kevctr-agent" ] ||
    sh "$HWR_SRCDIR/tools/build.sh" "$HWR_BUILDDIR" >/dev/null || exit 1
shipped=$HWR_SRCDIR/conf/prometheus/hw-r10kevctr.rules.yml
if [ $# = 0 ]; then
    before=$HWR_BUILDDIR/hw-r10kevctr.rules.before.yml
    sed -e 's/hw_r10kevctr_\(cpu\|group\)_discontinuity_timeticks/hw_r10kevctr_discontinuity_timeticks/g' \
        -e 's/unless on(job, instance, \(cpu\|group\))$/unless on(instance)/' \
        "$shipped" >"$before"
    set -- "$before" "$shipped"
fi
for rules in "$@"; do
    # (Prometheus reads a relative rule file from its config's directory)
    case $rules in /*) ;; *) rules=$(pwd)/$rules ;; esac
    log=$HWR_BUILDDIR/gap-absent.log
    PROMETHEUS_RULES=$rules sh "$HWR_SRCDIR/tests/integration/prometheus.sh" >"$log" 2>&1 ||
        { tail -30 "$log"; echo "gap-absent.sh: the run with $rules failed (log: $log)"; exit 1; }
    echo "== $rules"
    grep '^\(absent\|local\): .*(with discontinuities)\|values absent where' "$log" |
        sed 's/, host 127.0.0.1:[0-9]* (with discontinuities)//'
done
