#!/bin/sh
# The command line: help, version, and usage errors exit 1; a bad config
# file stops the daemon with FILE: line N before it serves anything.
. "$(dirname "$0")/lib.sh"

"$AGENT" -h | grep -q "usage: .*hw-r10kevctr-agent" || fail "-h"
"$AGENT" -v | grep -q "^hw-r10kevctr " || fail "-v"
ok "help and version"

for args in "-z" "-c" "-x" "-L" "-Lz" "extra-arg"; do
    # shellcheck disable=SC2086
    "$AGENT" $args >"$TMP/out" 2>&1
    rc=$?
    [ "$rc" -eq 1 ] || fail "'$args' exit status $rc, not 1"
    grep -q "usage:" "$TMP/out" || grep -q "Unknown" "$TMP/out" ||
        { cat "$TMP/out"; fail "'$args': no usage message"; }
done
ok "bad options: usage and exit 1"

printf 'backend sim\npollInterval 0\nsimRate hw.r10kevctr.nosuch 5\nbogusToken 1\n' >"$TMP/bad.conf"
if "$AGENT" -f -C -c "$TMP/bad.conf" -x "unix:$TMP/none.sock" -Le >"$TMP/out" 2>&1; then
    fail "bad config accepted"
fi
grep -q "bad.conf: line 2: Error: pollInterval" "$TMP/out" || { cat "$TMP/out"; fail "line 2"; }
grep -q "bad.conf: line 3: Error: simRate: 'hw.r10kevctr.nosuch'" "$TMP/out" || { cat "$TMP/out"; fail "line 3"; }
grep -q "bad.conf: line 4: .*bogusToken" "$TMP/out" || { cat "$TMP/out"; fail "line 4"; }
grep -q "3 config problem(s); not starting" "$TMP/out" || { cat "$TMP/out"; fail "summary"; }
ok "bad config: every line named, exit 1"

# A config file named with -c that cannot be read is an error, never an
# empty config (which would serve invented sim data).
for f in "$TMP/missing.conf" "$TMP"; do
    if "$AGENT" -f -C -c "$f" -x "unix:$TMP/none.sock" -Le >"$TMP/out" 2>&1; then
        fail "-c $f accepted"
    fi
    grep -q "^$f: \(cannot read the config file: No such file\|not a regular file\)" "$TMP/out" ||
        { cat "$TMP/out"; fail "-c $f: no message naming the file"; }
    grep -q "not starting" "$TMP/out" || { cat "$TMP/out"; fail "-c $f: started"; }
done
ok "a missing or directory -c file: named, exit 1"

# --dump: two reads one interval apart, printed; no master needed.
# A production config dumps as it runs: agentxPingInterval included.
printf 'backend sim\nsimCpus 2\npollInterval 1\nagentXSocket unix:%s/none.sock\nagentxPingInterval 5\n' "$TMP" >"$TMP/dump.conf"
"$AGENT" --dump -C -c "$TMP/dump.conf" >"$TMP/dump.out" 2>"$TMP/dump.err" ||
    { cat "$TMP/dump.err"; fail "--dump on sim exited $?"; }
head -n 5 "$TMP/dump.out" | tr '\n' ' ' | grep -q "^backend sim interval 1 state 30 cpurev 3.4 cpus 2 $" ||
    fail "--dump header: $(head -n 5 "$TMP/dump.out")"
grep -qx "hw.r10kevctr.tlb 1 120000 120000" "$TMP/dump.out" || fail "--dump tlb on CPU 1"
[ "$(wc -l <"$TMP/dump.out")" = 95 ] || fail "--dump printed $(wc -l <"$TMP/dump.out") lines"
[ -s "$TMP/dump.err" ] && { cat "$TMP/dump.err"; fail "--dump wrote to stderr"; }
printf 'backend sim\npollInterval 1\nsimRate hw.r10kevctr.cycles off\n' >"$TMP/none.conf"
for k in $(sed -n 's/^M([0-9]*, "\([a-z.]*\)", COUNTER.*/\1/p' "$HWR_SRCDIR/lib/tables/metrics.def"); do
    echo "simRate hw.r10kevctr.$k off"
done >>"$TMP/none.conf"
if "$AGENT" --dump -C -c "$TMP/none.conf" >"$TMP/dump.out" 2>"$TMP/dump.err"; then
    fail "--dump with nothing counted exited 0"
fi
grep -q "dump: backend sim counts nothing" "$TMP/dump.err" || fail "--dump: no reason given"
ok "--dump prints state, cpurev and every counted value and rate; exit 1 when nothing counts"

