#!/usr/bin/env python3
"""Session 47: auto on run 249's 40 decode rows (nn), run 254 (the 64 x 128 tile's narrow loads
priced above the memory's floor) against run 253 (session 46's final build), and cuBLAS / auto.

  python3 docs/results/2026-11-23-h200-narrowfloor/compare.py > compare.txt"""
import csv, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
def load(path):
    return {(r['name'], r['mode']): r for r in csv.DictReader(open(os.path.join(here, path)))}
old = load('../2026-11-23-h200-pdlcopy/run253/decode-nn.csv')
new = load('run254/decode-nn.csv')
def plan(r):
    return f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}{' copied' if r['repack'] else ''}"
names = [n for (n, m) in new if m == 'auto']
speed, cub_old, cub_new = [], [], []
print(f"{'row':14s} {'run 253 auto':>28s} {'run 254 auto':>28s} {'253/254':>8s} "
      f"{'cuBLAS/254':>10s}")
for n in names:
    o, w = old[(n, 'auto')], new[(n, 'auto')]
    to, tw = float(o['time_us']), float(w['time_us'])
    c_old = float(old[(n, 'cublas')]['time_us']); c_new = float(new[(n, 'cublas')]['time_us'])
    speed.append(to / tw); cub_old.append(c_old / to); cub_new.append(c_new / tw)
    moved = ' *' if plan(o) != plan(w) else ''
    print(f"{n:14s} {plan(o):>20s} {to:7.1f} {plan(w):>20s} {tw:7.1f} {to / tw:8.3f} "
          f"{c_new / tw:10.3f}{moved}")
g = statistics.geometric_mean
print(f"\n* the pick moved. run 253 auto / run 254 auto: geomean {g(speed):.3f}, "
      f"min {min(speed):.3f}, max {max(speed):.3f}")
moved = [s for n, s in zip(names, speed) if plan(old[(n, 'auto')]) != plan(new[(n, 'auto')])]
print(f"  over the {len(moved)} moved rows: geomean {g(moved):.3f}, min {min(moved):.3f}, "
      f"max {max(moved):.3f}")
print(f"cuBLAS / auto: run 253 {g(cub_old):.3f} (min {min(cub_old):.2f}), run 254 {g(cub_new):.3f} "
      f"(min {min(cub_new):.2f})")

# 70b.down's 32-byte-aligned rows: medians of run 254's two passes per plan, us.
def passes(v):
    return [load(f'run254/down-{v}-{p}.csv') for p in (1, 2)]
runs = {v: passes(v) for v in ('nn-off', 'nn-a', 'tn-off')}
def med(v, n, mode):
    return statistics.median(float(r[(n, mode)]['time_us']) for r in runs[v])
print("\n70b.down, run 254 (median of two passes, us): nn as the tokens are / copied first, "
      "and tn")
print(f"{'row':14s} {'dp 64x128':>9s} {'copied':>7s} {'splitk 128x128':>14s} {'copied':>7s} "
      f"{'tn dp 64x128':>12s} {'tn splitk':>9s} {'auto':>6s}")
for n in ('70b.down.m12', '70b.down.m16', '70b.down.m32', '70b.down.m48'):
    dp, sk = 'dp/64x128x64', 'splitk:2/128x128x64'
    print(f"{n:14s} {med('nn-off', n, dp):9.2f} {med('nn-a', n, dp):7.2f} "
          f"{med('nn-off', n, sk):14.2f} {med('nn-a', n, sk):7.2f} {med('tn-off', n, dp):12.2f} "
          f"{med('tn-off', n, sk):9.2f} {float(new[(n, 'auto')]['time_us']):6.1f}")
