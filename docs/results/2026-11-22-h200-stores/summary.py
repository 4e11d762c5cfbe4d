#!/usr/bin/env python3
"""Session 36's tables. Run in this folder: python3 summary.py > summary.txt

1. streamk-trace's untraced medians (us) of runs 196-199: before (c1118bc) and after,
   three rounds alternating in each call; the median of the three rounds per build.
2. Run 199's streamk-bench, fp32 D: auto's time packed over padded, and cuBLAS over auto.
"""
import csv
import math
import re
import statistics


def traces(run):
    times = {}
    label = None
    for line in open(f"{run}/traces.txt"):
        m = re.match(r"=== (\S+) (\d) (.*)", line)
        if m:
            label = (m.group(1), m.group(3).strip())
            continue
        m = re.match(r"untraced: ([\d.]+) us", line)
        if m and label:
            times.setdefault(label, []).append(float(m.group(1)))
    return times


for run in ("run196", "run197", "run198", "run199"):
    t = traces(run)
    builds = sorted({b for b, _ in t}, key=lambda b: (not b.startswith("before"), b))
    shapes = list(dict.fromkeys(s for _, s in t))
    print(f"## {run}: streamk-trace untraced, median of 3 rounds (us)")
    print(f"{'shape':52s}" + "".join(f"{b:>12s}" for b in builds) + "  after/before")
    for s in shapes:
        row = [statistics.median(t[(b, s)]) if (b, s) in t else float("nan") for b in builds]
        ratio = row[builds.index("after")] / row[builds.index("before")]
        print(f"{s:52s}" + "".join(f"{v:12.1f}" for v in row) + f"  {ratio:12.3f}")
    print()


def bench(path):
    rows = {}
    for r in csv.DictReader(open(path)):
        if r["status"] == "ok":
            rows[(r["name"], r["mode"])] = float(r["time_us"])
    return rows


packed = bench("run199/packed-fp32.csv")
padded = bench("run199/padded-fp32.csv")
names = list(dict.fromkeys(n for n, _ in packed))
print("## run199: streamk-bench, fp16 in, fp32 D, auto (us)")
print(f"{'shape':20s}{'packed':>10s}{'padded':>10s}{'pk/pad':>9s}{'cuBLAS/auto packed':>20s}")
ratios, cub = [], []
for n in names:
    a, b = packed[(n, "auto")], padded[(n, "auto")]
    c = packed[(n, "cublas")] / a
    ratios.append(a / b)
    cub.append(c)
    print(f"{n:20s}{a:10.1f}{b:10.1f}{a / b:9.3f}{c:20.2f}")
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print(f"{'geomean':20s}{'':10s}{'':10s}{g(ratios):9.3f}{g(cub):20.2f}")
