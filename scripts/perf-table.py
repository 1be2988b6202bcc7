#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `ccdkit queries` several times over the shared benchmark queries and prints the README's
Performance tables (Markdown): per method and set, the median over the runs of each statistic; then, per
method and data set (each folder directly under PATH), the same over all of its queries pooled.

Usage: scripts/perf-table.py [RUNS] [PATH]   (defaults: 3, ../shared/ccd-queries; $CCDKIT_CLI: the ccdkit binary)"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
path = os.path.realpath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "shared", "ccd-queries"))
cli = os.environ.get("CCDKIT_CLI", os.path.join(root, "build", "release", "apps", "ccdkit", "ccdkit"))
data_sets = sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))


def run(folder):
    """`runs` runs of every method over one folder: a list (per run) of lists (per method)."""
    results = []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run([cli, "queries", folder, "-m", "exact", "-m", "bsc-float", "-m", "spacetime",
                            "--json", out.name], check=True, stdout=subprocess.DEVNULL)
            results.append(json.load(open(out.name)))
    return results


def row(method, name, kind, stats, median):
    d = stats["decided_by"]
    return (f"| {method} | {name} | {kind} | {stats['queries']} | {stats['positives']} | "
            f"{stats['false_positives']} | {stats['false_negatives']} | {median('mean_ns'):.2f} | "
            f"{median('median_ns'):.2f} | {median('p99_ns'):.1f} | {median('max_ns'):.1f} | "
            f"{d['filter'] + d['float']} | {d['double_double']} | {d['exact']} |")


header = ("| method | set | kind | queries | positives | FP | FN | mean µs | median µs | p99 µs | max µs | filter | dd | exact |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
per_set, pooled = [], []
for data_set in data_sets:
    results = run(os.path.join(path, data_set))
    for m, method in enumerate(results[0]):
        for s, first in enumerate(method["sets"]):
            name = os.path.relpath(first["path"], path) if os.path.isabs(first["path"]) else first["path"]
            median = lambda key: statistics.median(r[m]["sets"][s][key] for r in results) / 1000.0
            per_set.append((m, row(method["method"], name, first["kind"], first, median)))
        median = lambda key: statistics.median(r[m]["all"][key] for r in results) / 1000.0
        pooled.append((m, row(method["method"], data_set, "all", method["all"], median)))

print(header)
print("\n".join(r for _, r in sorted(per_set, key=lambda x: x[0])))
print()
print(header)
print("\n".join(r for _, r in sorted(pooled, key=lambda x: x[0])))
