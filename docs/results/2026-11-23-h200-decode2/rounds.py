#!/usr/bin/env python3
"""Session 43, run 245: the per-round memory floor's moves (shapes-rounds.txt): auto against
data-parallel on 128 x 128 (auto's pick before), 128 x 256, Stream-K on 128 x 128 and cuBLAS,
medians of two passes, per layout; a.*: tokens as the kernel's A, b.*: as its B.
    python3 rounds.py run245 > rounds.txt
"""
import csv, math, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
t = defaultdict(list)
plan = {}
for lay in ['tn', 'nn']:
    for p in [1, 2]:
        for r in csv.DictReader(open(os.path.join(d, f'rounds-{lay}-{p}.csv'))):
            if r['status'] != 'ok':
                print('NOT OK', lay, r['name'], r['mode'], r['status'])
                continue
            t[(lay, r['name']), r['mode']].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plan[(lay, r['name'])] = '%s %sx%s' % (r['plan_mode'], r['tile_m'], r['tile_n'])
modes = ['auto', 'dp/128x128x64', 'dp/128x256x64', 'streamk/128x128x64', 'cublas']
print('%-3s %-11s %-15s' % ('lay', 'shape', 'auto plan') +
      ''.join('%9s' % m.replace('x64', '').replace('dp/', '').replace('streamk/', 'sk') for m in modes) +
      '  before/auto cublas/auto')
g = defaultdict(list)
for k in sorted({k for k, _ in t}):
    row = {m: statistics.median(t[k, m]) for m in modes}
    r = row['dp/128x128x64'] / row['auto']
    g[(k[0], k[1][0])].append(r)
    print('%-3s %-11s %-15s' % (k[0], k[1], plan[k]) + ''.join('%9.1f' % row[m] for m in modes) +
          '  %11.3f %11.3f' % (r, row['cublas'] / row['auto']))
print('time(before) / time(auto), geometric mean (min-max):')
for key, v in sorted(g.items()):
    print('  %s tokens as %s: %.3f (%.3f-%.3f)' % (key[0], key[1].upper(),
          math.exp(sum(map(math.log, v)) / len(v)), min(v), max(v)))
