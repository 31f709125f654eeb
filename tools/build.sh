#!/bin/sh
# tools/build.sh DIR [CONFIGURE-ARGS...]: configure and build out of tree.
# tools/build.sh --reuse DIR: for the tools that run a build (demo.sh,
# graph.sh): a source tree configured in place (./configure && make) is
# built there, since configure refuses to configure another build of it;
# else DIR as above.  Prints the directory built.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
reuse=
[ "${1:-}" = --reuse ] && { reuse=yes; shift; }
dir=$1; shift
if [ -n "$reuse" ] && [ -f "$top/config.status" ]; then
    make -s -C "$top" -j"$(nproc)" >/dev/null
    echo "$top"
    exit 0
fi
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1)
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
    "$top/configure" -q --enable-werror "$@"
fi
make -s -j"$(nproc)" >/dev/null
[ -z "$reuse" ] || pwd
