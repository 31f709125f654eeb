#!/usr/bin/python3
"""prometheus-truth.py API SECONDS MAXPCT INSTANCE=INTERVAL:RECORDING...

Judges every value the recording rules of conf/prometheus recorded in the
last SECONDS seconds for the INSTANCEs, each an agent replaying RECORDING
(tests/nms/varying-replay.py) every INTERVAL seconds, against the truth
computed from the recording: per CPU, per group (the recording's `group`
lines: the sum of its CPUs) and summed over all CPUs.  A rule value at time T covers the scrapes
in its 5m window [T-5m, T] (Prometheus 2.x's ranges hold both ends): the
raw samples of hw_r10kevctr_counting_nanoseconds_total there say which
sets of the recording its first and last scrape saw (the clock is the
set's TIME minus the first set's), and the truth is the recording's
events between those sets over the time between them.  A CPU's deviation
from its group's IPC (the CPU's IPC less the group's CPUs') is judged
against the group's IPC, as a deviation near 0 has no relative error.  Prints, per job
and instance, the values judged and the worst and mean deviation, and the
same for what rate() of the counters makes of the same scrapes, over 2m
windows that start after the first scrape (the run is shorter than 5m).
Exit 1 when a value is more than MAXPCT % from the truth, a clock value is
not a set of the recording, or a cell has fewer than 40 values."""
import json
import sys
import time
import urllib.parse
import urllib.request

EVENTS = {"Cycles": "cycles", "GradInstrg": "grad.instrg",
          "GradLoadg": "grad.loadg", "GradStoreg": "grad.storeg",
          "PcacheDmiss": "pcache.dmiss", "ScacheDmiss": "scache.dmiss",
          "IssueBrd": "issue.brd", "FailBrmp": "fail.brmp"}
# rule -> (kind, per CPU or group); the series' cpu or group label says
# which CPUs the truth sums
RULES = {
    "instance_cpu_event:hw_r10kevctr_events:rate5m": ("events", True),
    "instance_group_event:hw_r10kevctr_events:rate5m": ("events", True),
    "instance_event:hw_r10kevctr_events:rate5m": ("events", False),
    "instance:hw_r10kevctr_ipc:ratio_rate5m": ("ipc", False),
    "instance_group:hw_r10kevctr_ipc_of_cpus:ratio_rate5m": ("ipc", True),
    "instance_cpu:hw_r10kevctr_ipc:deviation_group_rate5m":
        ("ipc_dev", True),
}
for _scope in ("cpu", "group"):
    for _kind, _name in (("ipc", "ipc"), ("pcache", "pcache_dmiss"),
                         ("scache", "scache_dmiss"),
                         ("branch", "branch_mispredict")):
        RULES["instance_%s:hw_r10kevctr_%s:ratio_rate5m" % (_scope, _name)] \
            = (_kind, True)
RATIOS = {"ipc": (["GradInstrg"], ["Cycles"]),
          "pcache": (["PcacheDmiss"], ["GradLoadg", "GradStoreg"]),
          "scache": (["ScacheDmiss"], ["PcacheDmiss"]),
          "branch": (["FailBrmp"], ["IssueBrd"])}


def old_exprs(sel, window):
    """The rules as PromQL over rate() of the counters, over WINDOW:
    {(kind, per_cpu): expr}.  (0.1.x's rules, avg_over_time of the
    agent's per-poll rates, are not judged any more: the shipped modules
    no longer walk those rates.)"""
    forms = {
        "rate()": lambda cpu, e: "rate(hw_r10kevctr_%sevents_total{%s%s}"
        "[%s])" % ("cpu_" if cpu else "", sel, e, window),
    }
    out = {}
    for name, f in forms.items():
        def ev(cpu, e):
            return f(cpu, 'event="%s"' % e)
        out[name] = {("events", True): f(True, ""),
                     ("events", False): f(False, "")}
        for kind, (num, den) in RATIOS.items():
            d = " + ignoring(event) ".join(ev(True, e) for e in den)
            out[name][kind, True] = "%s / ignoring(event) (%s)" % (
                ev(True, num[0]), d)
        out[name]["ipc", False] = "%s / ignoring(event) %s" % (
            ev(False, "GradInstrg"), ev(False, "Cycles"))
    return out


