#!/bin/sh
# The README's first command, verbatim, on a brand-new machine: a
# throwaway Debian minbase root (debootstrap, from the host's Debian
# mirror) that holds nothing but the base system and the source tree (a
# clone, with the work tree's changes).  Inside it, as root, the command
# must install what it needs, build, and print the named walk; the walk's
# numbers are checked against the sim's own definition (lib/tables/metrics.def's
# rate of cycles, CPU n counting (n mod 8) + 1 times it).
#   tests/fresh/readme-root.sh [--suite bookworm|trixie] [--then SCRIPT]...
#     --suite  the Debian release of the root (default bookworm: Debian 12)
#     --then   a script of tests/fresh/ run inside the root afterwards, in
#              the source tree (e.g. the unit tests, an exporter scrape);
#              given more than once, each in turn, the first failure ends
# Needs root, debootstrap and the host's Debian mirror; never changes the
# host (everything happens under a temp dir, unmounted and removed at
# exit).  Prints "ok: ..." lines with the time each step took.
set -u
SUITE=bookworm THEN=
while [ $# -gt 0 ]; do
    case $1 in
    --suite) SUITE=$2; shift 2 ;;
    --then) THEN="$THEN $2"; shift 2 ;;
    *) echo "usage: $0 [--suite bookworm|trixie] [--then SCRIPT]..." >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (debootstrap, chroot)"; exit 1; }
