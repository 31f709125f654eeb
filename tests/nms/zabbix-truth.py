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
base = min(sets)
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


def count(t, cpu, metric):
    s = sets[t + base]
    if cpu is None:
        return sum(v for (c, m), v in s.items() if m == metric)
    return s[(cpu, metric)]


def truth(key, a, b):
    m = re.fullmatch(r"hwr10k\.(cpu\.)?(events|stat)\[(?:(\d+),)?([^\]]+)\]", key)
    cpu = int(m.group(3)) if m.group(3) is not None else None
    d = lambda metric: count(b, cpu, metric) - count(a, cpu, metric)
    if m.group(2) == "events":
        return d(m.group(4)) * 1e9 / (b - a)
    if m.group(4) == "ipc":
        return d("grad.instrg") / d("cycles")
    raise SystemExit(f"FAIL: no truth for {key}")


n, worst, bad = 0, 0.0, 0
for key, values in hist["items"].items():
    for v in values:
        before = [r for r in readings if r[0] <= stamp(v)]
        pairs = [(before[i - 1][1], before[i][1]) for i in range(max(1, len(before) - 3), len(before))]
        if not pairs:
            print(f"FAIL: {key} = {v[2]} stored before two readings of the counting time")
            bad += 1
            continue
        errs = [abs(float(v[2]) - truth(key, a, b)) / truth(key, a, b) * 100 for a, b in pairs]
        err = min(errs)
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
print(f"{n} values of {len(hist['items'])} items over {len(readings)} readings, worst {worst:.4f} %"
      + (f"; {bad} off by more than {limit} %" if bad else ""))
sys.exit(1 if bad else 0)
