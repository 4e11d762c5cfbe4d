#!/usr/bin/env python3
"""Session 42: how well each of the planner's two prices for K-misaligned rows predicts auto's
measured time, where auto runs the rows as they are (no copies, no clusters).

  per-iteration: the chosen candidate's prediction (misaligned loads priced per k-iteration;
                 it ranks decompositions, and before session 42 it was streamk-plan's headline);
  estimate:      the rows' estimate PlanRows compares against copies and clusters (the aligned
                 prediction against the L2's time for the loads, LoadBoundMicros), the headline
                 since session 42.

Reads bench CSVs (layout tn: the kernel's problem is N x M x K), plans each shape with
streamk-plan --json, and keeps the shapes whose plan this build picks is the one timed.
From the repository root, after building:
  d=docs/results/2026-11-23-h200-misaligned
  python3 $d/prediction.py $d/run228/main.csv $d/run229/s2s3.csv > $d/prediction.txt
  mkdir -p /tmp/c223 && tar xzf docs/results/2026-11-23-h200-crosstile/run223/csv.tgz -C /tmp/c223
  ALIGNED=1 python3 $d/prediction.py /tmp/c223/bench-fp16.csv > $d/prediction-aligned.txt
(the aligned shapes of run 223's paper, waveq and llm sets, for comparison: there both columns
are the same prediction).
"""
import csv
import json
import math
import os
import subprocess
import sys

PLAN = os.environ.get("STREAMK_PLAN", "build/tools/streamk-plan")
ALIGNED = os.environ.get("ALIGNED") == "1"

rows = []
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        if r["mode"] != "auto" or r["status"] != "ok":
            continue
        m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
        if ((k * 2) % 32 == 0) != ALIGNED:
            continue
        rows.append((m, n, k, float(r["time_us"]), r["plan_mode"], int(r["tile_m"]),
                     int(r["tile_n"])))

out = []
for m, n, k, t, mode, tile_m, tile_n in rows:
    j = json.loads(subprocess.run([PLAN, str(n), str(m), str(k), "--json"],
                                  capture_output=True, text=True, check=True).stdout)
    if j["repack_a"] or j["repack_b"] or j["cluster_m"] > 1:
        continue
    same = j["mode"] == mode and j["tile"][0] == tile_m and j["tile"][1] == tile_n
    chosen = [c for c in j["candidates"] if c["chosen"]]
    per_iteration = chosen[0]["predicted_us"] if chosen else float("nan")
    out.append((m, n, k, t, per_iteration, j["predicted_us"], same))


def stats(sel, label):
    if not sel:
        return
    lo = [math.log(t / o) for _, _, _, t, o, _, _ in sel]
    ln = [math.log(t / e) for _, _, _, t, _, e, _ in sel]
    geo = lambda l: math.exp(sum(l) / len(l))
    mean_err = lambda l: math.exp(sum(abs(x) for x in l) / len(l)) - 1
    worst = lambda l: math.exp(max(abs(x) for x in l)) - 1
    print(f"{label}: {len(sel)} shapes; measured/predicted geomean per-iteration {geo(lo):.3f} "
          f"(mean |error| {100 * mean_err(lo):.1f}%, worst {100 * worst(lo):.0f}%), estimate "
          f"{geo(ln):.3f} (mean |error| {100 * mean_err(ln):.1f}%, worst {100 * worst(ln):.0f}%)")


same = [x for x in out if x[6]]
print(f"{len(out)} shapes auto ran on the rows as they are; {len(same)} on the plan this build "
      f"picks")
stats(same, "all")
stats([x for x in same if x[3] >= 20], ">= 20 us")
stats([x for x in same if 9 <= x[3] < 20], "9-20 us")
stats([x for x in same if x[3] < 9], "< 9 us (host-paced)")
by_ratio = sorted(same, key=lambda x: x[3] / x[5])
print("estimate furthest high, then furthest low (bench M x N x K, us):")
for x in by_ratio[:5] + by_ratio[-5:]:
    print("  %dx%dx%d measured %.1f per-iteration %.1f estimate %.1f" % x[:6])
