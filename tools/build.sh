#!/bin/sh
# tools/build.sh DIR [CONFIGURE-ARGS...]: configure and build out of tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1; shift
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1)
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
    "$top/configure" -q --enable-werror "$@"
fi
make -s -j"$(nproc)" >/dev/null
