#!/usr/bin/env python3
"""tools/mutate/gen.py: the mutants of C files, for tools/mutate.sh.

gen.py list SRCDIR N SEED PATH...: N mutants drawn (random.Random(SEED),
so the same commit, N and SEED give the same mutants) from every mutant
of the .c files under PATH (relative to SRCDIR); one line each,
"ID<TAB>FILE<TAB>LINE<TAB>OPERATOR<TAB>ORIGINAL => MUTATED".
gen.py patch SRCDIR ID: that mutant as a unified diff on stdout.

An ID is FILE:OPERATOR:HASH, the hash of the line's text before and
after and the column (not its number; a line's second copy in the file
hashes its ordinal too): it stays while the line does, so
tools/mutate-equivalent.txt can name it across commits.
Operators: ror (< <= > >=), neg (a condition negated), lor (&& ||),
const (an integer constant +1 or -1), del (a statement deleted), ret (a
return value swapped for another of its kind).
"""
import difflib
import hashlib
import os
import random
import re
import sys

ROR = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
RET = {"0": "-1", "-1": "0", "1": "0", "true": "false", "false": "true",
       "NULL": "(void *)1", "SAMPLE_OK": "SAMPLE_UNREAD"}
DECL = re.compile(r"^\s*(static|const|struct|enum|union|unsigned|signed|int|"
                  r"long|short|char|bool|size_t|ssize_t|uint\w*|int\w*|"
                  r"double|float|void|typedef|extern|register|volatile)\b")
STMT = re.compile(r"^\s*(\*?[\w.\->\[\]]+\s*(=|\+=|-=|\|=|&=|\^=|<<=|>>=)"
                  r"\s*[^=].*|[\w.\->]+(\+\+|--)|\w+\s*\(.*\))\s*;\s*$")


def code_mask(lines):
    """Each line's text with comments and literals blanked (same length),
    None for preprocessor lines."""
    out, in_comment = [], False
    for text in lines:
        if not in_comment and text.lstrip().startswith("#"):
            out.append(None)
            continue
        buf, i = [], 0
        while i < len(text):
            if in_comment:
                if text.startswith("*/", i):
                    in_comment = False
                    buf.append("  ")
                    i += 2
                else:
                    buf.append(" ")
                    i += 1
            elif text.startswith("/*", i):
                in_comment = True
                buf.append("  ")
                i += 2
            elif text.startswith("//", i):
                buf.append(" " * (len(text) - i))
                break
            elif text[i] in "\"'":
                q, j = text[i], i + 1
                while j < len(text) and text[j] != q:
                    j += 2 if text[j] == "\\" else 1
                buf.append(q + " " * (min(j, len(text)) - i - 1) +
                           (q if j < len(text) else ""))
                i = j + 1
            else:
                buf.append(text[i])
                i += 1
        out.append("".join(buf)[:len(text)])
    return out


def sites(code):
    """(operator, column, old, new) of one masked line."""
    for m in re.finditer(r"(?<![<>\-=])(<=|>=|<|>)(?![<>=])", code):
        if not (m.group() == ">" and code[m.start() - 1:m.start()] == "-"):
            yield "ror", m.start(), m.group(), ROR[m.group()]
    for m in re.finditer(r"&&|\|\|", code):
        yield "lor", m.start(), m.group(), "||" if m.group() == "&&" else "&&"
    for m in re.finditer(r"(?<![\w.])(\d+)([uUlL]*)(?![\w.])", code):
        if "[" in code[:m.start()] and "]" in code[m.end():] and DECL.match(code):
            continue  # an array's size
        octal = len(m.group(1)) > 1 and m.group(1)[0] == "0"
        v = int(m.group(1), 8 if octal else 10)
        for n in (v + 1, v - 1):
            if n >= 0:
                yield "const", m.start(1), m.group(1), (
                    "0%o" % n if octal else str(n))
    for m in re.finditer(r"\b(if|while)\s*\(", code):
        end = close_paren(code, m.end() - 1)
        if end:
            inner = code[m.end():end]
            yield "neg", m.end(), inner, "!(" + inner + ")"
    m = re.match(r"^(\s*return\s+)([^;]+?)(\s*;)", code)
    if m and m.group(2) in RET:
        yield "ret", m.start(2), m.group(2), RET[m.group(2)]
    if STMT.match(code) and not DECL.match(code) and not re.match(
            r"^\s*(return|if|while|for|switch|case|else|do)\b", code):
        stripped = code.strip()
        yield "del", code.index(stripped), stripped, ";"


def close_paren(code, i):
    depth = 0
    for j in range(i, len(code)):
        depth += {"(": 1, ")": -1}.get(code[j], 0)
        if depth == 0:
            return j
    return None


def mutants_of(srcdir, path):
    with open(os.path.join(srcdir, path)) as f:
        lines = f.read().split("\n")
    seen = {}
    for no, code in enumerate(code_mask(lines), 1):
        if code is None:
            continue
        text = lines[no - 1]
        for op, col, old, new in sites(code):
            mutated = text[:col] + new + text[col + len(old):]
            key = text.strip() + "\0" + mutated.strip() + "\0" + str(col)
            # the same line twice in a file: the later ones numbered
            k = seen[key] = seen.get(key, -1) + 1
            if k:
                key += "\0#%d" % k
            h = hashlib.sha1(key.encode()).hexdigest()[:10]
            yield ("%s:%s:%s" % (path, op, h), path, no, op, text, mutated)


def c_files(srcdir, paths):
    for p in paths:
        full = os.path.join(srcdir, p)
        if os.path.isfile(full):
            yield p
            continue
        for root, dirs, files in os.walk(full):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".c"):
                    yield os.path.relpath(os.path.join(root, name), srcdir)


def all_mutants(srcdir, paths):
    return [m for p in sorted(set(c_files(srcdir, paths)))
            for m in mutants_of(srcdir, p)]


def cmd_list(srcdir, n, seed, paths):
    every = all_mutants(srcdir, paths)
    pick = random.Random(seed).sample(every, min(n, len(every)))
    for mid, path, no, op, text, mutated in pick:
        print("%s\t%s\t%d\t%s\t%s => %s" % (mid, path, no, op, text.strip(),
                                           mutated.strip()))


def cmd_patch(srcdir, mid):
    path = mid.rsplit(":", 2)[0]
    for m in mutants_of(srcdir, path):
        if m[0] == mid:
            with open(os.path.join(srcdir, path)) as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()  # the text after the last newline: none
            new = list(lines)
            new[m[2] - 1] = m[5]
            sys.stdout.writelines(difflib.unified_diff(
                [x + "\n" for x in lines], [x + "\n" for x in new],
                "a/" + path, "b/" + path))
            return 0
    print("gen.py: no mutant %s" % mid, file=sys.stderr)
    return 1


def main(argv):
    if len(argv) >= 5 and argv[1] == "list":
        cmd_list(argv[2], int(argv[3]), argv[4], argv[5:] or ["lib", "agent"])
        return 0
    if len(argv) == 4 and argv[1] == "patch":
        return cmd_patch(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