# A NUL byte cut a config line short without a word; now it is an error.
printf 'backend sim\nsimCpus 2\000 and junk\n' >"$TMP/nul.conf"
if "$AGENT" -f -C -c "$TMP/nul.conf" -x "unix:$TMP/none.sock" -Le >"$TMP/out" 2>&1; then
    fail "a config line with a NUL byte was accepted"
fi
grep -q "nul.conf: line 2: Error: a NUL byte in the line" "$TMP/out" || { cat "$TMP/out"; fail "NUL line not named"; }
ok "a NUL byte in a config line: named with FILE: line N, exit 1"

# A value that cannot be used (a -Lf file in a missing directory, an
# unknown -u user): its message alone, no usage text burying it; a
# malformed command line: the usage.
"$AGENT" -f -C -c "$TMP/dump.conf" -Lf "$TMP/no/such/dir/agent.log" >"$TMP/out" 2>&1 &&
    fail "a -Lf file that cannot be created was accepted"
grep -q "cannot create the log file" "$TMP/out" || { cat "$TMP/out"; fail "no reason for the -Lf file"; }
grep -q "^usage:" "$TMP/out" && { cat "$TMP/out"; fail "the usage follows a -Lf error"; }
"$AGENT" -f -C -c "$TMP/dump.conf" -u no-such-user-hwr >"$TMP/out" 2>&1 && fail "an unknown -u user was accepted"
grep -q "^usage:" "$TMP/out" && { cat "$TMP/out"; fail "the usage follows an unknown user"; }
"$AGENT" -Q >"$TMP/out" 2>&1 && fail "-Q was accepted"
grep -q "^usage:" "$TMP/out" || { cat "$TMP/out"; fail "no usage for an unknown option"; }
ok "a -Lf or -u value that cannot be used: the reason, no usage; an unknown option: the usage"

# No backend line: refused, every built-in backend named (-H and -v
# derive from the same registry).
printf 'pollInterval 1\n' >"$TMP/nobackend.conf"
"$AGENT" -f -C -c "$TMP/nobackend.conf" -Le >"$TMP/out" 2>&1 && fail "a config without backend was accepted"
names=$("$AGENT" -v | sed -n 's/^Backends built in: //p')
[ -n "$names" ] || names=$("$AGENT" -h | sed -n 's/^Backends built in: //p')
grep -q "no 'backend' line.*BACKEND one of $names" "$TMP/out" || { cat "$TMP/out"; fail "the no-backend message does not list $names"; }
"$AGENT" -H | grep -q "^backend  *$(echo "$names" | sed 's/, /|/g')\$" || fail "-H does not list $names"
# no file at all (-C, no -c): the message says where no file was
"$AGENT" -f -C -Le -x "unix:$TMP/none.sock" >"$TMP/out" 2>&1 && fail "-C without -c (no config) was accepted"
grep -q "^config (no file: -C without -c): no 'backend' line" "$TMP/out" ||
    { cat "$TMP/out"; fail "-C without -c: the message does not say there was no file"; }
ok "no backend: refused, naming $names; -H lists the same; with no file, it says so"

# -H's alarm usage names both kinds of input (a metric or a statistic,
# stat.NAME), and the shipped config and doc/alarms.md print that usage.
usage=$("$AGENT" -H | sed -n 's/^alarm  *//p')
case $usage in "NAME METRIC|stat.NAME "*) ;; *) fail "-H's alarm usage does not name stat.NAME: $usage" ;; esac
grep -qxF "# alarm $usage" "$HWR_SRCDIR/conf/hw-r10kevctr.conf" || fail "conf/hw-r10kevctr.conf does not print -H's alarm usage: $usage"
grep -qxF "    alarm $usage" "$HWR_SRCDIR/doc/alarms.md" || fail "doc/alarms.md does not print -H's alarm usage: $usage"
ok "-H: alarm $usage (as the shipped config and doc/alarms.md print it)"

# -t checks the config as a start reads it (sshd -t): every problem once,
# FILE: line N, then the count, exit 1; a good config: nothing, exit 0.
# once FILE PATTERN: PATTERN is on exactly one line of FILE.
once() { [ "$(grep -c -- "$2" "$1")" = 1 ] || { cat "$1"; fail "'$2' not said once"; }; }
check() { # check [ARGS...]: -t's output in $TMP/out, its exit status in rc
    "$AGENT" -t "$@" >"$TMP/out" 2>&1
    rc=$?
}
printf 'backend sim\nsimCpus 2\n' >"$TMP/good.conf"
echo "the running agent's log" >"$TMP/daemon.log"
# the daemon's whole command line (the init script passes AGENT_OPTS):
# accepted, -Lf never opened (it would truncate the running agent's log)
check -C -c "$TMP/good.conf" -f -x "unix:$TMP/none.sock" -Lf "$TMP/daemon.log" -p "$TMP/t.pid" -A
[ "$rc" = 0 ] || { cat "$TMP/out"; fail "-t on a good config exited $rc"; }
[ -s "$TMP/out" ] && { cat "$TMP/out"; fail "-t on a good config printed something"; }
[ "$(cat "$TMP/daemon.log")" = "the running agent's log" ] || fail "-t touched the -Lf file"
[ -e "$TMP/t.pid" ] && fail "-t wrote a pid file"
ok "-t on a good config: exit 0, silent, the daemon's -Lf and -p untouched"

