#!/usr/bin/env python3
"""bench/table.py FILE.json - the table and the goal ratios of a
bench/compare.sh run, as Markdown (the README's table comes from here)."""
import json
import sys

runs = json.load(open(sys.argv[1]))
print("| CPUs | server | varbinds | walk varbinds/s | CPU ms/1000 varbinds | master CPU ms/1000 |")
print("|---:|---|---:|---:|---:|---:|")
for r in runs:
    a, p, s = r["agent"], r["pass_persist"], r["snmpd"]
    print(f"| {r['cpus']} | hw-r10kevctr-agent, `snmpbulkwalk -Cr25` | {a['walk_varbinds']} | {a['walk_per_s']} | {a['cpu_ms_per_1000']} | {a['master_cpu_ms_per_1000']} |")
    print(f"| {r['cpus']} | agent, column-parallel read (every column a repeater) | {a.get('column_varbinds', '')} | {a['column_read_per_s']} | {a['column_cpu_ms_per_1000']} | {a['column_master_cpu_ms_per_1000']} |")
    print(f"| {r['cpus']} | pass_persist script | {p['walk_varbinds']} | {p['walk_per_s']} | {p['script_cpu_ms_per_1000']} | {p['master_cpu_ms_per_1000']} |")
    print(f"| {r['cpus']} | snmpd, its own mib-2 | {s['walk_varbinds']} | {s['walk_per_s']} | | {s['cpu_ms_per_1000']} |")
print()
print("| CPUs | GET p50 / p99 | poll (in-process) | agent RSS | idle, 1 s poll |")
print("|---:|---:|---:|---:|---:|")
for r in runs:
    a = r["agent"]
    print(f"| {r['cpus']} | {a['get_p50_us']} / {a['get_p99_us']} us | {a['poll_us']} us "
          f"| {a['rss_kib'] / 1024:.1f} MiB | {a['idle_pct_core']} % of a core |")
print()


def ratio(x, y):
    return f"{x / y:.2f}" if y else "n/a"


for r in runs:
    a, p, s = r["agent"], r["pass_persist"], r["snmpd"]
    print(f"{r['cpus']} CPUs: agent CPU / master CPU {ratio(a['cpu_ms_per_1000'], a['master_cpu_ms_per_1000'])} (goal <= 0.7); "
          f"walk vs pass_persist {ratio(a['walk_per_s'], p['walk_per_s'])} (>= 1.1), "
          f"vs snmpd {ratio(a['walk_per_s'], s['walk_per_s'])} (>= 0.45); "
          f"column-parallel / bulkwalk {ratio(a['column_read_per_s'], a['walk_per_s'])} (>= 5)")
by = {r["cpus"]: r for r in runs}
if 1024 in by and 4096 in by:
    t = lambda r: r["agent"]["walk_varbinds"] / r["agent"]["walk_per_s"]
    print(f"time(4096) / time(1024): {t(by[4096]) / t(by[1024]):.2f} (goal <= 4.4)")
