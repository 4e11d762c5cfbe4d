#!/usr/bin/env python3
"""Session 54: run 290's 16 moved picks (moved.txt): time(old pick, dp/128x128x64 forced) /
time(auto, now data-parallel 128 x 320 with the TMA store), per pass and shape, and cuBLAS.
Usage: moved_check.py RUN_DIR"""
import csv, glob, math, os, sys
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for path in sorted(glob.glob(f"{sys.argv[1]}/*-1.csv") + glob.glob(f"{sys.argv[1]}/*-2.csv")):
    t = {}
    for r in csv.DictReader(open(path)):
        if r["status"] == "ok":
            t[(r["name"], r["mode"])] = float(r["time_us"])
    names = sorted({n for n, _ in t})
    old = [t[(n, "dp/128x128x64")] / t[(n, "auto")] for n in names]
    cu = [t[(n, "cublas")] / t[(n, "auto")] for n in names]
    print(f"{os.path.basename(path):16} {len(names)} shapes  old pick / auto {gm(old):.3f} "
          f"(min {min(old):.3f}, max {max(old):.3f})  cuBLAS / auto {gm(cu):.3f} "
          f"(min {min(cu):.3f})")
