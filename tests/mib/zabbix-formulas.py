#!/usr/bin/env python3
"""The shipped Zabbix template's calculated formulas, read as Zabbix 6.0
reads them: one history function at a time, in the formula's order (its
RPN stack keeps the operands' order, and no operator short-circuits:
src/libs/zbxeval/execute.c), each against the value cache as it is at that
moment, while a history sync may store a new reading of some inputs
between two reads.

For every calculated item and prototype, over readings whose counts of
values cross multiples of 16, every subset of inputs the sync brings a
value to, and every point of the evaluation where it lands, the value
must be discarded by the item's In range step or be the exact rate (or
ratio) of the readings before the sync or after it: never a mix.  Also:
a discontinuity, a counter that went back, a stale counting time, and a
counter with fewer readings than the counting time give no value; new
counters give none until {$HWR10K.WINDOW} holds only their readings,
then the exact one (whatever readings the window holds: 2, 3 or 5).  And
no formula may call a function that fails for want of values (change(),
nodata(), last(#2) ...: 6.0 makes the item unsupported, and checks it
again only 10 minutes later): with no reading of an input, or one (a
new host, a CPU back from a gap), every formula evaluates, to a value
its In range step discards.

usage: zabbix-formulas.py TEMPLATE.yaml    (exit 1 on a failure)
"""
import itertools
import math
import re
import sys

TIME = "hwr10k.counting.time"
DISC = "hwr10k.discontinuity.time"
# A CPU group's rates and statistics are guarded by the group's own
# discontinuity time (a CPU's gap blanks its group, not the others)
GROUP_DISC = "hwr10k.group.discontinuity.time[{#GROUP}]"
# and a CPU's by the CPU's (another CPU's gap or reset leaves it be)
CPU_DISC = "hwr10k.cpu.discontinuity.time[{#CPU}]"
SCOPE_DISC = {"Group ": GROUP_DISC, "CPU ": CPU_DISC}
KEY = r"[^,()\[]+(?:\[[^\]]*\])?"
FUNC = re.compile(r"(change|count|nodata|sum)\(//(" + KEY + r")(?:,(\{\$HWR10K\.(?:NODATA|WINDOW)\}|#\d+))?\)")
# A change as the template writes it: 2*sum(#1)-sum(#2)
# (or, before, change(//KEY): the model judges either)
CHG = r"(?:\(2\*sum\(//" + KEY + r",#1\)-sum\(//" + KEY + r",#2\)\)|change\(//" + KEY + r"\))"


class Unsupported(Exception):
    """A function Zabbix 6.0 fails: the item turns unsupported."""

fails = 0


def fail(msg):
    global fails
    fails += 1
    if fails <= 20:
        print("FAIL: " + msg)


def template_items(path):
    """(name, formula, in-range [lo, hi]) of every calculated item."""
    items, name, formula = [], None, None
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("uuid:"):
            name, formula = None, None
        m = re.match(r"name: '?(.*?)'?$", s)
        if m and name is None:
            name = m.group(1)
        if s.startswith("type: CALCULATED"):
            formula = "pending"
        m = re.match(r"params: '(.*)'$", s)
        if m and formula == "pending":
            formula = m.group(1).replace("''", "'")
            rng = None
            for s2 in lines[i + 1:i + 30]:
                if s2.strip() == "type: IN_RANGE":
                    j = lines.index(s2, i + 1)
                    lo = lines[j + 2].strip()[2:].strip("'")
                    hi = lines[j + 3].strip()[2:].strip("'")
                    rng = (float(lo) if lo else -math.inf, float(hi) if hi else math.inf)
                    break
            items.append((name, formula, rng))
            formula = None
    return items


def to_python(formula):
    """The formula as a Python expression calling H(function, key)."""
    py = FUNC.sub(lambda m: 'H("%s","%s","%s")' % (m.group(1), m.group(2), m.group(3) or ""), formula)
    py = py.replace("<>", "!=")
    py = re.sub(r"(?<![<>!=])=(?!=)", "==", py)
    py = re.sub(r"\bpower\(", "pw(", py)
    py = re.sub(r"\bmod\(", "md(", py)
    return compile(py, "formula", "eval")


