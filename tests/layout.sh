#!/bin/sh
# doc/architecture.md's layout, checked against the tree and the build:
# - every folder with C in it (lib/'s, agent/, mib/ and the harnesses) is
#   a row of the layout's table, and every row is a folder;
# - a file includes ("x/name.h" or its own folder's "name.h") only from
#   its own floor or from the floors below it: no include runs back up,
#   and no header includes itself through others (no circle);
# - every symbol an object of the build exports (nm), and every static
#   inline function of a header, starts with its floor's prefix, each
#   prefix belongs to one floor: a name tells its folder;
# - the page is true where a program can tell: each floor's row names
#   every C file of its folder, every path the page names exists, and
#   every function it names (`name()`) is defined in the tree or in a
#   library's headers;
# - no hand-written C file is over 400 lines (STYLE.md: small files named
#   for what they hold).
set -u
: "${HWR_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${HWR_BUILDDIR:=$HWR_SRCDIR}"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
command -v nm >/dev/null || { echo "SKIP: no nm"; exit 77; }
exec python3 - "$HWR_SRCDIR" "$HWR_BUILDDIR" <<'EOF'
import os
import re
import subprocess
import sys

src, build = sys.argv[1], sys.argv[2]
bad = []

# The table: | `folder/` | `prefix_` or - | what it holds |, top floor first.
doc = open(os.path.join(src, "doc/architecture.md")).read()
section = doc.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
floors, prefix, row = [], {}, {}
for m in re.finditer(r"^\| `([a-z/]+)/` \| (`([a-z]+)_` |- )\|(.*)$", section, re.M):
    floors.append(m.group(1))
    row[m.group(1)] = m.group(4)
    if m.group(3):
        prefix[m.group(1)] = m.group(3)
if len(floors) < 12:
    sys.exit("FAIL: doc/architecture.md's layout table lists only %s" % floors)
rank = {f: i for i, f in enumerate(floors)}
owners = {}
for f, p in prefix.items():
    owners.setdefault(p, []).append(f)
for p, fs in owners.items():
    if len(fs) > 1:
        bad.append("prefix %s_ is given to %s" % (p, " and ".join(fs)))

# Every folder holding C is a floor, every floor a folder.
tracked = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True,
                         text=True).stdout.split()
if not tracked:  # a tarball: walk it
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith((".", "_", "build", "autom4te"))
                   and not os.path.exists(os.path.join(root, d, "config.status"))]
        tracked += [os.path.relpath(os.path.join(root, f), src) for f in files]
cfiles = [f for f in tracked if f.endswith((".c", ".h", ".def"))]
folders = {os.path.dirname(f) for f in cfiles}
for d in sorted(folders):
    if d not in rank and not d.startswith(("tests/", "fuzz/", "bench/")):
        bad.append("%s/ holds C and is not in doc/architecture.md's layout" % d)
for f in floors:
    if not os.path.isdir(os.path.join(src, f)):
        bad.append("the layout names %s/, which does not exist" % f)


# No hand-written C file over 400 lines.
for f in cfiles:
    if f.endswith(".def"):
        continue
    with open(os.path.join(src, f), errors="replace") as fh:
        n = sum(1 for _ in fh)
    if n > 400:
        bad.append("%s has %d lines, over 400: split it by what it holds" % (f, n))

# Each C floor's row names each of its files (a .c and its .h: one name).
for f in floors:
    if f in ("tests", "fuzz", "bench"):
        continue
    words = set(re.findall(r"[A-Za-z0-9_.]+", row[f]))
    for c in sorted(x for x in cfiles if os.path.dirname(x) == f):
        name = os.path.basename(c)
        stem = re.sub(r"\.(c|h)$", "", name)
        if stem not in words and name not in words:
            bad.append("%s is not named in the layout's row for %s/" % (c, f))

# Every path the page names exists (a * is a glob), in the tree or, for
# a generated file, in the build.
import glob
for p in sorted(set(re.findall(
        r"(?<![\w/.])((?:lib|agent|mib|tests|tools|conf|bench|fuzz|doc|debian|man)"
        r"/[A-Za-z0-9_.*/-]*[A-Za-z0-9_*])", doc))):
    if "NAME" in p:  # the page's placeholder for a new thing's name
        continue
    if not any(glob.glob(os.path.join(top, p)) for top in (src, build, os.path.join(src, "doc"))):
        bad.append("doc/architecture.md names %s, which does not exist" % p)

