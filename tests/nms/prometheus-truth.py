#!/usr/bin/python3
"""prometheus-truth.py [--report] API SECONDS MAXPCT INSTANCE=INTERVAL:RECORDING...

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
A recording may have gaps (a CPU without lines in some sets) and resets
(a counter lower than its last reading): a value's truth is defined only
when every CPU it covers (a CPU's own, its group's for its deviation from
the group, a group's, all for the totals) is in every set from the
window's first scrape to its last and none of its counters was reset
after the first.  Then, per job, host and scope, the values present and
absent at every rule evaluation whose window holds two scrapes of the
host, for every series the job ever had for it ("absent:" lines), and,
per CPU with a discontinuity, the other scopes' values in the windows
holding it ("local:" lines): gaps stay local.
Exit 1 when a value is more than MAXPCT % from the truth, a clock value is
not a set of the recording, a cell has fewer than 40 values, a value is
recorded where the truth is undefined or absent where it is defined (the
last two only counted with --report)."""
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
        self.cpus = sorted({c for v in self.values for c, _ in v})
        base = self.times[0]
        self.set_at = {t - base: k for k, t in enumerate(self.times)}
        # The CPUs of each set, and those with a counter that went back
        # there (a reset); then each cell carried forward: a CPU away
        # keeps its counts in the sums (its truth is undefined anyway).
        self.present = [{c for c, _ in v} for v in self.values]
        self.reset = [set() for _ in self.values]
        last = {}
        for k, v in enumerate(self.values):
            self.reset[k] = {c for cm, x in v.items()
                             if cm in last and x < last[cm] for c in cm[:1]}
            last.update(v)
            self.values[k] = dict(last)

    def broken(self, a, b, cpus=None):
        """The CPUs of CPUS (None: all) with a discontinuity between
        sets A and B: away from a set A..B, or a counter reset in a set
        after A up to B."""
        cpus = set(self.cpus if cpus is None else cpus)
        out = set()
        for k in range(a, b + 1):
            out |= cpus - self.present[k]
            if k > a:
                out |= cpus & self.reset[k]
        return out

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
        self.errors, self.undefined = [], []

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

    def scope(self, kind, m):
        """The CPUs whose counts a series' value needs (None: all): a
        CPU's, a group's, the totals'; a CPU's deviation its group's."""
        rec = self.hosts[m["instance"]][1]
        if "cpu" in m:
            cpu = int(m["cpu"])
            return rec.group_of(cpu) if kind == "ipc_dev" else [cpu]
        return rec.groups[m["group"]] if "group" in m else None

    def deviations(self, kind, m, vals, window_ms=300000, full=False,
                   strict=False):
        """[(job, inst, deviation in %)] of a series' values where the
        truth is defined (with strict, the others are noted in
        self.undefined)."""
        job, inst = m["job"], m["instance"]
        cpu = [int(m["cpu"])] if "cpu" in m else \
            self.hosts[inst][1].groups[m["group"]] if "group" in m else None
        out = []
        for ms, v in vals:
            ab = self.span(job, inst, ms, window_ms, full)
            if ab is None:
                continue
            rec = self.hosts[inst][1]
            gone = rec.broken(ab[0], ab[1], self.scope(kind, m))
            if gone:
                if strict:
                    self.undefined.append(
                        "%s at %.3f: a value across CPU %s's discontinuity "
                        "(sets %d..%d)" % (m, ms / 1000, ",".join(
                            map(str, sorted(gone))), ab[0], ab[1]))
                continue
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
            for d in judge.deviations(kind, m, vals, strict=True):
                new.append(d)
                if d[2] > maxpct:
                    bad.append("%s %s: %.4f %%" % (rule, m, d[2]))
    return new, bad


