#!/usr/bin/python3
"""varying-replay.py FILE INTERVAL SECONDS SEED [CPUS [GROUPS [OUTLIER]]]:
write a replay recording (doc/replay-format.md) of CPUS R10000 CPUs (rev
3.4, default 2) in GROUPS groups (`group nodeN` lines, CPUs split evenly
in order; default none) whose rates change at every set: cycles 1 to 5
M/s, and instructions per cycle, loads and stores
per instruction, primary misses per access, secondary misses per primary
miss, branches per instruction and mispredictions per branch each drawn on
its own, per set and CPU, so that every rate and every ratio varies.  Sets
INTERVAL seconds apart (give or take 20 ms, as a real poller's are, kept
in nanoseconds) for SECONDS seconds; the same SEED writes the same file.
CPU OUTLIER (default none) is far from its group: 1 to 2.5 M cycles/s
at 3 to 4 instructions a cycle (the others 0.2 to 2), so that it is the
CPU furthest from its group's IPC over any window (a console's top-N).
The truth is in the file: TIME and each counter's reading per set."""
import random
import sys

METRICS = ["cycles", "grad.instrg", "grad.loadg", "grad.storeg",
           "pcache.dmiss", "scache.dmiss", "issue.brd", "fail.brmp"]


def set_counts(rng, seconds, outlier=False):
    """One CPU's events in one set of SECONDS seconds, by metric (the same
    draws for an OUTLIER, scaled to its ranges)."""
    if outlier:
        cyc = rng.uniform(1e6, 2.5e6) * seconds
        ins = cyc * rng.uniform(3.0, 4.0)
    else:
        cyc = rng.uniform(1e6, 5e6) * seconds
        ins = cyc * rng.uniform(0.2, 2.0)
    loads = ins * rng.uniform(0.1, 0.4)
    stores = ins * rng.uniform(0.05, 0.2)
    pmiss = (loads + stores) * rng.uniform(0.005, 0.05)
    smiss = pmiss * rng.uniform(0.05, 0.5)
    brd = ins * rng.uniform(0.05, 0.2)
    brmp = brd * rng.uniform(0.01, 0.1)
    return dict(zip(METRICS, (cyc, ins, loads, stores, pmiss, smiss,
                              brd, brmp)))


def main():
    if not 5 <= len(sys.argv) <= 8:
        sys.exit("usage: varying-replay.py FILE INTERVAL SECONDS SEED "
                 "[CPUS [GROUPS [OUTLIER]]]")
    path, interval, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(int(sys.argv[4]))
    cpus = range(int(sys.argv[5]) if len(sys.argv) > 5 else 2)
    groups = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    outlier = int(sys.argv[7]) if len(sys.argv) > 7 else -1
    value = {(cpu, m): rng.randrange(10**6, 10**9)
             for cpu in cpus for m in METRICS}
    t_ns = 0
    with open(path, "w", encoding="ascii") as out:
        out.write("# varying rates, %d CPUs, a set every %d s "
                  "(tests/nms/varying-replay.py)\n" % (len(cpus), interval))
        out.write("0 - hw.r10kevctr.cpurev 3.4\n")
        per = len(cpus) // groups if groups else 0
        for g in range(groups):
            out.write("group node%d %d-%d\n" % (g, g * per, g * per + per - 1))
        for k in range(seconds // interval + 1):
            if k:
                step = interval * 10**9 + rng.randrange(-2 * 10**7, 2 * 10**7)
                t_ns += step
                for cpu in cpus:
                    for m, n in set_counts(rng, step / 1e9,
                                           cpu == outlier).items():
                        value[cpu, m] += round(n)
            for cpu in cpus:
                for m in METRICS:
                    out.write("%d.%09d %d hw.r10kevctr.%s %d\n" % (
                        t_ns // 10**9, t_ns % 10**9, cpu, m, value[cpu, m]))


if __name__ == "__main__":
    main()
