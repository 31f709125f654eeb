#!/usr/bin/python3
"""Zabbix's stored rates and ratios against the truth of a replay.

usage: zabbix-truth.py REPLAY HISTORY-JSON LIMIT-PERCENT

REPLAY is the recording the agent replays (doc/replay-format.md: a set per
poll, TIME the agent's clock).  HISTORY-JSON is {"time": [[clock, ns,
value], ...], "items": {KEY: [[clock, ns, value], ...]}}: the stored
values of hwr10k.counting.time and of the judged items, as the API gave
them.  The counting time names the sets: its value is the set's TIME less
the first set's (0 at the agent's first poll).  A calculated value stored
at a time covers two consecutive readings of the counting time stored
before then (the last, or one earlier if the newest was not yet synced
when Zabbix computed it): its truth is the events between those two sets
over their time.  Prints the number of values and the worst deviation;
exits 1 when a value is off by more than LIMIT-PERCENT, or a reading of
the counting time is no set's time.
"""
import bisect
import json
import re
import sys

replay, hist_file, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
sets = {}  # TIME in ns -> {(cpu, metric): value}
for line in open(replay):
    f = line.split()
    if len(f) != 4 or f[0].startswith("#") or f[1] == "-":
        continue
    s, _, frac = f[0].partition(".")
    ns = int(s) * 10**9 + int((frac + "000000000")[:9])
    sets.setdefault(ns, {})[(int(f[1]), f[2].replace("hw.r10kevctr.", ""))] = int(f[3])
groups = {}  # name -> [CPU, ...]
for line in open(replay):
    f = line.split()
    if len(f) == 3 and f[0] == "group":
        groups[f[1]] = [c for part in f[2].split(",")
                        for lo, hi in [(part.split("-") + [part])[:2]]
                        for c in range(int(lo), int(hi) + 1)]
# The CPUs of each set, then its cells carried forward: a CPU absent from
# a set keeps its counts in the sums.
present, carried = {}, {}
for ns in sorted(sets):
    present[ns] = {c for c, _ in sets[ns]}
    sets[ns] = {**carried, **sets[ns]}
    carried = sets[ns]
base = min(sets)
ordered = sorted(sets)
hist = json.load(open(hist_file))


def stamp(v):
    return (int(v[0]), int(v[1]))


readings = []  # distinct consecutive counting times, with their stamps
for v in sorted(hist["time"], key=stamp):
    t = int(v[2])
    if t + base not in sets:
        print(f"FAIL: counting time {t} ns is no set's time")
        sys.exit(1)
    if not readings or readings[-1][1] != t:
        readings.append((stamp(v), t))


def count(t, cpus, metric):
    s = sets[t + base]
    return sum(v for (c, m), v in s.items() if m == metric and (cpus is None or c in cpus))


def parse(key):
    """(scope, kind, the CPUs it sums or None for all, the event or
    statistic)"""
    m = re.fullmatch(r"hwr10k\.(cpu\.|group\.)?(events|stat)\[(?:([^,\]]+),)?([^\]]+)\]", key)
    if not m:
        raise SystemExit(f"FAIL: no truth for {key}")
    scope = (m.group(1) or "").rstrip(".")
    cpus = [int(m.group(3))] if scope == "cpu" else groups[m.group(3)] if scope == "group" else None
    return scope, m.group(2), cpus, m.group(4)


def gap_between(a, b, cpus):
    """Whether a set after A up to B changed which of CPUS (None: any)
    the recording has: a discontinuity between the readings."""
    ts = ordered[bisect.bisect_left(ordered, a + base):bisect.bisect_right(ordered, b + base)]
    pick = (lambda p: p) if cpus is None else (lambda p: p & set(cpus))
    return any(pick(present[x]) != pick(present[y]) for x, y in zip(ts, ts[1:]))


def guard_cpus(key):
    """The CPUs whose gap is a discontinuity of KEY's guard: a group's
    or a CPU's own, else every CPU (the agent's discontinuity time)."""
    scope, _, cpus, _ = parse(key)
    return cpus if scope in ("group", "cpu") else None


