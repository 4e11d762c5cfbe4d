#!/usr/bin/env python3
"""Session 43, run 241: decode rows with the tokens as the kernel's A (shapes-a.txt), auto and
every tile's data-parallel plan that fits them, medians of three passes, layouts tn and nn.
    python3 a_tiles.py run241 > a-tiles.txt
"""
import csv, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
t = defaultdict(list)
plan = {}
for lay in ['tn', 'nn']:
    for p in [1, 2, 3]:
        for r in csv.DictReader(open(os.path.join(d, f'a-{lay}-{p}.csv'))):
            if r['status'] != 'ok':
                print('NOT OK', lay, r['name'], r['mode'], r['status'])
                continue
            t[(lay, r['name']), r['mode']].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plan[(lay, r['name'])] = r['plan_mode'] + ' ' + r['tile_m'] + 'x' + r['tile_n']
modes = ['auto', 'dp/128x128x64', 'dp/64x128x64', 'dp/128x256x64', 'streamk/64x128x64', 'cublas']
print('%-3s %-14s %-16s' % ('lay', 'name', 'auto plan') +
      ''.join('%10s' % m.replace('x64', '').replace('dp/', '') for m in modes) +
      '  best/auto cub/auto dp128/dp64')
for k in sorted({k for k, _ in t}):
    row = {m: statistics.median(t[k, m]) for m in modes}
    best = min(row[m] for m in modes[1:5])
    print('%-3s %-14s %-16s' % (k[0], k[1], plan[k]) + ''.join('%10.1f' % row[m] for m in modes) +
          '  %8.3f %8.3f %9.3f' % (best / row['auto'], row['cublas'] / row['auto'],
                                    row['dp/128x128x64'] / row['dp/64x128x64']))
