#!/usr/bin/env python3
"""Session 43, run 242: the decode rows whose pick the fifth tile's narrow-A margin moves, auto
(64 x 128 now) against data-parallel on 128 x 128 (auto's pick before), medians of two passes.
    python3 moved.py run242 > moved.txt
"""
import csv, math, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
t = defaultdict(list)
plans = {}
for layout in ['tn', 'nn']:
    for p in [1, 2]:
        for r in csv.DictReader(open(os.path.join(d, f'moved-{layout}-{p}.csv'))):
            if r['status'] != 'ok':
                print('NOT OK', layout, r['name'], r['mode'], r['status'])
                continue
            t[(layout, r['name']), r['mode']].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plans[(layout, r['name'])] = '%s %sx%s' % (r['plan_mode'], r['tile_m'], r['tile_n'])
modes = ['auto', 'dp/128x128x64', 'dp/64x128x64', 'cublas']
print('%-3s %-20s %-11s %8s %8s %8s %8s %9s %9s' % ('lay', 'shape (weights.tokens.k)', 'auto plan',
      'auto', 'dp128', 'dp64', 'cublas', 'before/auto', 'cub/auto'))
ratios = defaultdict(list)
for key in sorted({k for k, _ in t}):
    row = {m: statistics.median(t[key, m]) for m in modes}
    gain = row['dp/128x128x64'] / row['auto']
    if plans[key].endswith('64x128'):  # the shapes the margin moved (auto ran 128 x 128 before)
        ratios[key[0]].append((gain, row['cublas'] / row['auto'],
                               row['dp/128x128x64'] / row['dp/64x128x64']))
    print('%-3s %-20s %-11s %8.1f %8.1f %8.1f %8.1f %9.3f %9.3f' % (key[0], key[1], plans[key],
          row['auto'], row['dp/128x128x64'], row['dp/64x128x64'], row['cublas'], gain,
          row['cublas'] / row['auto']))
for layout, v in ratios.items():
    g = lambda i: math.exp(sum(math.log(x[i]) for x in v) / len(v))
    print('%s: %d shapes moved to 64 x 128; auto over the pick before (dp 128x128): geomean %.3f, min %.3f, max %.3f; '
          'dp 64x128 over dp 128x128 %.3f; auto/cuBLAS %.3f' % (layout, len(v), g(0),
          min(x[0] for x in v), max(x[0] for x in v), g(2), g(1)))
