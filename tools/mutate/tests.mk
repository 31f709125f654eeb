# tools/mutate/tests.mk: read with a build's Makefile (make -f Makefile
# -f tests.mk mutate-tests), prints the tests tools/mutate.sh may run:
# "CLASS TEST" lines.  Not the doc, NMS or package tests: they read no
# lib/ or agent/ line another test does not.
mutate-tests:
	@for t in $(UNIT_TESTS) tests/fuzz-regress.sh; do echo "unit $$t"; done
	@for t in $(MIB_TESTS); do echo "mib $$t"; done
	@for t in $(INTEGRATION_TESTS) $(LONG_TESTS); do echo "integration $$t"; done
.PHONY: mutate-tests