class Recording:
    """A replay file's sets: TIME (ns from the first set) and readings."""

    def __init__(self, path):
        self.times, self.values, self.groups = [], [], {}
        for line in open(path, encoding="ascii"):
            f = line.split()
            if f and f[0] == "group":
                lo, hi = (f[2].split("-") + [f[2]])[:2]
                self.groups[f[1]] = list(range(int(lo), int(hi) + 1))
                continue
            if not f or f[0].startswith("#") or f[1] == "-":
                continue
            s, ns = (f[0].split(".") + ["0"])[:2]
            t = int(s) * 10**9 + int(ns.ljust(9, "0"))
            if not self.times or self.times[-1] != t:
                self.times.append(t)
                self.values.append({})
            self.values[-1][int(f[1]), f[2][len("hw.r10kevctr."):]] = \
                int(f[3])
        self.cpus = sorted({c for c, _ in self.values[0]})
        base = self.times[0]
        self.set_at = {t - base: k for k, t in enumerate(self.times)}

    def events(self, a, b, cpus, event):
        """CPUS' EVENTs between sets A and B (CPUS: a list, or None for
        all)."""
        cpus = self.cpus if cpus is None else cpus
        m = EVENTS[event]
        return sum(self.values[b][c, m] - self.values[a][c, m] for c in cpus)

    def group_of(self, cpu):
        return next(c for c in self.groups.values() if cpu in c)

    def deviation(self, a, b, cpu):
        """CPU's IPC less its group's between sets A and B, and the
        group's IPC (the scale it is judged on)."""
        group = self.truth("ipc", a, b, self.group_of(cpu), None)
        return self.truth("ipc", a, b, [cpu], None) - group, group

    def truth(self, kind, a, b, cpu, event):
        if kind == "events":
            return self.events(a, b, cpu, event) * 1e9 / (
                self.times[b] - self.times[a])
        num, den = RATIOS[kind]
        return (sum(self.events(a, b, cpu, e) for e in num) /
                sum(self.events(a, b, cpu, e) for e in den))


def query(api, expr, **params):
    params["query"] = expr
    url = api + ("/query_range?" if "step" in params else "/query?") + \
        urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.load(r)["data"]["result"]


def samples(api, expr, now, seconds):
    """expr[SECONDS] at now: [(labels, [(ms, value)])]"""
    res = query(api, "%s[%ds]" % (expr, seconds), time=now)
    return [(s["metric"], [(round(float(t) * 1000), float(v))
                           for t, v in s["values"]]) for s in res]


