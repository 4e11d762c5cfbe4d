#!/usr/bin/env python3
"""Session 52: run 280, each mode's time over auto's per shape (geomean over the passes; < 1: that
mode faster than auto), and auto's plan.

  python3 docs/results/2026-11-24-h200-rows5/cluster.py RUN_DIR"""
import csv, collections, glob, math, sys
run = sys.argv[1]
rows = collections.defaultdict(lambda: collections.defaultdict(list))
plan = {}
for f in sorted(glob.glob(f'{run}/cluster-*.csv')):
    by = collections.defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            by[f"{r['name']} {r['m']}x{r['n']}x{r['k']}"][r['mode']] = r
    for name, v in by.items():
        a = float(v['auto']['time_us'])
        r = v['auto']
        plan[name] = (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} "
                      f"dp{r['dp_tiles']}+sk{r['sk_tiles']}")
        for mode, x in v.items():
            rows[name][mode].append(float(x['time_us']) / a)
modes = [m for m in next(iter(rows.values())) if m != 'auto']
heads = [m.replace('/256x256x64', '/cl') for m in modes]
print(f"{'shape':24s} " + ' '.join(f'{h:>15s}' for h in heads) + '   auto plan')
for name, v in rows.items():
    print(f'{name:24s} ' + ' '.join(
        f'{math.exp(sum(map(math.log, v[m])) / len(v[m])):15.3f}' for m in modes) +
        f'   {plan[name]}')
