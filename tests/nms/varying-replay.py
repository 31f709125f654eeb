#!/usr/bin/python3
"""varying-replay.py [--gap CPU:SET:N]... [--reset CPU:SET[:METRIC]]...
FILE INTERVAL SECONDS SEED [CPUS [GROUPS [OUTLIER]]]:
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
--gap CPU:SET:N leaves CPU out of N sets from set SET (0 the first):
it has no line there (doc/replay-format.md: it leaves the table, a
discontinuity) and returns with what it counted meanwhile.  --reset
CPU:SET[:METRIC] restarts CPU's METRIC (default cycles) from zero at set
SET: its reading there is what it counted in that set alone, lower than
the one before (a reset, with the default replayCounterWidth 64).
Neither draws a random number: without them the file is what it was.
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


def options(argv):
    """The --gap and --reset options, and the other arguments:
    ({(cpu, set)} absent, {(cpu, set): metric} reset, args)."""
    away, reset, args = set(), {}, []
    it = iter(argv)
    for a in it:
        if a in ("--gap", "--reset"):
            f = next(it, "").split(":")
            if a == "--gap" and len(f) == 3:
                cpu, first, n = map(int, f)
                away |= {(cpu, k) for k in range(first, first + n)}
            elif a == "--reset" and len(f) in (2, 3):
                reset[int(f[0]), int(f[1])] = (f + ["cycles"])[2]
            else:
                sys.exit("varying-replay.py: %s %s" % (a, ":".join(f)))
        else:
            args.append(a)
    return away, reset, args


def main():
    away, reset, argv = options(sys.argv[1:])
    if not 4 <= len(argv) <= 7:
        sys.exit("usage: varying-replay.py [--gap CPU:SET:N]... "
                 "[--reset CPU:SET[:METRIC]]... FILE INTERVAL SECONDS SEED "
                 "[CPUS [GROUPS [OUTLIER]]]")
    path, interval, seconds = argv[0], int(argv[1]), int(argv[2])
    rng = random.Random(int(argv[3]))
    cpus = range(int(argv[4]) if len(argv) > 4 else 2)
    groups = int(argv[5]) if len(argv) > 5 else 0
    outlier = int(argv[6]) if len(argv) > 6 else -1
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
                        if reset.get((cpu, k)) == m:
                            if round(n) >= value[cpu, m]:
                                sys.exit("varying-replay.py: the reset of "
                                         "CPU %d's %s at set %d would not go "
                                         "back: a later set" % (cpu, m, k))
                            value[cpu, m] = round(n)
                        else:
                            value[cpu, m] += round(n)
            for cpu in cpus:
                if (cpu, k) in away:
                    continue
                for m in METRICS:
                    out.write("%d.%09d %d hw.r10kevctr.%s %d\n" % (
                        t_ns // 10**9, t_ns % 10**9, cpu, m, value[cpu, m]))


if __name__ == "__main__":
    main()
