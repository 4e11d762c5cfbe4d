#!/usr/bin/env python3
"""Session 43, run 237: large shallow shapes (shapes.txt) on every tile's data-parallel plan, the
128 x 128 one with ping-pong forced on and off, auto and cuBLAS; medians of two passes.
    python3 shallow.py > shallow.txt
"""
import csv, os, statistics
from collections import defaultdict

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'run237')
t = defaultdict(list)
for pp in ['on', 'off']:
    for p in [1, 2]:
        for r in csv.DictReader(open(os.path.join(here, f'shallow-{pp}-{p}.csv'))):
            key = (r['m'], r['n'], r['k'])
            mode = r['mode']
            if mode == 'dp/128x128x64':
                mode = 'pingpong' if pp == 'on' else 'shared'
            t[key, mode].append(float(r['time_us']))
shapes = sorted({k for k, _ in t}, key=lambda s: (int(s[0]) * int(s[1]), int(s[2])))
modes = ['auto', 'pingpong', 'shared', 'dp/128x256x64', 'dp/128x192x64', 'dp/192x192x64', 'cublas']
names = [m.replace('dp/', '').replace('x64', '') for m in modes]
print('bench M x N x K (tn), us; t/b: 128 x 128 tiles a block; it: k-iterations')
print('%-15s %5s %3s' % ('shape', 't/b', 'it') + ''.join('%9s' % n for n in names) +
      '  pp/128x256  best/auto')
for s in shapes:
    row = {m: statistics.median(t[s, m]) for m in modes}
    tiles = int(s[0]) * int(s[1]) / 128 / 128 / 132
    best = min(row[m] for m in modes if m not in ('auto', 'cublas'))
    print('%-15s %5.1f %3d' % ('x'.join(s), tiles, int(s[2]) // 64) +
          ''.join('%9.1f' % row[m] for m in modes) +
          '  %10.3f  %9.3f' % (row['dp/128x256x64'] / row['pingpong'], best / row['auto']))
