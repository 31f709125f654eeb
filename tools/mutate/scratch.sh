# tools/mutate/scratch.sh: the scratch copy of the commit and its build.
# Never the work tree: the commit's files (git archive), configured once
# and built out of tree; each mutant is an incremental rebuild.

scratch_prepare() {
    # a run stopped with a mutant applied: the commit's files back first
    [ ! -f "$MUT_CACHE/applied.diff" ] || scratch_restore "$MUT_CACHE/applied.diff"
    if [ ! -f "$MUT_SRC/.ready" ]; then
        say "scratch copy of $MUT_COMMIT in $MUT_SRC"
        rm -rf "$MUT_SRC"; mkdir -p "$MUT_SRC"
        git -C "$MUT_TOP" archive "$MUT_COMMIT" | tar -x -C "$MUT_SRC" || return 1
        (cd "$MUT_SRC" && ./autogen.sh >/dev/null 2>&1) || return 1
        touch "$MUT_SRC/.ready"
    fi
    mkdir -p "$MUT_BUILD"
    if [ ! -f "$MUT_BUILD/Makefile" ]; then
        # no -Werror: a mutant that only warns still runs its tests
        (cd "$MUT_BUILD" && "$MUT_SRC/configure" -q) >"$MUT_CACHE/configure.out" 2>&1 ||
            { cat "$MUT_CACHE/configure.out"; return 1; }
    fi
    scratch_make || { say "the unmutated tree does not build"; cat "$MUT_BUILD/make.out"; return 1; }
}

# Build the program and the test programs; 1 when they do not build.
scratch_make() {
    nice -n "${MUT_NICE:-0}" make -s -C "$MUT_BUILD" -j2 all >"$MUT_BUILD/make.out" 2>&1 &&
        nice -n "${MUT_NICE:-0}" make -s -C "$MUT_BUILD" -j2 check TESTS= >>"$MUT_BUILD/make.out" 2>&1
}

# The files a patch changes ("+++ b/PATH" lines).
patch_files() { # PATCH
    sed -n 's|^+++ b/||p' "$1" | sed 's/[[:space:]].*//'
}

# Apply PATCH to the scratch copy; 1 when it does not apply.  The copy
# may lie inside another work tree (CI's cache is build-mutate/ in the
# clone): there git apply takes the paths as the enclosing repository's,
# skips those outside the current directory and still exits 0.  The
# ceiling keeps git from finding that repository (git apply then works as
# patch(1) does), and a skipped file fails all the same.
scratch_apply() { # PATCH
    cp "$1" "$MUT_CACHE/applied.diff" || return 1
    (cd "$MUT_SRC" && GIT_CEILING_DIRECTORIES=$(dirname "$MUT_SRC") \
        git apply --verbose "$1") >"$MUT_CACHE/apply.out" 2>&1 &&
        ! grep -q '^Skipped patch' "$MUT_CACHE/apply.out" ||
        { cat "$MUT_CACHE/apply.out"; return 1; }
}

# Put the commit's version of every file PATCH changed back.
scratch_restore() { # PATCH
    for f in $(patch_files "$1"); do
        git -C "$MUT_TOP" show "$MUT_COMMIT:$f" >"$MUT_SRC/$f" 2>/dev/null || rm -f "$MUT_SRC/$f"
    done
    rm -f "$MUT_CACHE/applied.diff"
}
