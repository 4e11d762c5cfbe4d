#!/usr/bin/env python3
"""Session 48: run 257's auto (the new planner) against run 256's (the planner before), both cold
(--rotate), on run 256's decode sweep: per shape whose plan moved, both times and cuBLAS's, then
geometric means per side and layout, over the moved shapes and over all, and auto/cuBLAS.

  python3 docs/results/2026-11-23-h200-cold/compare.py > compare.txt"""
import csv, math, os

here = os.path.dirname(os.path.abspath(__file__))


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        if r['status'] == 'ok':
            out.setdefault(r['name'], {})[r['mode']] = r
    return out


def plan(r):
    s = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}"
    if r['plan_mode'] != 'dp':
        s += f" sk{r['sk_blocks']}"
    return s + (f" repack-{r['repack']}" if r['repack'] else '')


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')


for side in 'ab':
    for layout in ('tn', 'nn'):
        old = load(f'{here}/run256/sweep-{side}-{layout}.csv')
        new = load(f'{here}/run257/sweep-{side}-{layout}.csv')
        moved, all_, cub_old, cub_new = [], [], [], []
        print(f'== sweep-{side} {layout}: shapes whose plan moved (us)')
        for name, o in old.items():
            n = new.get(name)
            if not n or 'auto' not in o or 'auto' not in n:
                continue
            to, tn = float(o['auto']['time_us']), float(n['auto']['time_us'])
            all_.append(tn / to)
            cub_old.append(float(o['cublas']['time_us']) / to)
            cub_new.append(float(n['cublas']['time_us']) / tn)
            if plan(o['auto']) != plan(n['auto']):
                moved.append(tn / to)
                print(f"   {name:20s} {plan(o['auto']):28s} {to:7.1f} -> "
                      f"{plan(n['auto']):28s} {tn:7.1f}  {tn / to:.3f}")
        lo, hi = min(moved, default=0), max(moved, default=0)
        print(f'   moved {len(moved)}: new/old geomean {gm(moved):.3f} (min {lo:.3f}, max {hi:.3f})'
              f'; all {len(all_)}: {gm(all_):.3f}; '
              f'cuBLAS/auto {gm(cub_old):.3f} -> {gm(cub_new):.3f}')