command -v debootstrap >/dev/null || { echo "FAIL: debootstrap not installed"; exit 1; }
MIRROR=${MIRROR:-$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
T0=$(date +%s)
TMP=$(mktemp -d /tmp/hwr-fresh.XXXXXX)
R=$TMP/root
ok() { echo "ok: [$SUITE] $*"; }
fail() { echo "FAIL: [$SUITE] $*"; exit 1; }
cleanup() {
    rc=$?
    # every process still running in the root (the demo stops its own)
    # (and in the roots made inside it: the suite's own throwaway roots)
    for p in /proc/[0-9]*; do
        case $(readlink "$p/root" 2>/dev/null) in
        "$R" | "$R"/*) kill -KILL "${p#/proc/}" 2>/dev/null ;;
        esac
    done
    # every mount under the root, the deepest first (those of the roots
    # made inside it too, if their own clean-up did not run)
    awk -v r="$R" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts |
        sort -r | while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
    [ "${HWR_KEEP_TMP:-}" ] && { echo "kept $TMP"; exit "$rc"; }
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The command, as the README prints it: the first line of its first code
# block, without the comment.
CMD=$(awk '/^```/ { if (inblock) exit; inblock = 1; next }
           inblock { sub(/[ \t]+#.*$/, ""); print; exit }' "$SRCDIR/README.md")
case $CMD in
*demo.sh*) ;;
*) fail "the README's first command is not the demo: '$CMD'" ;;
esac

t=$(date +%s)
debootstrap --variant=minbase "$SUITE" "$R" "$MIRROR" >"$TMP/debootstrap.log" 2>&1 ||
    { tail -n 20 "$TMP/debootstrap.log"; fail "debootstrap $SUITE"; }
ok "a minbase root in $(($(date +%s) - t)) s"
# The root a mount point, as / is on a machine: unshare -m (two tests of
# the suite) cannot make a root that is not one private ("cannot change
# root filesystem propagation").
mount --bind "$R" "$R"
mount -t proc proc "$R/proc"
mount -t sysfs sysfs "$R/sys"
# What a real machine mounts and the suite needs: /dev/shm (PostgreSQL's
# and Chromium's shared memory), a devpts of the root's own (ptys: ssh,
# script, piuparts), /run a tmpfs (what debootstrap left there copied in).
mkdir -p "$R/dev/shm" "$R/dev/pts" "$TMP/run"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$R/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$R/dev/pts"
[ -L "$R/dev/ptmx" ] || { rm -f "$R/dev/ptmx"; ln -s pts/ptmx "$R/dev/ptmx"; }
cp -a "$R/run/." "$TMP/run/"
mount -t tmpfs -o mode=755,nosuid,nodev run "$R/run"
cp -a "$TMP/run/." "$R/run/"
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
# The source tree as a clone has it: a clone of the commit checked out
# (its history: the suite's tests/dist.sh and version-content.sh read
# it), with the work tree's contents over it (so a test of uncommitted
# work tests that work).
D=$R/root/hw-r10kevctr
branch=$(git -C "$SRCDIR" rev-parse --abbrev-ref HEAD)
[ "$branch" != HEAD ] || branch=main
git clone -q --no-checkout "$SRCDIR" "$D" >"$TMP/clone.log" 2>&1 &&
    git -C "$D" checkout -q -B "$branch" "$(git -C "$SRCDIR" rev-parse HEAD)" >>"$TMP/clone.log" 2>&1 ||
    { cat "$TMP/clone.log"; fail "cloning the source tree"; }
(cd "$SRCDIR" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf -) | tar -xf - -C "$D" ||
    fail "copying the source tree"
(cd "$SRCDIR" && git ls-files -z --deleted) | (cd "$D" && xargs -0 rm -f)
ok "the source tree: $(git -C "$D" ls-files | wc -l) files, $(git -C "$D" status --porcelain | wc -l) changed since $(git -C "$D" rev-parse --short HEAD)"

# The command, verbatim, in a login shell of root's in the root.
t=$(date +%s)
chroot "$R" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb LANG=C.UTF-8 sh -c "cd /root/hw-r10kevctr && $CMD" >"$TMP/first.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
    tail -n 40 "$TMP/first.out"
    fail "'$CMD' exited $rc"
fi
ok "'$CMD' in $(($(date +%s) - t)) s"

# The named walk: the sums are the per-CPU values' sums, the per-CPU
# values the sim's (CPU n counts (n mod 8) + 1 times CPU 0), the rate the
# table's (pollInterval 1: every poll counts one second).
val() { sed -n "s/^HW-R10KEVCTR-MIB::$1 = Counter64: \([0-9]*\).*/\1/p" "$TMP/first.out"; }
grep -q '^# snmpwalk .* hwR10kEvCtrMIB$' "$TMP/first.out" || fail "no walk printed"
named=$(grep -c '^HW-R10KEVCTR-MIB::hwR10kEvCtr' "$TMP/first.out")
[ "$named" -ge 100 ] || { cat "$TMP/first.out"; fail "only $named named objects in the walk"; }
grep -q '^HW-R10KEVCTR-MIB::hwR10kEvCtrCpurev.0 = STRING: ' "$TMP/first.out" || fail "no named hwR10kEvCtrCpurev.0"
sum=$(val hwR10kEvCtrCycles.0) c0=$(val hwR10kEvCtrCpuCycles.0) c1=$(val hwR10kEvCtrCpuCycles.1)
rate=$(val hwR10kEvCtrRateCycles.0)
simrate=$(sed -n 's/^M(3, "cycles", .*, \([0-9]*\))$/\1/p' "$SRCDIR/lib/tables/metrics.def")
[ -n "$sum" ] && [ -n "$c0" ] && [ -n "$c1" ] && [ -n "$rate" ] && [ -n "$simrate" ] ||
    { cat "$TMP/first.out"; fail "the walk lacks the cycles counters or their rate"; }
[ "$c0" -gt 0 ] && [ "$c1" -eq $((2 * c0)) ] && [ "$sum" -eq $((c0 + c1)) ] ||
    fail "cycles: sum $sum, CPU 0 $c0, CPU 1 $c1 (expected CPU 1 = 2 x CPU 0, sum = both)"
[ "$rate" -eq $((3 * simrate)) ] || fail "cycles rate $rate, the sim's 3 x $simrate"
ok "the named walk: $named objects, cycles $c0 + $c1 = $sum, rate $rate/s as the sim defines"

for then in $THEN; do
    t=$(date +%s)
    cp "$SRCDIR/tests/fresh/$then" "$R/root/then.sh" || fail "no tests/fresh/$then"
    chroot "$R" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        TERM=dumb LANG=C.UTF-8 sh -c "cd /root/hw-r10kevctr && sh /root/then.sh" >"$TMP/then.out" 2>&1
    rc=$?
    grep '^ok:' "$TMP/then.out" | sed "s/^ok: /ok: [$SUITE] /"
    [ "$rc" -eq 0 ] || { tail -n 40 "$TMP/then.out"; fail "$then exited $rc"; }
    ok "$then in $(($(date +%s) - t)) s"
done
ok "all in $(($(date +%s) - T0)) s"