# Every function the page names, `name()`, is defined here or declared
# by a library.
csource = "\n".join(open(os.path.join(src, f), errors="replace").read()
                    for f in cfiles if f.endswith(".c"))
for fn in sorted(set(re.findall(r"`([a-z_][a-z0-9_]*)\(\)`", doc))):
    defined = re.search(r"^[a-z].*[ *]%s\(" % fn, csource, re.M) is not None
    if not defined:
        defined = subprocess.run(["grep", "-rqw", fn, "/usr/include"]).returncode == 0
    if not defined:
        bad.append("doc/architecture.md names %s(), defined nowhere" % fn)


def floor_of(path):
    d = os.path.dirname(path)
    while d and d not in rank:
        d = os.path.dirname(d)
    return d or None


def resolve(path, inc):
    """The tracked file an #include "inc" of path means, or None."""
    for base in (os.path.dirname(path), "lib", "mib", "tests/unit", "agent", "fuzz"):
        cand = os.path.normpath(os.path.join(base, inc))
        if cand in tracked:
            return cand
    return None


graph = {}
inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
for f in cfiles:
    text = open(os.path.join(src, f), errors="replace").read()
    graph[f] = []
    here = floor_of(f)
    for inc in inc_re.findall(text):
        to = resolve(f, inc)
        if to is None:
            if not inc.startswith(("hwr-config", "objects.c")):
                bad.append("%s includes \"%s\", no file of the tree" % (f, inc))
            continue
        graph[f].append(to)
        there = floor_of(to)
        if here is None or there is None:
            continue
        if rank[there] < rank[here]:
            bad.append("%s includes %s: from %s/ up to %s/" % (f, to, here, there))

# No circle among the files.
state = {}


def visit(f, stack):
    state[f] = 1
    stack.append(f)
    for t in graph.get(f, []):
        if state.get(t) == 1:
            bad.append("include circle: " + " -> ".join(stack[stack.index(t):] + [t]))
        elif t not in state:
            visit(t, stack)
    stack.pop()
    state[f] = 2


for f in sorted(graph):
    if f not in state:
        visit(f, [])
nincl = sum(len(v) for v in graph.values())

# nm: the build's objects, by the folder of their source.
nsym = 0
for root, dirs, files in os.walk(build):
    rel = os.path.relpath(root, build)
    if rel not in prefix:
        continue
    for o in sorted(files):
        if not o.endswith(".o") or o.startswith("tests_"):
            continue
        out = subprocess.run(["nm", "-g", "--defined-only", os.path.join(root, o)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            # "__" names are the implementation's (C11 7.1.3), made by the
            # compiler for a sanitizer or coverage (__odr_asan.NAME,
            # __gcov_*), never ours
            if len(p) != 3 or p[1] not in "TDBRCVW" or p[2] == "main" \
                    or p[2].startswith("__"):
                continue
            nsym += 1
            if not p[2].startswith(prefix[rel] + "_"):
                bad.append("%s/%s exports %s: not %s_ (the prefix of %s/)"
                           % (rel, o, p[2], prefix[rel], rel))
# A header's static inline functions are exported as much (nm cannot
# see them): the same prefix.
inline_re = re.compile(r"^static inline [^(;=]*?\b([A-Za-z_]\w*)\s*\(", re.M)
for f in cfiles:
    fl = floor_of(f)
    if not f.endswith(".h") or fl not in prefix:
        continue
    for name in inline_re.findall(open(os.path.join(src, f)).read()):
        nsym += 1
        if not name.startswith(prefix[fl] + "_"):
            bad.append("%s defines static inline %s: not %s_ (the prefix of %s/)"
                       % (f, name, prefix[fl], fl))
if nsym < 200:
    bad.append("only %d exported symbols found under %s: is it built?" % (nsym, build))

for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: %d floors, %d includes of %d files, none back up, no circle"
          % (len(floors), nincl, len(graph)))
    print("ok: %d exported symbols, each with its floor's prefix (%d prefixes, one floor each)"
          % (nsym, len(prefix)))
sys.exit(1 if bad else 0)
EOF
