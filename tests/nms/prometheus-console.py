#!/usr/bin/python3
"""prometheus-console.py API CONSOLE JOB CPU_JOB INSTANCE=INTERVAL:RECORDING
OUTLIER

Judges conf/prometheus/consoles/hw-r10kevctr.html as Prometheus serves it
(CONSOLE: the page's URL, without parameters) for INSTANCE, an agent
replaying RECORDING (tests/nms/varying-replay.py, whose CPU OUTLIER is far
from its group): the totals' and the groups' tables are there, one row
per group of the recording; the top-N table lists every CPU that has a
deviation, furthest first, and its first row is OUTLIER, which the
recording says is the furthest from its group's IPC over the scrapes the
page's rule values cover (prometheus-truth.py's Judge: the raw clock
samples of CPU_JOB say which sets), with the deviation the page prints
(4 decimals) the recording's to that precision.  The page is read between
two rule evaluations (the rule's timestamp the same before and after),
so that its values are those of one evaluation.  Then a bad n gives the
page's message.  Prints what it checked; exit 1 on the first failure."""
import html
import importlib.util
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

RULE = "instance_cpu:hw_r10kevctr_ipc:deviation_group_rate5m"
ROW = re.compile(r'<tr class="hwr-outlier" data-cpu="([0-9]+)" '
                 r'data-group="([^"]*)">\s*<td>[0-9]+</td>\s*<td>[^<]*</td>'
                 r'\s*<td class="hwr-deviation"><a [^>]*>([^<]*)</a>')


def load_truth():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "prometheus-truth.py")
    spec = importlib.util.spec_from_file_location("truth", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        fail("%s: HTTP %d: %s" % (url, e.code, e.read()[:400]))
    except OSError as e:
        fail("%s: %s" % (url, e))


def rule_time(api, sel):
    url = api + "/query?" + urllib.parse.urlencode(
        {"query": "max(timestamp(%s{%s}))" % (RULE, sel)})
    res = json.loads(get(url))["data"]["result"]
    return float(res[0]["value"][1]) if res else None


def read_page(api, url, sel):
    """The page, and the time of the rule evaluation it shows."""
    for _ in range(10):
        before = rule_time(api, sel)
        page = get(url)
        if before is not None and rule_time(api, sel) == before:
            return page, before
        time.sleep(1)
    fail("no rule evaluation stayed the same while the page was read")


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    api, console, job, cpu_job, host, outlier = sys.argv[1:]
    outlier = int(outlier)
    inst, spec = host.split("=", 1)
    truth = load_truth()
    rec = truth.Recording(spec.split(":", 1)[1])
    params = {"instance": inst, "job": job, "cpu_job": cpu_job}
    sel = 'job="%s",instance="%s"' % (cpu_job, inst)
    page, at = read_page(api, console + "?" + urllib.parse.urlencode(params),
                         sel)
    for table in ("hwr-totals", "hwr-groups", "hwr-outliers"):
        if 'id="%s"' % table not in page:
            fail("the page has no table %s" % table)
    groups = re.findall(r'<tr class="hwr-group" data-group="([^"]*)">', page)
    if groups != sorted(rec.groups):
        fail("groups table rows %s, the recording's groups %s" %
             (groups, sorted(rec.groups)))
    # html/template writes a deviation's sign as &#43;
    rows = [tuple(html.unescape(f) for f in r) for r in ROW.findall(page)]
    if len(rows) != len(rec.cpus):
        fail("%d CPUs in the top-N table, not the recording's %d: %s" %
             (len(rows), len(rec.cpus), rows))

    judge = truth.Judge(api, time.time(), 600, {inst: (0, rec)})
    ab = judge.span(cpu_job, inst, round(at * 1000), 300000, False)
    if ab is None:
        fail("no scrapes of job %s under the rule value at %.3f" %
             (cpu_job, at))
    dev = {c: rec.deviation(ab[0], ab[1], c)[0] for c in rec.cpus}
    furthest = max(dev, key=lambda c: abs(dev[c]))
    if furthest != outlier:
        fail("the recording's furthest CPU is %d, not %d: %s" %
             (furthest, outlier, dev))
    printed = [abs(float(v)) for _, _, v in rows]
    if printed != sorted(printed, reverse=True):
        fail("the top-N table is not furthest first: %s" % rows)
    for cpu, group, value in rows:
        c = int(cpu)
        if c not in rec.groups.get(group, []):
            fail("CPU %d listed in group %s" % (c, group))
        if abs(float(value) - dev[c]) > 0.00005 + 1e-9:
            fail("CPU %d: deviation %s, the recording's %+.6f (sets %d-%d)"
                 % (c, value, dev[c], ab[0], ab[1]))
    if int(rows[0][0]) != outlier:
        fail("first in the top-N: CPU %s, not %d" % (rows[0][0], outlier))
    print("ok: console: CPU %d (group %s) first at %s, as the recording "
          "(sets %d-%d); every CPU's deviation as printed: %s" % (
              outlier, rows[0][1], rows[0][2], ab[0], ab[1],
              ", ".join("%s %s" % (c, v) for c, _, v in rows)))

    params["n"] = "ten"
    page = get(console + "?" + urllib.parse.urlencode(params))
    if "Bad parameter n=ten" not in page or 'class="hwr-outlier"' in page:
        fail("n=ten: no message, or a table")
    print("ok: console: n=ten gives its message and no table")


if __name__ == "__main__":
    main()
