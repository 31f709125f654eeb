#!/bin/sh
# Run inside a fresh root by tests/fresh/readme-root.sh --then, after the
# README's first command built the tree in build-demo/: every unit test
# (cmocka), the MIB's libsmi test among them, with the packages that
# command installed and nothing more.
set -eu
cd build-demo
make -s check-unit >unit.out 2>&1 || { cat unit.out; tail -n 60 tests/unit/*.log tests/unit/*/*.log; exit 1; }
make -s check TESTS=tests/unit/meta/test_mib_smi >>unit.out 2>&1 || { cat unit.out; exit 1; }
n=$(ls tests/unit/*.trs tests/unit/*/*.trs | wc -l)
bad=$(grep -L '^:test-result: PASS' tests/unit/*.trs tests/unit/*/*.trs | wc -l)
[ "$bad" -eq 0 ] || { grep -l -v '^:test-result: PASS' tests/unit/*.trs tests/unit/*/*.trs; exit 1; }
echo "ok: $n unit tests passed"