class Judge:
    def __init__(self, api, now, seconds, hosts):
        self.hosts = hosts
        self.clock = {}
        sel = 'instance=~"%s"' % "|".join(hosts)
        for m, vals in samples(api, "hw_r10kevctr_counting_nanoseconds_total"
                               "{%s}" % sel, now, seconds + 300):
            self.clock[m["job"], m["instance"]] = vals
        self.errors = []

    def span(self, job, inst, ms, window_ms, full):
        """The sets the first and last scrape in [ms - window, ms] saw
        (with full: none unless the window starts after the first
        scrape, so that it holds nothing but scrapes)."""
        clock = self.clock.get((job, inst), [])
        if full and (not clock or ms - window_ms < clock[0][0]):
            return None
        c = [v for t, v in clock if ms - window_ms <= t <= ms]
        if len(c) < 2 or c[0] == c[-1]:
            return None
        rec = self.hosts[inst][1]
        a, b = rec.set_at.get(int(c[0])), rec.set_at.get(int(c[-1]))
        if a is None or b is None:
            self.errors.append("%s %s: clock %d or %d is no set's TIME" %
                               (job, inst, c[0], c[-1]))
            return None
        return a, b

    def deviations(self, kind, m, vals, window_ms=300000, full=False):
        """[(job, inst, deviation in %)] of a series' values."""
        job, inst = m["job"], m["instance"]
        cpu = [int(m["cpu"])] if "cpu" in m else \
            self.hosts[inst][1].groups[m["group"]] if "group" in m else None
        out = []
        for ms, v in vals:
            ab = self.span(job, inst, ms, window_ms, full)
            if ab is None:
                continue
            rec = self.hosts[inst][1]
            if kind == "ipc_dev":
                want, scale = rec.deviation(ab[0], ab[1], cpu[0])
            else:
                want = scale = rec.truth(kind, ab[0], ab[1], cpu,
                                         m.get("event"))
            out.append((job, inst, abs(v - want) / scale * 100))
        return out


def cells(devs):
    c = {}
    for job, inst, d in devs:
        c.setdefault((job, inst), []).append(d)
    return c


def summary(devs):
    if not devs:
        return "no values"
    return "worst %.4f %% (mean %.4f %%, %d values)" % (
        max(devs), sum(devs) / len(devs), len(devs))


def judge_rules(api, judge, sel, now, seconds, maxpct):
    """The recorded rules' deviations, and the values beyond MAXPCT."""
    new, bad = [], []
    for rule, (kind, _) in RULES.items():
        for m, vals in samples(api, "%s{%s}" % (rule, sel), now, seconds):
            for d in judge.deviations(kind, m, vals):
                new.append(d)
                if d[2] > maxpct:
                    bad.append("%s %s: %.4f %%" % (rule, m, d[2]))
    return new, bad


def judge_old(api, judge, sel, now, seconds):
    """The other forms' deviations by name, by cell.  The run is shorter
    than 5m: over 2m windows that hold only scrapes (rate() would divide
    a partial window's counts by the whole window's time)."""
    old = {}
    for name, exprs in old_exprs(sel + ",", "2m").items():
        old[name] = []
        for kind_cpu, expr in exprs.items():
            for s in query(api, expr, start=now - seconds, end=now, step=15):
                vals = [(round(float(t) * 1000), float(v))
                        for t, v in s["values"]]
                old[name] += judge.deviations(kind_cpu[0], s["metric"], vals,
                                              120000, True)
    return {name: cells(d) for name, d in old.items()}


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    api, seconds, maxpct = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    hosts = {}
    for arg in sys.argv[4:]:
        inst, spec = arg.split("=", 1)
        iv, path = spec.split(":", 1)
        hosts[inst] = (int(iv), Recording(path))
    now = time.time()
    judge = Judge(api, now, seconds, hosts)
    sel = 'instance=~"%s"' % "|".join(hosts)
    new, bad = judge_rules(api, judge, sel, now, seconds, maxpct)
    new = cells(new)
    old = judge_old(api, judge, sel, now, seconds)
    fails = list(judge.errors[:10] + bad[:20])
    for (job, inst), d in sorted(new.items()):
        print("ok: pollInterval %d s, job %s: %s from the recording; on "
              "the same scrapes over 2m, %s" % (
                  hosts[inst][0], job, summary(d), ", ".join(
                      "%s %s" % (name, summary(c.get((job, inst), [])))
                      for name, c in old.items())))
        if len(d) < 40:
            fails.append("job %s, host %s: %d values (too few to judge)" %
                         (job, inst, len(d)))
    if not judge.clock:
        fails.append("no hw_r10kevctr_counting_nanoseconds_total")
    fails += ["job %s, host %s: no recorded value" % k
              for k in judge.clock if k not in new]
    for e in fails:
        print("FAIL: " + e)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
