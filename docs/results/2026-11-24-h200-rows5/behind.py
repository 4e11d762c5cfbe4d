#!/usr/bin/env python3
"""Session 52: run 281, per shape: auto's time, the fastest forced plan (min over the passes of
each mode's time) and cuBLAS's, as time over auto's (< 1: faster than auto); the geomeans say
how much of cuBLAS's lead a perfect pick among our plans would close.

  python3 docs/results/2026-11-24-h200-rows5/behind.py RUN_DIR"""
import csv, collections, glob, math, sys
run = sys.argv[1]
t = collections.defaultdict(lambda: collections.defaultdict(list))
plan = {}
for f in sorted(glob.glob(f'{run}/behind-*.csv')):
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            name = f"{r['name']} {r['m']}x{r['n']}x{r['k']}"
            t[name][r['mode']].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plan[name] = (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} "
                              f"dp{r['dp_tiles']}+sk{r['sk_tiles']}")
best_l, cub_l = [], []
print(f"{'shape':22s} {'auto us':>8s} {'best/auto':>9s} {'best plan':24s} {'cuBLAS/auto':>11s}"
      "   auto plan")
for name, v in t.items():
    a = min(v['auto'])
    ours = {m: min(x) for m, x in v.items() if m not in ('auto', 'cublas')}
    bm = min(ours, key=ours.get)
    b, c = min(ours[bm], a), min(v['cublas'])
    best_l.append(math.log(b / a)), cub_l.append(math.log(c / a))
    print(f'{name:22s} {a:8.1f} {b / a:9.3f} {bm:24s} {c / a:11.3f}   {plan[name]}')
g = lambda x: math.exp(sum(x) / len(x))
print(f'\ngeomean over {len(best_l)}: best of our plans / auto {g(best_l):.3f}, '
      f'cuBLAS / auto {g(cub_l):.3f}')