# --dump and -t read and report only: with a state directory that does
# not exist they make none (nor net-snmp's cert_indexes in it), and one
# that belongs to another user (the package's, as root) draws no warning.
for mode in -t --dump; do
    SNMP_PERSISTENT_DIR=$TMP/fresh/state "$AGENT" $mode -C -c "$TMP/good.conf" >"$TMP/out" 2>"$TMP/err" ||
        { cat "$TMP/err"; fail "$mode with a missing state directory failed"; }
    [ -e "$TMP/fresh" ] && { find "$TMP/fresh"; fail "$mode made the state directory"; }
    [ -s "$TMP/err" ] && { cat "$TMP/err"; fail "$mode with a missing state directory printed on stderr"; }
done
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    mkdir -m 700 "$TMP/owned"
    chown nobody "$TMP/owned"
    for mode in -t --dump; do
        SNMP_PERSISTENT_DIR=$TMP/owned "$AGENT" $mode -C -c "$TMP/good.conf" >"$TMP/out" 2>"$TMP/err" ||
            { cat "$TMP/err"; fail "$mode with nobody's state directory failed"; }
        [ -s "$TMP/err" ] && { cat "$TMP/err"; fail "$mode warned about nobody's state directory"; }
        [ -z "$(ls -A "$TMP/owned")" ] || { ls -la "$TMP/owned"; fail "$mode wrote into the state directory"; }
    done
fi
ok "--dump and -t: no state directory made, nothing written in one, no owner warning"

# an -L option of no word (-Le) takes none: the -c after it is read
check -Le -c "$TMP/bad.conf" -C
[ "$rc" = 1 ] && grep -q "bad.conf: line 2: Error" "$TMP/out" ||
    { cat "$TMP/out"; fail "-t -Le -c FILE: FILE was not checked (rc $rc)"; }
check -C -c "$TMP/bad.conf" -Lf "$TMP/daemon.log"
[ "$rc" = 1 ] || { cat "$TMP/out"; fail "-t on a bad config exited $rc"; }
for l in 2 3 4; do once "$TMP/out" "bad.conf: line $l: Error"; done
once "$TMP/out" "^3 config problem(s)\$"
grep -q "not starting" "$TMP/out" && fail "-t said 'not starting'"
[ "$(cat "$TMP/daemon.log")" = "the running agent's log" ] || fail "-t wrote to the -Lf file"
ok "-t on 3 bad lines: each named once on stderr (not in the -Lf file), '3 config problem(s)', exit 1"

# One problem, one count: each of these was counted twice.
expect_one() { # expect_one NAME PATTERN CONFIG-TEXT
    printf '%s\n' "$3" >"$TMP/$1.conf"
    check -C -c "$TMP/$1.conf"
    [ "$rc" = 1 ] || { cat "$TMP/out"; fail "$1: -t exited $rc"; }
    once "$TMP/out" "$2"
    once "$TMP/out" "^1 config problem(s)\$"
    [ "$(grep -c . "$TMP/out")" = 2 ] || { cat "$TMP/out"; fail "$1: more than the problem and the count"; }
    "$AGENT" -f -C -c "$TMP/$1.conf" -x "unix:$TMP/none.sock" -Le >"$TMP/out" 2>&1 && fail "$1: started"
    once "$TMP/out" "^1 config problem(s); not starting\$"
}
# problems across lines name the file and the lines involved
expect_one nobackend1 "^$TMP/nobackend1.conf: no 'backend' line" "pollInterval 1"
expect_one noreplayfile "^$TMP/noreplayfile.conf: line 2: backend replay needs replayFile" "# a comment
backend replay"
: >"$TMP/archive.meta"
if "$AGENT" -v | grep -q "backends:.*pcp"; then
    expect_one hostarchive "^$TMP/hostarchive.conf: lines 2 and 4: pcpHost and pcpArchive exclude each other" "backend pcp
