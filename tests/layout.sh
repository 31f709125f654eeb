#!/bin/sh
# doc/architecture.md's layout, checked against the tree and the build:
# - every folder with C in it (lib/'s, agent/, mib/ and the harnesses) is
#   a row of the layout's table, and every row is a folder;
# - a file includes ("x/name.h" or its own folder's "name.h") only from
#   its own floor or from the floors below it: no include runs back up,
#   and no header includes itself through others (no circle);
# - every symbol an object of the build exports starts with its floor's
#   prefix (nm), each prefix belongs to one floor: a name tells its
#   folder.
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
floors, prefix = [], {}
for m in re.finditer(r"^\| `([a-z/]+)/` \| (`([a-z]+)_` |- )\|", section, re.M):
    floors.append(m.group(1))
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
        dirs[:] = [d for d in dirs if not d.startswith((".", "build", "autom4te"))]
        tracked += [os.path.relpath(os.path.join(root, f), src) for f in files]
cfiles = [f for f in tracked if f.endswith((".c", ".h", ".def"))]
folders = {os.path.dirname(f) for f in cfiles}
for d in sorted(folders):
    if d not in rank and not d.startswith(("tests/", "fuzz/", "bench/")):
        bad.append("%s/ holds C and is not in doc/architecture.md's layout" % d)
for f in floors:
    if not os.path.isdir(os.path.join(src, f)):
        bad.append("the layout names %s/, which does not exist" % f)


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
            if len(p) != 3 or p[1] not in "TDBRCVW" or p[2] == "main":
                continue
            nsym += 1
            if not p[2].startswith(prefix[rel] + "_"):
                bad.append("%s/%s exports %s: not %s_ (the prefix of %s/)"
                           % (rel, o, p[2], prefix[rel], rel))
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
