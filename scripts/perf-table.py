#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `ccdkit queries` several times over the shared benchmark queries and prints the README's
Performance table (Markdown): per method and set, the median over the runs of each statistic.

Usage: scripts/perf-table.py [RUNS] [PATH]   (defaults: 3, ../shared/ccd-queries; $CCDKIT_CLI: the ccdkit binary)"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "shared", "ccd-queries")
cli = os.environ.get("CCDKIT_CLI", os.path.join(root, "build", "release", "apps", "ccdkit", "ccdkit"))

results = []
for _ in range(runs):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([cli, "queries", path, "-m", "exact", "-m", "bsc-float", "-m", "spacetime", "--json", out.name],
                       check=True, stdout=subprocess.DEVNULL)
        results.append(json.load(open(out.name)))

print("| method | set | kind | queries | positives | FP | FN | mean µs | median µs | p99 µs | max µs | filter | dd | exact |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for m, method in enumerate(results[0]):
    for s, first in enumerate(method["sets"]):
        name = os.path.relpath(first["path"], os.path.realpath(path)) if os.path.isabs(first["path"]) else first["path"]
        med = lambda key: statistics.median(r[m]["sets"][s][key] for r in results) / 1000.0
        d = first["decided_by"]
        print(f"| {method['method']} | {name} | {first['kind']} | {first['queries']} | {first['positives']} | "
              f"{first['false_positives']} | {first['false_negatives']} | {med('mean_ns'):.2f} | {med('median_ns'):.2f} | "
              f"{med('p99_ns'):.1f} | {med('max_ns'):.1f} | {d['filter'] + d['float']} | {d['double_double']} | {d['exact']} |")
