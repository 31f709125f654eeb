#!/bin/sh
# Every example line of the shipped config (conf/hw-r10kevctr.conf: a
# commented directive, "#TOKEN ARGS"), uncommented alone into that file,
# passes the agent's config check (-t) on this host, unless a comment
# above it, in its section, says it needs a hardware PMU.  Every perfEvent
# example then either counts its metric in --dump or the log says it
# cannot count; the ones not marked as needing a PMU count here.
. "$(dirname "$0")/lib.sh"

CONF="$HWR_SRCDIR/conf/hw-r10kevctr.conf"
[ -r "$CONF" ] || fail "no $CONF"

# The example lines, each as "hw|any LINE": hw under a comment saying
# "need a hardware PMU", up to the next section ("# ---").
awk '/^# ---/ { hw = 0 }
     /^# .*need a hardware PMU/ { hw = 1 }
     /^#[A-Za-z]/ { print (hw ? "hw " : "any ") substr($0, 2) }' \
    "$CONF" >"$TMP/examples"
[ "$(wc -l <"$TMP/examples")" -ge 20 ] || fail "only $(wc -l <"$TMP/examples") example lines found"
grep -q '^hw perfEvent' "$TMP/examples" || fail "no example marked as needing a PMU"

# with LINE...: the shipped config, pollInterval 1, and the lines
with() {
    sed 's/^pollInterval .*/pollInterval 1/' "$CONF"
    printf '%s\n' "$@"
}

# A perfEvent example: counted by --dump, or said so in the log.
check_perf_event() { # check_perf_event KIND METRIC SPEC
    with "perfEvent $2 $3" >"$TMP/one.conf"
    "$AGENT" --dump -C -c "$TMP/one.conf" >"$TMP/dump.out" 2>"$TMP/dump.err" </dev/null
    if [ "$3" = off ]; then
        grep -q "^$2 " "$TMP/dump.out" && fail "'$2 off' still counts"
        return 0
    fi
    grep -q "^$2 sum [0-9]" "$TMP/dump.out" && return 0
    [ "$1" = hw ] || { cat "$TMP/dump.err"; fail "'perfEvent $2 $3' does not count on this host"; }
    grep -qF "perf: $2 ($3) cannot count" "$TMP/dump.err" ||
        { cat "$TMP/dump.err"; fail "'perfEvent $2 $3' neither counts nor says why"; }
}

n=0 hw=0
while read -r kind line; do
    n=$((n + 1))
    spec=$(echo "$line" | awk '$1 == "perfEvent" { print $3 }')
    case $spec in msr:*)
        # x86 only, as its comment says
        [ -d /sys/bus/event_source/devices/msr ] || { echo "skip (no msr PMU): $line"; continue; } ;;
    esac
    with "$line" >"$TMP/one.conf"
    if ! "$AGENT" -t -C -c "$TMP/one.conf" >"$TMP/t.out" 2>&1 </dev/null; then
        [ "$kind" = hw ] || { cat "$TMP/t.out"; fail "example '$line' is refused by -t"; }
        grep -q "line $(wc -l <"$TMP/one.conf"): Error: perfEvent: unknown event type or PMU" "$TMP/t.out" ||
            { cat "$TMP/t.out"; fail "example '$line' is refused for another reason"; }
        hw=$((hw + 1))
        continue
    fi
    [ -s "$TMP/t.out" ] && { cat "$TMP/t.out"; fail "-t printed something for '$line'"; }
    [ -n "$spec" ] && check_perf_event "$kind" $(echo "$line" | awk '{ print $2 }') "$spec"
done <"$TMP/examples"
ok "$n example lines of the shipped config: each accepted by -t, or needs a PMU ($hw refused here); perfEvent examples count or say why"
