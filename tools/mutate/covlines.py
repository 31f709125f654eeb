#!/usr/bin/env python3
"""tools/mutate/covlines.py GCDADIR SRCDIR: the lines of SRCDIR's files
that the .gcda files under GCDADIR (a GCOV_PREFIX tree: each at
GCDADIR/<the object's absolute path>) say were executed, as FILE:LINE
with FILE relative to SRCDIR, sorted."""
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile


def gcda_files(gcdadir):
    """(os.walk: glob's ** skips hidden directories such as ~/.cache)"""
    return sorted(os.path.join(root, name)
                  for root, _, files in os.walk(gcdadir)
                  for name in files if name.endswith(".gcda"))


def link_gcno(gcdadir, gcda):
    """gcov wants the .gcno beside the .gcda: link the build's."""
    orig = "/" + os.path.relpath(gcda, gcdadir)
    gcno = gcda[:-5] + ".gcno"
    if not os.path.exists(gcno):
        os.symlink(orig[:-5] + ".gcno", gcno)


def executed(gcda, srcdir, out, tmp):
    run = subprocess.run(["gcov", "-j", "-o", os.path.dirname(gcda), gcda],
                         cwd=tmp, capture_output=True)
    if run.returncode != 0:
        return
    for name in glob.glob(os.path.join(tmp, "*.gcov.json.gz")):
        with gzip.open(name) as f:
            doc = json.load(f)
        os.unlink(name)
        cwd = doc.get("current_working_directory", "")
        for fi in doc["files"]:
            path = os.path.normpath(os.path.join(cwd, fi["file"]))
            rel = os.path.relpath(path, srcdir)
            if rel.startswith(".."):
                continue
            for ln in fi["lines"]:
                if ln["count"] > 0:
                    out.add("%s:%d" % (rel, ln["line_number"]))


def main(gcdadir, srcdir):
    out = set()
    srcdir = os.path.realpath(srcdir)
    with tempfile.TemporaryDirectory() as tmp:
        for gcda in gcda_files(gcdadir):
            link_gcno(gcdadir, gcda)
            executed(gcda, srcdir, out, tmp)
    sys.stdout.write("".join(x + "\n" for x in sorted(out)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
