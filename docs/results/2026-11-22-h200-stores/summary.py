#!/usr/bin/env python3
"""Session 36's tables. Run in this folder: python3 summary.py > summary.txt

1. streamk-trace's untraced medians (us) of runs 196-201: before (c1118bc) and after,
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


for run in ("run196", "run197", "run198", "run199", "run200", "run201"):
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

# 3. Run 200's padded shapes (rows of a multiple of 8 elements) against the last run of each
#    before it on other lent machines: fp16 and bf16 run 195 (session 35), fp32 run 199.
print()
print("## run200: streamk-bench padded, auto (us), against run 195 (fp16, bf16) and run 199 (fp32)")
earlier = {"fp16": "../2026-11-22-h200-warp/run195/padded-fp16.csv",
           "bf16": "../2026-11-22-h200-warp/run195/padded-bf16.csv",
           "fp32": "run199/padded-fp32.csv"}
for dt, path in earlier.items():
    now, then = bench(f"run200/padded-{dt}.csv"), bench(path)
    print(f"{dt}: {'shape':18s}{'before':>10s}{'run200':>10s}{'ratio':>8s}{'cuBLAS/auto':>13s}")
    rs = []
    for n in dict.fromkeys(k for k, _ in now):
        a, b = then[(n, "auto")], now[(n, "auto")]
        rs.append(b / a)
        print(f"      {n:18s}{a:10.1f}{b:10.1f}{b / a:8.3f}{now[(n, 'cublas')] / b:13.2f}")
    print(f"      {'geomean':18s}{'':20s}{g(rs):8.3f}")