def judge_absent(api, judge, sel, now, seconds):
    """Gaps stay local: at every rule evaluation (the times of the span
    rules' samples, any host) whose 5m window holds two scrapes of a
    host, each series a job made of a rule for it (the label sets it
    ever had) is expected where its truth is defined.  Returns
    {(job, inst): {scope: [present, absent, absent where undefined]}},
    {(job, inst): {discontinuity: [present, absent]}} (the values of the
    scopes without the CPU, in windows holding its discontinuity), and
    the absent values where defined, described."""
    evals = sorted({ms for _, vals in samples(
        api, '{__name__=~"instance:hw_r10kevctr_c[a-z]*_seconds:span5m"}',
        now, seconds) for ms, _ in vals})
    tally, local, missing = {}, {}, []
    for rule, (kind, _) in RULES.items():
        for m, vals in samples(api, "%s{%s}" % (rule, sel), now, seconds):
            job, inst = m["job"], m["instance"]
            rec, have = judge.hosts[inst][1], {ms for ms, _ in vals}
            scope = judge.scope(kind, m)
            name = "CPU %s" % m["cpu"] if "cpu" in m else \
                "group %s" % m["group"] if "group" in m else "totals"
            for ms in evals:
                ab = judge.span(job, inst, ms, 300000, False)
                if ab is None:
                    continue
                gone = rec.broken(ab[0], ab[1])
                cell = tally.setdefault((job, inst), {}).setdefault(
                    name, [0, 0, 0])
                if gone & set(rec.cpus if scope is None else scope):
                    cell[2] += ms not in have
                    continue
                cell[0 if ms in have else 1] += 1
                if ms not in have:
                    missing.append("%s%s at %.3f: absent where defined "
                                   "(sets %d..%d)" % (rule, {
                                       k: v for k, v in m.items()
                                       if k != "__name__"}, ms / 1000,
                                       ab[0], ab[1]))
                for d in gone:
                    what = [w for w, on in (
                        ("gaps", any(d not in p for p in rec.present)),
                        ("reset", any(d in r for r in rec.reset))) if on]
                    loc = local.setdefault((job, inst), {}).setdefault(
                        "CPU %d's %s" % (d, " and ".join(what)), [0, 0])
                    loc[0 if ms in have else 1] += 1
    return tally, local, missing


def absent_lines(hosts, tally, local):
    """The counts, a line per job and host."""
    out = []
    for (job, inst), scopes in sorted(tally.items()):
        def key(name):
            return (name[0] != "C", name)
        rec = hosts[inst][1]
        gaps = " (with discontinuities)" if rec.broken(
            0, len(rec.times) - 1) else ""
        out.append("absent: pollInterval %d s, job %s, host %s%s: where the "
                   "truth is defined, %s" % (
                       hosts[inst][0], job, inst, gaps, "; ".join(
                           "%s %d present, %d absent (%d absent where "
                           "undefined)" % ((n,) + tuple(c))
                           for n, c in sorted(scopes.items(),
                                              key=lambda x: key(x[0])))))
        for d, (yes, no) in sorted(local.get((job, inst), {}).items()):
            out.append("local: pollInterval %d s, job %s, host %s%s: %s: the "
                       "values of the scopes without it in windows holding "
                       "them: %d present, %d absent" % (
                           hosts[inst][0], job, inst, gaps, d, yes, no))
    return out


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
    argv = sys.argv[1:]
    report = argv[:1] == ["--report"]
    argv = argv[report:]
    if len(argv) < 4:
        sys.exit(__doc__)
    api, seconds, maxpct = argv[0], int(argv[1]), float(argv[2])
    hosts = {}
    for arg in argv[3:]:
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
    tally, local, missing = judge_absent(api, judge, sel, now, seconds)
    for line in absent_lines(hosts, tally, local):
        print(line)
    print("%s: %d values absent where the truth is defined, %d recorded "
          "where it is not (across a discontinuity of their CPUs)" % (
              "report" if report else "ok" if not (
                  missing or judge.undefined) else "FAIL",
              len(missing), len(judge.undefined)))
    if not report:
        fails += missing[:20] + judge.undefined[:20]
    for e in fails:
        print("FAIL: " + e)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