class Cache:
    """The value cache of the formula's inputs: before[key] and
    after[key] the values (oldest first); reads after `switch` reads see
    `after` for the keys in `moved`.  The readings: the master's values
    0 .. len(after[TIME]) - 1 (the last one perhaps not yet stored for
    every key); a key's values are its readings from 0 on, or those
    `idx` says (a counter that missed one, a new item); {$HWR10K.WINDOW}
    holds the last `w` readings."""

    def __init__(self, before, after, moved, switch, stale=False, idx=None, w=3):
        self.before, self.after, self.moved = before, after, moved
        self.switch, self.stale, self.reads = switch, stale, []
        self.idx, self.w, self.n = idx or {}, w, len(after[TIME])

    def H(self, fn, key, arg):
        i = len(self.reads)
        v = self.after[key] if (i >= self.switch and key in self.moved) else self.before[key]
        self.reads.append(key)
        if arg.startswith("#"):  # the last N values, whenever they came
            last = v[-int(arg[1:]):] if v else []
            if fn == "count":
                return float(len(last))
            if fn == "sum":
                return float(sum(last))
        elif fn == "count" and arg == "{$HWR10K.WINDOW}":
            if self.stale:
                return 0.0
            at = self.idx.get(key, range(len(v)))[:len(v)]
            return float(sum(1 for i in at if i >= self.n - self.w))
        elif fn == "count":  # over {$HWR10K.NODATA}: none when stale
            return 0.0 if self.stale else float(len(v))
        if fn == "nodata" and (self.stale or v):  # none: a new item fails
            return 1.0 if self.stale else 0.0
        if fn == "change" and len(v) >= 2:
            a, b = v[-1], v[-2]
            return float(a - b) if a >= b else -float(b - a)
        raise Unsupported("%s(//%s%s) of %d values fails" % (fn, key, "," + arg if arg else "", len(v)))


def evaluate(code, cache):
    def pw(b, e):
        return math.pow(b, e)

    def md(a, b):
        return math.fmod(a, b)

    try:
        v = eval(code, {"H": cache.H, "pw": pw, "md": md, "abs": abs})
    except ZeroDivisionError:
        return None
    return float(v)


def inputs_of(formula):
    return sorted({m.group(2) for m in FUNC.finditer(formula)})


def truth(formula, readings):
    """The rate or ratio of the last two readings, as the formula's own
    arithmetic computes it (change * 1e9 / counting time, or the quotient
    of changes)."""
    ch = {k: float(v[-1] - v[-2]) for k, v in readings.items()}
    num = re.search(r"\*\((" + CHG + r"(?:-" + CHG + r")?)(\)\*\(1000000000|\*1000000000)?\)/\(abs\((.*?)\)\+1-", formula)
    if not num:
        raise SystemExit("cannot find the quotient in: " + formula[:200])
    names = lambda s: list(dict.fromkeys(m.group(2) for m in FUNC.finditer(s)))
    n = names(num.group(1))
    value = ch[n[0]] - (ch[n[1]] if len(n) > 1 else 0.0)
    if num.group(2):
        value = value * 1000000000.0
    d = names(num.group(3))
    den = sum(ch[k] for k in d)
    return value / den


def readings_for(keys, n, seed, disc=DISC):
    """n readings of every input (one epoch), and the reading after them."""
    t, vals = [], {k: [] for k in keys}
    clock, acc = 5_000_000_000, {k: 10**12 * (i + 1) for i, k in enumerate(keys)}
    for r in range(n + 1):
        clock += 1_000_000_000 + (seed * 7919 + r * 104729) % 9_000_000_000
        t.append(clock)
        for i, k in enumerate(keys):
            acc[k] += 1 + (seed * 31 + r * 1_000_003 * (i + 3)) % 4_000_000_000
            vals[k].append(acc[k])
    before = {TIME: t[:n], disc: [123456.78] * n}
    after = {TIME: t, disc: [123456.78] * (n + 1)}
    for k in keys:
        before[k], after[k] = vals[k][:n], vals[k]
    return before, after


def discarded(v, rng):
    return v is None or v < rng[0] or v > rng[1]


