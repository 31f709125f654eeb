#!/bin/sh
# Every test, the way CI runs them:
#  1. build with AddressSanitizer + UBSan and -Werror, run 'make check-ci':
#     make check's tests (unit tests, MIB checks, integration tests with a
#     real snmpd, the NMS engines), the engines' slow matrices in a make
#     of their own beside the rest;
#  2. build without sanitizers (and without libpfm4, so both builds are
#     covered) and run 'make check-valgrind' (unit tests
#     and the daemon of the integration tests under valgrind);
#  3. the Debian package: built, lintian-clean, and installed, run,
#     upgraded and purged in a throwaway root (debootstrap);
#  4. 'make distcheck' (the tarball builds and passes its tests), and
#     beside it the README's first command on brand-new Debian 12 and 13
#     machines (tests/fresh/readme-root.sh: throwaway minbase roots).
# Between 1 and 2, 'make fuzz' runs each libFuzzer target (clang, ASan and
# UBSan) for FUZZ_SECONDS (30); after 2, tools/mutate/ci.sh (mutation
# testing: the known misses killed, a small sample run).
# Prints the logs of failed tests and ends with "N passed, N failed".
set -u
piuparts_pid=
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
[ -x configure ] || ./autogen.sh >/dev/null 2>&1 || { echo "autogen failed"; exit 1; }
# Every test needs the full set (tools/install-deps.sh --all); the default
# set only builds and runs the demo.  Say up front what is missing.
missing=$(tools/install-deps.sh --all --missing | tr '\n' ' ')
[ -z "$missing" ] || echo "check-all: not installed: ${missing}(tests that need them fail or skip); tools/install-deps.sh --all installs them"
passed=0 failed=0 skipped=0

count() { # count BUILDDIR: add up the .trs results
    for trs in $(find "$1" -name '*.trs'); do
        case $(sed -n 's/^:test-result: //p' "$trs") in
        PASS) passed=$((passed + 1)) ;;
        SKIP) skipped=$((skipped + 1)) ;;
        *) failed=$((failed + 1)); echo "==== FAILED: ${trs%.trs}.log"; cat "${trs%.trs}.log" ;;
        esac
    done
}
stage() { # stage NAME BUILDDIR MAKE-TARGET CONFIGURE-ARGS...
    name=$1 dir=$2 target=$3; shift 3
    echo "==== $name"
    rm -rf "$dir"
    if ! tools/build.sh "$dir" "$@"; then
        echo "==== $name: build failed"; failed=$((failed + 1)); return
    fi
    (cd "$dir" && make -s -j2 "$target" >"$dir/check.out" 2>&1) ||
        { tail -n 30 "$dir/check.out"; }
    count "$dir"
    grep -E '^(# (TOTAL|PASS|FAIL|SKIP|ERROR))' "$dir/check.out" | tr '\n' ' '; echo
}
# The suite must never change the host's net-snmp or PCP state (every
# private snmpd, snmptrapd, pmcd and agent keeps its own directories).
HOST_DIRS="/var/lib/snmp /etc/snmp /var/lib/pcp/config/pmda /etc/pcp"
host_state() {
    for d in $HOST_DIRS; do
        [ -d "$d" ] && find "$d" -type f -exec md5sum {} + 2>/dev/null | sort
    done
}
host_before=$(host_state)
stage "ASan+UBSan: make check-ci (make check, the slow engines beside the rest)" "$top/build-asan" check-ci --enable-sanitizers
# libFuzzer (clang, ASan+UBSan): every target for FUZZ_SECONDS, in the
# ASan build's tree.  One result per target.
fuzz_seconds=${FUZZ_SECONDS:-30}
echo "==== libFuzzer (clang -fsanitize=fuzzer,address,undefined): ${fuzz_seconds} s per target"
(cd "$top/build-asan" && make -s fuzz FUZZ_SECONDS="$fuzz_seconds") >"$top/build-asan/fuzz.out" 2>&1
frc=$?
grep -E '^(fuzz_|  executions)' "$top/build-asan/fuzz.out"
fpass=$(grep -c '^  executions:' "$top/build-asan/fuzz.out")
ffail=$(grep -c '^fuzz_.*: FAILED' "$top/build-asan/fuzz.out")
if [ "$frc" -ne 0 ] && [ "$ffail" -eq 0 ]; then
    ffail=1; tail -n 30 "$top/build-asan/fuzz.out"
fi
[ "$ffail" -eq 0 ] || sed -n '/FAILED/,$p' "$top/build-asan/fuzz.out" | head -n 80
passed=$((passed + fpass)) failed=$((failed + ffail))
stage "valgrind, without libpfm4: make check-valgrind" "$top/build-valgrind" \
    check-valgrind --without-libpfm
# Mutation testing (tools/mutate.sh): the known misses of tests/mutants/
# each killed through --patch, and a 12-mutant fixed-seed sample over lib/
# run end to end, its survivors printed (the full sample is a documented
# command: doc/testing.md).  One result; a few minutes.
echo "==== tools/mutate/ci.sh: tests/mutants/ killed, a 12-mutant sample over lib/"
rm -rf "$top/build-mutate"; mkdir -p "$top/build-mutate"
if nice -n 10 tools/mutate/ci.sh "$top/build-mutate" >"$top/mutate.out" 2>&1; then
    passed=$((passed + 1)); grep -E '^mutate: [^ ]*\.diff: killed|^all ' "$top/mutate.out"
