#!/bin/sh
# LOG_COMPILER of 'make check-valgrind': runs one unit test under valgrind.
exec $HWR_VALGRIND "$@"
