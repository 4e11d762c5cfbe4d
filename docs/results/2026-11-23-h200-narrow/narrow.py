#!/usr/bin/env python3
"""Session 44, run 247: narrow wgmmas against STREAMK_NARROW=off, per shape and mode.

Reads run247/narrow-{on,off}-{tn,nn}-{1,2}.csv; prints, per layout, each shape's time with
narrow wgmmas over the time without (median of the two passes each; < 1 is faster), for auto
and the two forced data-parallel tiles, and auto against cuBLAS. Usage: python3 narrow.py
"""
import csv
import math
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = ["auto", "dp/128x128x64", "dp/64x128x64"]


def load(narrow, layout):
    """{(shape, mode): [us per pass]}, {shape: auto plan}, {shape: [cublas us]}."""
    times, plans = {}, {}
    for p in (1, 2):
        with open(os.path.join(HERE, "run247", f"narrow-{narrow}-{layout}-{p}.csv")) as f:
            for row in csv.DictReader(f):
                key = (row["name"], row["mode"])
                if row["status"] != "ok":
                    continue
                times.setdefault(key, []).append(float(row["time_us"]))
                if row["mode"] == "auto":
                    plans[key[0]] = (f"{row['plan_mode']} {row['tile_m']}x{row['tile_n']} "
                                     f"sk{row['sk_blocks']}")
    return times, plans


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


for layout in ("tn", "nn"):
    on, on_plans = load("on", layout)
    off, off_plans = load("off", layout)
    shapes = []
    for (shape, mode) in on:
        if shape not in shapes:
            shapes.append(shape)
    print(f"layout {layout}: time narrow / time whole width (median of 2 passes each)")
    print(f"  {'shape':22} " + " ".join(f"{m:>14}" for m in MODES) +
          f" {'auto/cuBLAS on':>15} {'off':>6}  auto plan")
    ratios = {m: [] for m in MODES}
    decode = {m: [] for m in MODES}
    cub_on, cub_off = [], []
    for s in shapes:
        cells = []
        for m in MODES:
            a, b = on.get((s, m)), off.get((s, m))
            if a and b:
                r = statistics.median(a) / statistics.median(b)
                ratios[m].append(r)
                if not s.startswith("edge"):
                    decode[m].append(r)
                cells.append(f"{r:14.3f}")
            else:
                cells.append(f"{'-':>14}")
        c1, c2 = on.get((s, "cublas")), off.get((s, "cublas"))
        a1, a2 = on.get((s, "auto")), off.get((s, "auto"))
        x = statistics.median(c1) / statistics.median(a1) if c1 and a1 else float("nan")
        y = statistics.median(c2) / statistics.median(a2) if c2 and a2 else float("nan")
        cub_on.append(x)
        cub_off.append(y)
        plan = on_plans.get(s, "")
        if plan != off_plans.get(s, ""):
            plan += " (off: " + off_plans.get(s, "") + ")"
        print(f"  {s:22} " + " ".join(cells) + f" {x:15.3f} {y:6.3f}  {plan}")
    print("  geomean, decode rows   " + " ".join(f"{geomean(decode[m]):14.3f}" for m in MODES))
    print("  geomean, all           " + " ".join(f"{geomean(ratios[m]):14.3f}" for m in MODES) +
          f" {geomean(cub_on):15.3f} {geomean(cub_off):6.3f}")
    print()
