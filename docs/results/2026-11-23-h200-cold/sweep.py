#!/usr/bin/env python3
"""Session 48: run 256's cold decode sweep, per shape: auto, data-parallel on four tiles, Stream-K
over 132 blocks on two, cuBLAS (us); the fastest of our six forced plans, auto / that, cuBLAS /
auto and auto's plan; '<<' marks auto 3% or more over the fastest.

  python3 docs/results/2026-11-23-h200-cold/sweep.py > sweep.txt"""
import csv, math, os

here = os.path.dirname(os.path.abspath(__file__))
MODES = ['auto', 'dp/128x128x64', 'dp/128x256x64', 'dp/128x192x64', 'dp/64x128x64',
         'streamk:132/128x128x64', 'streamk:132/64x128x64', 'cublas']
SHORT = ['auto', 'dp128', 'dp256', 'dp192', 'dp64', 'sk128', 'sk64', 'cublas']

for side in 'ab':
    for layout in ('tn', 'nn'):
        rows = {}
        for r in csv.DictReader(open(f'{here}/run256/sweep-{side}-{layout}.csv')):
            rows.setdefault(r['name'], {})[r['mode']] = r
        print(side, layout, ' '.join(f'{s:>6s}' for s in SHORT), '  best  auto/best cub/auto  plan')
        ratios, cub = [], []
        for name, d in rows.items():
            t = [float(d[m]['time_us']) if m in d and d[m]['status'] == 'ok' else math.nan
                 for m in MODES]
            ours = [x for x in t[1:7] if x == x]
            best = min(ours)
            a = d['auto']
            ratios.append(math.log(t[0] / best))
            cub.append(math.log(t[7] / t[0]))
            flag = ' <<' if t[0] / best > 1.03 else ''
            print(f'{name:20s}', ' '.join(f'{x:6.1f}' for x in t),
                  f" {SHORT[1 + t[1:7].index(best)]:6s} {t[0] / best:.3f} {t[7] / t[0]:.3f}  "
                  f"{a['plan_mode']} {a['tile_m']}x{a['tile_n']} {a['repack']}{flag}")
        print(f'geomean auto/best {math.exp(sum(ratios) / len(ratios)):.3f}, '
              f'cuBLAS/auto {math.exp(sum(cub) / len(cub)):.3f}')
