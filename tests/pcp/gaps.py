#!/usr/bin/python3
"""Readings with gaps and resets, and what the agent must serve for them.

  gaps.py write DIR     writes DIR/gaps (a PCP archive, with pcp.pmi),
                        DIR/gaps.replay (the same readings) and
                        DIR/truth (the served values each poll must have)
  gaps.py span DIR      writes DIR/span.replay and DIR/span.truth: resets
                        of one CPU while another has no reading (no
                        pcp.pmi needed)
  gaps.py span-archive DIR
                        writes DIR/span, the same readings as a PCP
                        archive (pcp.pmi)
  gaps.py grown DIR     writes DIR/grown, an archive whose instance
                        domain grows without a mark, and DIR/grown.truth
  gaps.py check TRUTH SAMPLES
                        compares what the agent served (lines of
                        'OBJECT = VALUE' from snmpget -OQs, one GET per
                        line group, each with hwR10kEvCtrPolls.0) with
                        the truth; exit 1 with every difference listed

The truth is computed here from the readings alone, by the rules of
doc/pcp.md and doc/replay-format.md: a cell's rate is its delta since its
last reading over the time since; no rate where it has no reading, at
its first, or where it went backwards (a restart from zero: the new
reading is what it counted since).  A sum or a statistic has a value
only where all its inputs were read, over the time since the last record
where they all were, and none where an input restarted in between.
"""
import sys

CPUS = (0, 1)
T0 = 1000000000  # seconds: 2001-09-09, as tests/pcp/replay2archive.c
STEP = 1
RECORDS = 8


def readings():
    """{record: {(metric, cpu): raw}}: CPU 0's cycles restart at record 4
    (from 4000 to 5); grad.instrg is logged only in even records (as
    pmlogger logs metric groups at different intervals) on both CPUs;
    CPU 1 counts steadily, at other rates."""
    data = {}
    for k in range(RECORDS):
        rec = {}
        rec[("cycles", 0)] = 1000 * k if k < 4 else 5 + 1000 * (k - 4)
        rec[("cycles", 1)] = 3000 * k
        if k % 2 == 0:
            rec[("grad.instrg", 0)] = 250 * k * k  # IPC changes each pair
            rec[("grad.instrg", 1)] = 1500 * k
        data[k] = rec
    return data


def span_readings():
    """Resets of CPU 0's cycles while CPU 1 has no cycles (issue 38): at
    the same record (2: the sets of the issue, 1000 2000 7 1007 and 1000
    2000 - 4000), while CPU 1 waits since the record before (6), and at
    a record after which CPU 0 has none (9, 10).  A record's CPU without
    cycles and instructions has only its tlb reading."""
    rows = ((1000, 500, 1000, 400), (2000, 1000, 2000, 800),
            (7, 1500, None, None), (1007, 2000, 4000, 1600),
            (2007, 2500, 5000, 2000), (3007, 3000, None, None),
            (5, 3500, None, None), (1005, 4000, 8000, 3200),
            (2005, 4500, 9000, 3600), (9, 5000, None, None),
            (None, None, 11000, 4400), (2009, 6000, 12000, 4800),
            (3009, 6500, 13000, 5200))
    cells = (("cycles", 0), ("grad.instrg", 0), ("cycles", 1),
             ("grad.instrg", 1))
    data = {}
    for k, row in enumerate(rows):
        rec = {("tlb", 0): 10 * k, ("tlb", 1): 20 * k}
        for cell, raw in zip(cells, row):
            if raw is not None:
                rec[cell] = raw
        data[k] = rec
    return data


def served(data):
    """The served count of each cell per record (restart: + the new
    reading), its rate, and which records read / reset it."""
    count, read, reset = {}, {}, {}
    last = {}
    for k in range(len(data)):
        for cell, raw in data[k].items():
            prev = last.get(cell)
            c = count.get((cell, k - 1), 0) if prev is not None else 0
            if prev is None:
                c = 0
            elif raw < prev[1]:
                c = c + raw
                reset[(cell, k)] = True
            else:
                c = c + raw - prev[1]
            last[cell] = (k, raw)
            count[(cell, k)] = c
            read[(cell, k)] = True
        for cell in last:  # unread cells hold their count
            if (cell, k) not in count:
                count[(cell, k)] = count.get((cell, k - 1), 0)
    return count, read, reset


def span_value(cells, k, count, read, reset):
    """The deltas of cells (all read at k) since the last record j < k
    where all were read, or None: (deltas, seconds)."""
    if not all((c, k) in read for c in cells):
        return None
    j = k - 1
    while j >= 0 and not all((c, j) in read for c in cells):
        j -= 1
    if j < 0:
        return None
    if any((c, i) in reset for c in cells for i in range(j + 1, k + 1)):
        return None
    # a first reading in between (no base) also voids: none here
    return [count[(c, k)] - count[(c, j)] for c in cells], (k - j) * STEP


