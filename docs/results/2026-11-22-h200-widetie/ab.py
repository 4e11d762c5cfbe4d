#!/usr/bin/env python3
"""Run 146: this build's auto against fce8f71's (base) on wide-tie-shapes.txt, three alternating
passes each: per shape, the median over passes of each build's auto time, their ratio, and each
build's plan; dp (the same plan in both builds: forced data-parallel weighs every tile) and
cuBLAS from the new build's passes.
Usage: ab.py RUN_DIR"""
import csv, statistics, sys, collections
t = collections.defaultdict(list)
plan = {}
for b in ('base', 'new'):
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f'{sys.argv[1]}/ab-{b}-{p}.csv')):
            if r['status'] != 'ok':
                continue
            key = (r['m'], r['n'], r['k'])
            t[key + (b, r['mode'])].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plan[key + (b,)] = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}"
shapes = sorted({k[:3] for k in t}, key=lambda k: tuple(map(int, k)))
print(f"{'shape':16} {'base auto':>24} {'new auto':>24} {'base/new':>8} {'dp':>7} {'dp192':>7} {'cublas':>7}")
for s in shapes:
    m = lambda b, mode: statistics.median(t[s + (b, mode)])
    print(f"{'x'.join(s):16} {plan[s + ('base',)]:>15} {m('base', 'auto'):7.1f} "
          f"{plan[s + ('new',)]:>15} {m('new', 'auto'):7.1f} {m('base', 'auto') / m('new', 'auto'):8.3f} "
          f"{m('new', 'dp'):7.1f} {m('new', 'dp/192x192x64'):7.1f} {m('new', 'cublas'):7.1f}")