pcpHost localhost
pollInterval 1
pcpArchive $TMP/archive"
fi
ok "no backend line, no replayFile, pcpHost with pcpArchive: one problem each, named with the file and lines, '1 config problem(s)'"

# -t opens every file a start opens and fails on what a start fails on:
# t_fails NAME PATTERN CONFIG-TEXT [ARGS...]: one problem, PATTERN.
t_fails() {
    name=$1 pattern=$2
    printf '%s\n' "$3" >"$TMP/$name.conf"
    shift 3
    check -C -c "$TMP/$name.conf" "$@"
    [ "$rc" = 1 ] || { cat "$TMP/out"; fail "$name: -t exited $rc"; }
    once "$TMP/out" "$pattern"
    once "$TMP/out" "^1 config problem(s)\$"
}
t_fails replaygone "^$TMP/replaygone.conf: line 3: replayFile $TMP/gone.replay: cannot read: No such file or directory\$" \
    "backend replay
pollInterval 1
replayFile $TMP/gone.replay"
t_fails replaydir "^$TMP/replaydir.conf: line 2: replayFile $TMP: cannot read: not a regular file\$" \
    "backend replay
replayFile $TMP"
if "$AGENT" -v | grep -q "backends:.*pcp"; then
    t_fails archivegone "^$TMP/archivegone.conf: line 2: pcpArchive $TMP/gone: cannot read $TMP/gone.meta: No such file or directory\$" \
        "backend pcp
pcpArchive $TMP/gone"
    printf 'backend pcp\npcpArchive %s/archive\n' "$TMP" >"$TMP/archive.conf"
    check -C -c "$TMP/archive.conf"
    [ "$rc" = 0 ] || { cat "$TMP/out"; fail "-t with a readable archive .meta exited $rc"; }
fi
# a replayFile of another backend is not opened
printf 'backend sim\nreplayFile %s/gone.replay\n' "$TMP" >"$TMP/otherbackend.conf"
check -C -c "$TMP/otherbackend.conf"
[ "$rc" = 0 ] || { cat "$TMP/out"; fail "-t opened another backend's replayFile"; }
ok "-t: a missing replayFile, a directory, a missing archive .meta: named with the config line, '1 config problem(s)'"

# ... as the agent's user (-u, -g): what root reads and the user cannot
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null; then
    chmod 755 "$TMP"
    cp "$HWR_SRCDIR/tests/data/sample.replay" "$TMP/mine.replay"
    chmod 600 "$TMP/mine.replay"
    printf 'backend replay\nreplayFile %s/mine.replay\n' "$TMP" >"$TMP/mine.conf"
    chmod 644 "$TMP/mine.conf"
    check -C -c "$TMP/mine.conf"
    [ "$rc" = 0 ] || { cat "$TMP/out"; fail "-t as root on root's 0600 replayFile exited $rc"; }
    check -C -c "$TMP/mine.conf" -u nobody
    [ "$rc" = 1 ] || { cat "$TMP/out"; fail "-t -u nobody on root's 0600 replayFile exited $rc"; }
    once "$TMP/out" "^$TMP/mine.conf: line 2: replayFile $TMP/mine.replay: cannot read as nobody: Permission denied\$"
    chmod 644 "$TMP/mine.replay"
    chmod 600 "$TMP/mine.conf"
    check -C -c "$TMP/mine.conf" -u nobody -g nogroup
    [ "$rc" = 1 ] || { cat "$TMP/out"; fail "-t -u nobody on root's 0600 config exited $rc"; }
    once "$TMP/out" "^$TMP/mine.conf: cannot read the config file as nobody:nogroup, as a reload does: Permission denied\$"
    once "$TMP/out" "^1 config problem(s)\$"
    chmod 644 "$TMP/mine.conf"
    check -C -c "$TMP/mine.conf" -u nobody -g nogroup
    [ "$rc" = 0 ] || { cat "$TMP/out"; fail "-t -u nobody on readable files exited $rc"; }
    ok "-t -u nobody: a replayFile or -c file root can read and nobody cannot is named, as nobody"
fi

# A -c file that cannot be read is one problem, named, and -t goes on
# to name those of the other files.
check -C -c "$TMP/gone.conf,$TMP/bad.conf"
[ "$rc" = 1 ] || { cat "$TMP/out"; fail "-t with a missing file exited $rc"; }
once "$TMP/out" "gone.conf: cannot read the config file: No such file"
once "$TMP/out" "bad.conf: line 4: Error"
once "$TMP/out" "^4 config problem(s)\$"
ok "-t with a missing -c file and a bad one: the file named, every line named, '4 config problem(s)'"