def check_item(name, formula, rng):
    if rng is None:
        fail(f"{name}: no In range step")
        return 0
    code = to_python(formula)
    group = name.startswith("Group ")
    scope = next((p for p in SCOPE_DISC if name.startswith(p)), None)
    disc = SCOPE_DISC.get(scope, DISC)
    others = {DISC, GROUP_DISC, CPU_DISC} - {disc}
    if others & set(inputs_of(formula)) or disc not in inputs_of(formula):
        fail(f"{name}: not guarded by {disc} alone")
        return 0
    if group and any("[{#GROUP}," not in k for k in inputs_of(formula) if k not in (TIME, disc)):
        fail(f"{name}: a group's formula reads another scope's counter")
    if scope == "CPU " and any("[{#CPU}," not in k for k in inputs_of(formula) if k not in (TIME, disc)):
        fail(f"{name}: a CPU's formula reads another scope's counter")
    keys = [k for k in inputs_of(formula) if k not in (TIME, disc)]
    allkeys = [TIME, disc] + keys
    # The first and the last reads are the inputs' counts (the snapshot).
    probe = Cache(*readings_for(keys, 3, 1, disc), set(), 10**9)
    evaluate(code, probe)
    nin = len(allkeys)
    if sorted(probe.reads[:nin]) != sorted(allkeys) or sorted(probe.reads[-nin:]) != sorted(allkeys):
        fail(f"{name}: the first and the last reads are not every input's count: {probe.reads[:nin]} ... {probe.reads[-nin:]}")
    cases = 0
    # The window holds the last w readings: 3 (three intervals, the
    # default), more, or too few (2: a value may be discarded, never wrong)
    for n, w in itertools.product((2, 3, 13, 14, 15, 16, 17, 29, 30, 31, 33), (2, 3, 5)):
        before, after = readings_for(keys, n, n, disc)
        exact_before = truth(formula, before)
        exact_after = truth(formula, after)
        nreads = len(probe.reads)
        for size in range(1, nin + 1):
            for moved in itertools.combinations(allkeys, size):
                for switch in range(0, nreads + 1):
                    cases += 1
                    v = evaluate(code, Cache(before, after, set(moved), switch, w=w))
                    quiet = w > 2 and (switch == nreads or (switch == 0 and size == nin))
                    if discarded(v, rng):
                        if quiet:
                            fail(f"{name}: {n} readings, no reading stored during the evaluation: discarded")
                        continue
                    if not any(math.isclose(v, e, rel_tol=1e-12, abs_tol=1e-12) for e in (exact_before, exact_after)):
                        fail(f"{name}: {n} readings, a sync of {list(moved)} after read {switch}: {v!r}, "
                             f"not {exact_before!r} (before) or {exact_after!r} (after)")
        # No value: a discontinuity, a counter that went back, a stale
        # counting time, a counter missing a reading.
        if w == 2:
            continue
        bad = {"discontinuity": dict(after, **{disc: after[disc][:-1] + [999999.0]}),
               "counter back": dict(after, **{keys[0]: after[keys[0]][:-1] + [after[keys[0]][-2] - 5]}),
               "counter short": dict(after, **{keys[0]: after[keys[0]][:-2] + after[keys[0]][-1:]})}
        # (the short counter has every reading but the one before last)
        short = {keys[0]: list(range(n - 1)) + [n]}
        for what, state in bad.items():
            v = evaluate(code, Cache(state, state, set(), 0, idx=short if what == "counter short" else None, w=w))
            if not discarded(v, rng):
                fail(f"{name}: {what}: {v!r} stored")
        v = evaluate(code, Cache(after, after, set(), 0, stale=True, w=w))
        if not discarded(v, rng):
            fail(f"{name}: stale counting time: {v!r} stored")
        # New items (a new host's, a CPU's after a gap, a new group's):
        # counters with only their last m readings.  Exact once the window
        # holds none from before them (m >= w), nothing before.
        if n + 1 >= w + 1:
            for m in range(2, w + 1):
                state = dict(after, **{k: after[k][-m:] for k in keys})
                idx = {k: list(range(n + 1 - m, n + 1)) for k in keys}
                v = evaluate(code, Cache(state, state, set(), 0, idx=idx, w=w))
                if m < w and not discarded(v, rng):
                    fail(f"{name}: new counters, {m} readings, window {w}: {v!r} stored")
                if m == w and (discarded(v, rng) or not math.isclose(v, exact_after, rel_tol=1e-12)):
                    fail(f"{name}: new counters, {m} readings, window {w}: {v!r}, not {exact_after!r}")
    # A new host or a CPU back from a gap: inputs with no reading or one
    # (the others with two); no error, and nothing stored.
    full = readings_for(keys, 2, 7, disc)[0]
    for few in (0, 1):
        for size in range(1, nin + 1):
            for short in itertools.combinations(allkeys, size):
                cases += 1
                state = dict(full, **{k: full[k][-few:] if few else [] for k in short})
                idx = {k: [1] if few else [] for k in short}
                v = evaluate(code, Cache(state, state, set(), 0, idx=idx))
                if not discarded(v, rng):
                    fail(f"{name}: {few} reading(s) of {list(short)}: {v!r} stored")
    return cases


def main():
    items = template_items(sys.argv[1])
    if not items:
        raise SystemExit("FAIL: no calculated item in " + sys.argv[1])
    total = 0
    for name, formula, rng in items:
        try:
            total += check_item(name, formula, rng)
        except Unsupported as e:
            fail(f"{name}: unsupported: {e}")
    print(f"{len(items)} calculated formulas, {total} interleavings of a history sync: {fails} failures")
    sys.exit(1 if fails else 0)


main()