def truth(data):
    count, read, reset = served(data)
    out = {}
    for k in range(len(data)):
        t = {}
        for m, obj in (("cycles", "Cycles"), ("grad.instrg", "GradInstrg")):
            for cpu in CPUS:
                v = span_value([(m, cpu)], k, count, read, reset)
                t["hwR10kEvCtrCpuRate%s.%d" % (obj, cpu)] = (
                    None if v is None else v[0][0] // v[1])
                t["hwR10kEvCtrCpu%s.%d" % (obj, cpu)] = count[((m, cpu), k)]
            v = span_value([(m, c) for c in CPUS], k, count, read, reset)
            t["hwR10kEvCtrRate%s.0" % obj] = (
                None if v is None else sum(v[0]) // v[1])
            t["hwR10kEvCtr%s.0" % obj] = sum(count[((m, c), k)] for c in CPUS)
        for cpu in CPUS:
            v = span_value([("grad.instrg", cpu), ("cycles", cpu)], k,
                           count, read, reset)
            t["hwR10kEvCtrCpuStatIpc.%d" % cpu] = (
                None if v is None or v[0][1] == 0
                else v[0][0] * 1000 // v[0][1])
        v = span_value([("grad.instrg", c) for c in CPUS] +
                       [("cycles", c) for c in CPUS], k, count, read, reset)
        t["hwR10kEvCtrStatIpc.0"] = (
            None if v is None
            else sum(v[0][:2]) * 1000 // sum(v[0][2:]))
        # a restart is a discontinuity (a missing reading is not)
        t["reset"] = any(key[1] == k for key in reset)
        out[k + 1] = t  # the agent's poll k + 1 serves record k
    return out


def write_replay(path, data):
    with open(path, "w") as rp:
        for k in range(len(data)):
            for (m, cpu), raw in sorted(data[k].items()):
                rp.write("%d %d hw.r10kevctr.%s %d\n" % (k * STEP, cpu, m, raw))


def write_truth(path, data):
    with open(path, "w") as f:
        for poll, t in sorted(truth(data).items()):
            for obj, v in sorted(t.items()):
                f.write("%d %s %s\n" % (poll, obj, "-" if v is None else v))


def write_archive(path, data):
    """The readings as a PCP archive (one per process: see
    write_renamed)."""
    from pcp import pmi
    import cpmapi as api
    log = pmi.pmiLogImport(path)
    log.pmiSetHostname("gaps")
    log.pmiSetTimezone("UTC")
    indom = log.pmiInDom(1, 35)
    units = log.pmiUnits(0, 0, 1, 0, 0, api.PM_COUNT_ONE)
    item = {"cycles": 0, "grad.instrg": 1, "tlb": 2}
    for m in sorted({m for rec in data.values() for m, _ in rec}):
        log.pmiAddMetric("hw.r10kevctr." + m, log.pmiID(1, 35, item[m]),
                         api.PM_TYPE_U64, indom, api.PM_SEM_COUNTER, units)
    for cpu in CPUS:
        log.pmiAddInstance(indom, "cpu%d" % cpu, cpu)
    for k in range(len(data)):
        for (m, cpu), raw in sorted(data[k].items()):
            log.pmiPutValue("hw.r10kevctr." + m, "cpu%d" % cpu, str(raw))
        log.pmiWrite(T0 + k * STEP, 0)
    log.pmiEnd()


def write(d):
    data = readings()
    write_archive(d + "/gaps", data)
    write_replay(d + "/gaps.replay", data)
    write_truth(d + "/truth", data)


PARTS = ((["cpu0", "cpu1"], 0, [[1000, 2000], [2000, 4000], [3000, 6000]]),
         (["cpu1", "cpu0"], 3, [[8000, 4000], [10000, 5000], [12000, 6000]]))


def cycles_archive(path):
    """A new archive at PATH (one per process: see write_renamed) with
    hw.r10kevctr.cycles over the CPU instance domain: (log, indom)."""
    from pcp import pmi
    import cpmapi as api
    log = pmi.pmiLogImport(path)
    log.pmiSetHostname("gaps")
    log.pmiSetTimezone("UTC")
    indom = log.pmiInDom(1, 35)
    log.pmiAddMetric("hw.r10kevctr.cycles", log.pmiID(1, 35, 0),
                     api.PM_TYPE_U64, indom, api.PM_SEM_COUNTER,
                     log.pmiUnits(0, 0, 1, 0, 0, api.PM_COUNT_ONE))
    return log, indom


def write_part(d, n):
    """Archive DIR/partN of PARTS: instances 0 and 1 named as listed."""
    names, t, rows = PARTS[n]
    log, indom = cycles_archive("%s/part%d" % (d, n))
    for inst, name in enumerate(names):
        log.pmiAddInstance(indom, name, inst)
    for k, row in enumerate(rows):
        for inst, name in enumerate(names):
            log.pmiPutValue("hw.r10kevctr.cycles", name, str(row[inst]))
        log.pmiWrite(T0 + t + k, 0)
    log.pmiEnd()


def write_renamed(d):
    """Two archives whose instances 0 and 1 swap names (cpu0, cpu1 then
    cpu1, cpu0), to be joined by pmlogextract; DIR/renamed.truth: each
    CPU's count at the end (the join's <mark> restarts counting).  One
    process per archive: python3-pcp 6.0 crashes on a second
    pmiLogImport in one process."""
    import subprocess
    counts = {}
    for n, (names, _, rows) in enumerate(PARTS):
        subprocess.run([sys.executable, __file__, "part", str(n), d],
                       check=True)
        for inst, name in enumerate(names):
            counts[name] = counts.get(name, 0) + rows[-1][inst] - rows[0][inst]
    with open(d + "/renamed.truth", "w") as f:
        for name in sorted(counts):
            f.write("%s %d\n" % (name[3:], counts[name]))


def write_grown(d):
    """DIR/grown: one archive (cycles and grad.instrg) whose instance
    domain grows at record 3 (cpu1 comes online, as pmlogger records a
    CPU hot-added), with no
    mark: the agent learns the new instance from the archive's instance
    domain at that record.  DIR/grown.truth: each CPU's count at the end
    (a CPU counts from its first reading)."""
    import cpmapi as api
    log, indom = cycles_archive(d + "/grown")
    # a second metric on the same domain: the change is said once, not
    # once per metric
    log.pmiAddMetric("hw.r10kevctr.grad.instrg", log.pmiID(1, 35, 1),
                     api.PM_TYPE_U64, indom, api.PM_SEM_COUNTER,
                     log.pmiUnits(0, 0, 1, 0, 0, api.PM_COUNT_ONE))
    log.pmiAddInstance(indom, "cpu0", 0)
    seen = {}
    for k in range(6):
        if k == 3:
            log.pmiAddInstance(indom, "cpu1", 1)
        cells = {"cpu0": 1000 * (k + 1)}
        if k >= 3:
            cells["cpu1"] = 70000 + 300 * k
        for name, v in cells.items():
            log.pmiPutValue("hw.r10kevctr.cycles", name, str(v))
            log.pmiPutValue("hw.r10kevctr.grad.instrg", name, str(2 * v))
            seen.setdefault(name, []).append(v)
        log.pmiWrite(T0 + 100 + k, 0)
    log.pmiEnd()
    with open(d + "/grown.truth", "w") as f:
        for name in sorted(seen):
            f.write("%s %d\n" % (name[3:], seen[name][-1] - seen[name][0]))


def check(truth_file, samples_file):
    want = {}
    for line in open(truth_file):
        poll, obj, v = line.split()
        want.setdefault(int(poll), {})[obj] = v
    got, cur = {}, {}
    for line in open(samples_file):
        line = line.strip()
        if line == "--":
            if "hwR10kEvCtrPolls.0" in cur:
                got.setdefault(int(cur["hwR10kEvCtrPolls.0"]), cur)
            cur = {}
            continue
        if " = " not in line:
            continue
        obj, v = line.split(" = ", 1)
        v = v.strip()
        if "No Such Instance" in v:
            v = "-"
        elif "." in v:  # a DISPLAY-HINT "d-3" value: 0.769 is 769
            v = str(int(v.replace(".", "")))
        cur[obj] = v
    # A poll a loaded machine let pass unsampled (a GET slower than the
    # poll interval) is not compared: every poll that was seen is, and a
    # reset at an unseen poll must show at the next seen one.  At least
    # half the polls must be seen, or nothing was tested.
    bad, compared, unseen, pending = [], 0, 0, False
    last_disc = None
    for poll in sorted(want):
        if poll not in got:
            unseen += 1
            pending = pending or want[poll].get("reset") == "True"
            continue
        g = got[poll]
        for obj, v in sorted(want[poll].items()):
            if obj == "reset":
                disc = g.get("hwR10kEvCtrDiscontinuityTime.0")
                moved = last_disc is not None and disc != last_disc
                reset = v == "True" or pending
                if poll > 1 and last_disc is not None and moved != reset:
                    bad.append("poll %d: discontinuity time %s -> %s, "
                               "a reset since the last poll seen: %s"
                               % (poll, last_disc, disc, reset))
                last_disc, pending = disc, False
                continue
            compared += 1
            if g.get(obj) != v:
                bad.append("poll %d: %s served %s, truth %s"
                           % (poll, obj, g.get(obj), v))
    if unseen * 2 > len(want):
        bad.append("%d of %d polls were never seen" % (unseen, len(want)))
    for b in bad:
        print("MISMATCH: " + b)
    print("%d values compared over %d polls (%d not seen), %d mismatches"
          % (compared, len(want) - unseen, unseen, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
        write_renamed(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "span":
        write_replay(sys.argv[2] + "/span.replay", span_readings())
        write_truth(sys.argv[2] + "/span.truth", span_readings())
    elif len(sys.argv) == 3 and sys.argv[1] == "span-archive":
        write_archive(sys.argv[2] + "/span", span_readings())
    elif len(sys.argv) == 3 and sys.argv[1] == "grown":
        write_grown(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "part":
        write_part(sys.argv[3], int(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