else
    failed=$((failed + 1)); echo "==== FAILED: tools/mutate/ci.sh"; tail -n 60 "$top/mutate.out"
fi
sed -n '/^==== survivors/,$p' "$top/mutate.out"
# The benchmark in its smoke mode: it runs end to end (numbers are not
# judged here; the README's come from a full run).
echo "==== bench/compare.sh --smoke"
if HWR_BENCH_BUILDDIR="$top/build-bench-smoke" bench/compare.sh --smoke \
    --json "$top/build-bench-smoke.json" >"$top/bench-smoke.out" 2>&1; then
    passed=$((passed + 1)); echo "bench smoke: ok"
else
    failed=$((failed + 1)); echo "==== FAILED: bench smoke"; tail -n 30 "$top/bench-smoke.out"
fi
# The Debian package: built from the tree and checked by lintian
# (tools/deb.sh), then installed, run as production runs it, upgraded and
# purged in a throwaway root of the host's release, Debian 12 or 13
# (tests/deb/install-root.sh), and installed, removed and purged by
# piuparts in one of its own (tests/deb/piuparts.sh).
echo "==== Debian package: tools/deb.sh, tests/deb/install-root.sh, tests/deb/piuparts.sh"
debdir="$top/build-deb"
if tools/deb.sh "$debdir" >"$top/deb.out" 2>&1; then
    passed=$((passed + 1)); grep '^deb.sh:' "$top/deb.out"
    if sh tests/deb/install-root.sh "$debdir"/hw-r10kevctr_*_*.deb >"$top/deb-root.out" 2>&1; then
        passed=$((passed + 1)); grep '^ok:' "$top/deb-root.out"
    else
        failed=$((failed + 1)); echo "==== FAILED: tests/deb/install-root.sh"
        grep -v '^Connection from' "$top/deb-root.out" | tail -n 60
    fi
    # piuparts (two minutes of debootstrap and apt, mostly waiting on
    # the mirror and the disk) runs beside distcheck's compiles
    sh tests/deb/piuparts.sh "$debdir"/hw-r10kevctr_*_*.deb >"$top/piuparts.out" 2>&1 &
    piuparts_pid=$!
else
    failed=$((failed + 1)); echo "==== FAILED: tools/deb.sh"; tail -n 60 "$top/deb.out"
fi
# A brand-new machine, Debian 12 and 13: the README's first command
# verbatim in a throwaway minbase root holding only the source tree
# (tests/fresh/readme-root.sh); in both, every package install-deps.sh
# --all names exists; on 13 the unit tests, snmp_exporter 0.28 scraping
# the agent with snmp-0.23.yml and the Zabbix template in Zabbix 7.0
# after it.  Mostly debootstrap and apt waiting on the mirror: beside
# distcheck too.
fresh_pid=
( sh tests/fresh/readme-root.sh --suite bookworm --then package-names.sh >"$top/fresh-bookworm.out" 2>&1
  echo $? >"$top/fresh-bookworm.rc"
  sh tests/fresh/readme-root.sh --suite trixie --then package-names.sh --then unit-tests.sh \
      --then exporter-scrape.sh --then zabbix7.sh >"$top/fresh-trixie.out" 2>&1
  echo $? >"$top/fresh-trixie.rc" ) &
fresh_pid=$!
echo "==== make distcheck"
dc="$top/build-dist"
rm -rf "$dc"
if tools/build.sh "$dc" && (cd "$dc" && make -s -j2 distcheck SOAK_SECONDS=5 HWR_MASTER_DOWN=5 \
    >"$dc/distcheck.out" 2>&1); then
    passed=$((passed + 1)); echo "distcheck: ok"
else
    failed=$((failed + 1)); echo "==== FAILED: make distcheck"; tail -n 60 "$dc/distcheck.out"
fi
if [ -n "${piuparts_pid:-}" ]; then
    echo "==== tests/deb/piuparts.sh"
    if wait "$piuparts_pid"; then
        passed=$((passed + 1)); grep '^ok:\|INFO' "$top/piuparts.out"
    else
        failed=$((failed + 1)); echo "==== FAILED: tests/deb/piuparts.sh"
        grep -E 'ERROR|FAIL|^  /' "$top/piuparts.out" | tail -n 40
    fi
fi
if [ -n "$fresh_pid" ]; then
    wait "$fresh_pid"
    for suite in bookworm trixie; do
        echo "==== tests/fresh/readme-root.sh --suite $suite"
        if [ "$(cat "$top/fresh-$suite.rc" 2>/dev/null)" = 0 ]; then
            passed=$((passed + 1)); grep '^ok:' "$top/fresh-$suite.out"
        else
            failed=$((failed + 1)); echo "==== FAILED: tests/fresh/readme-root.sh --suite $suite"
            tail -n 60 "$top/fresh-$suite.out"
        fi
    done
fi
if [ "$(host_state)" = "$host_before" ]; then
    passed=$((passed + 1)); echo "host state ($HOST_DIRS): unchanged"
else
    failed=$((failed + 1)); echo "==== FAILED: the suite changed the host's state ($HOST_DIRS)"
    echo "$host_before" >"$top/host-before.txt"; host_state >"$top/host-after.txt"
    diff "$top/host-before.txt" "$top/host-after.txt"
fi
if [ -n "${CI:-}" ] && [ "$skipped" -gt 0 ]; then
    echo "CI: $skipped test(s) skipped; CI must run every test"; failed=$((failed + skipped))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
