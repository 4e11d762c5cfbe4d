#!/usr/bin/env python3
"""Session 54: run 289's A/B of the 128 x 320 tile's TMA store (new) against its synchronous
epilogue (old, STREAMK_BROAD_TMA_STORE=off): per shape, time(old) / time(new) of forced
data-parallel 128 x 320 (median of the passes of each), with its k-iterations a tile and rounds
of tiles on 132 SMs, grouped; and auto (session 53's planner, timed in the old passes, where its
128 x 320 picks ran the synchronous epilogue) and cuBLAS against it.
Usage: ab.py RUN_DIR [DTYPE]"""
import csv, math, statistics, sys
from collections import defaultdict

run, dtype = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "fp16")
times = defaultdict(list)  # (build, shape, mode) -> us
shapes = []
for build in ("old", "new"):
    for p in (1, 2):
        try:
            f = open(f"{run}/{build}-tn-{dtype}-{p}.csv")
        except FileNotFoundError:
            continue
        for r in csv.DictReader(f):
            s = (r["name"], int(r["m"]), int(r["n"]), int(r["k"]))
            if s not in shapes:
                shapes.append(s)
            if r["status"] == "ok":
                times[(build, s, r["mode"])].append(float(r["time_us"]))
med = lambda v: statistics.median(v) if v else float("nan")
groups = defaultdict(list)
print(f"# {dtype}: time(old) / time(new) of dp/128x320x64; > 1: the TMA store faster")
print(f"{'shape':34} {'iters':>5} {'rounds':>6} {'old_us':>8} {'new_us':>8} {'old/new':>8}"
      f" {'auto_us':>8} {'cublas':>8} {'new/auto':>8}")
for s in shapes:
    name, m, n, k = s
    iters = math.ceil(k / 64)
    # Bench M x N = planner N x M: the tile's 128 rows run along bench N, its 320 along bench M.
    tiles = math.ceil(n / 128) * math.ceil(m / 320)
    rounds = tiles / 132
    o, w = med(times[("old", s, "dp/128x320x64")]), med(times[("new", s, "dp/128x320x64")])
    a = med(times[("old", s, "auto")])  # session 53's planner: 128 x 320 in one round, 16+ deep
    c = med(times[("new", s, "cublas")] + times[("old", s, "cublas")])
    g = ("1 round" if rounds <= 1 else "2+ rounds") + (", <16 iters" if iters < 16 else
                                                        ", >=16 iters")
    groups[g].append((o / w, a / w))
    print(f"{name + ' ' + f'{m}x{n}x{k}':34} {iters:5d} {rounds:6.2f} {o:8.1f} {w:8.1f} "
          f"{o / w:8.3f} {a:8.1f} {c:8.1f} {a / w:8.3f}")
print("\n# geometric means per group: old/new, and auto/new (> 1: the forced tile now faster than"
      " session 53's auto)")
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for g in sorted(groups):
    v = groups[g]
    print(f"{g:24} {len(v):3d} shapes  old/new {gm([x[0] for x in v]):.3f} "
          f"(min {min(x[0] for x in v):.3f}, max {max(x[0] for x in v):.3f})  "
          f"auto/new {gm([x[1] for x in v]):.3f}")