def truth(key, a, b):
    _, kind, cpus, what = parse(key)
    d = lambda metric: count(b, cpus, metric) - count(a, cpus, metric)
    if kind == "events":
        return d(what) * 1e9 / (b - a)
    if what == "ipc":
        return d("grad.instrg") / d("cycles")
    raise SystemExit(f"FAIL: no truth for {key}")


n, worst, bad = 0, 0.0, 0
matched = {}  # key -> the pairs of readings its values were matched to
for key, values in hist["items"].items():
    for v in values:
        before = [r for r in readings if r[0] <= stamp(v)]
        pairs = [(before[i - 1][1], before[i][1]) for i in range(max(1, len(before) - 3), len(before))]
        if not pairs:
            print(f"FAIL: {key} = {v[2]} stored before two readings of the counting time")
            bad += 1
            continue
        # A pair holding a discontinuity of the value's guard has no value.
        clean = [(a, b) for a, b in pairs if not gap_between(a, b, guard_cpus(key))]
        if not clean:
            print(f"FAIL: {key} = {v[2]} at {v[0]}.{v[1]}: stored across a CPU's gap "
                  + ", ".join(f"({a / 1e9:.3f}..{b / 1e9:.3f} s)" for a, b in pairs))
            bad += 1
            continue
        pairs = clean
        errs = [abs(float(v[2]) - truth(key, a, b)) / truth(key, a, b) * 100 for a, b in pairs]
        err = min(errs)
        matched.setdefault(key, set()).add(pairs[errs.index(err)])
        n += 1
        worst = max(worst, err)
        if err > limit:
            bad += 1
            print(f"FAIL: {key} = {v[2]} at {v[0]}.{v[1]}: {err:.4f} % from the truth of the last pairs "
                  + ", ".join(f"{truth(key, a, b):.6g} ({a / 1e9:.3f}..{b / 1e9:.3f} s)" for a, b in pairs))
            # What Zabbix stored around it, to tell a mix from a pairing
            # this script did not consider.
            near = [r for r in hist["time"] if abs(int(r[0]) - int(v[0])) <= 45]
            print("  counting time stored around it: "
                  + ", ".join(f"{int(r[2]) / 1e9:.3f} s at {r[0]}.{r[1]}" for r in sorted(near, key=stamp)))
            after = [r for r in readings if r[0] > stamp(v)][:2]
            print("  the next pairs' truths: "
                  + ", ".join(f"{truth(key, a, b):.6g} ({a / 1e9:.3f}..{b / 1e9:.3f} s)"
                              for a, b in zip([before[-1][1]] + [r[1] for r in after], [r[1] for r in after])))
# Gaps stay local: for each group and each CPU with a gap, the pairs of
# readings that hold it, and the other groups' (CPUs') values stored for
# them.
local = []
steps = [(x[1], y[1]) for x, y in zip(readings, readings[1:])]
units = [("group", g, cpus) for g, cpus in groups.items()]
units += [("cpu", f"CPU {c}", [c]) for c in sorted({c for p in present.values() for c in p})]
for scope, g, cpus in units:
    # (from the first pair any value of the scope was matched to: before
    # it the new items' rates had not started)
    starts = [p[0] for key, ps in matched.items() if parse(key)[0] == scope for p in ps]
    held = [p for p in steps if gap_between(p[0], p[1], cpus) and starts and p[0] >= min(starts)]
    if not held:
        continue
    others = sum(1 for key, ps in matched.items() if parse(key)[0] == scope
                 and parse(key)[2] != cpus for p in ps if p in held)
    own = sum(1 for key, ps in matched.items() if parse(key)[2] == cpus for p in ps if p in held)
    local.append(f"{g}'s gap in {len(held)} pairs of readings: {own} of its values there, "
                 f"{others} of the other {scope}s'")
    if len(held) >= 2 and not others and any(parse(k)[0] == scope and parse(k)[2] != cpus for k in matched):
        print(f"FAIL: no other {scope}'s value for the {len(held)} pairs of readings holding {g}'s gap")
        bad += 1
print(f"{n} values of {len(hist['items'])} items over {len(readings)} readings, worst {worst:.4f} %"
      + "".join(f"; {x}" for x in local)
      + (f"; {bad} off by more than {limit} % or across a gap" if bad else ""))
sys.exit(1 if bad else 0)
