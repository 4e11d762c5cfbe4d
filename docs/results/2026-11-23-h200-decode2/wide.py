#!/usr/bin/env python3
"""Session 43, run 244: decode rows with the tokens as the kernel's A whose 128 x 128 tiles take
one to two rounds (shapes-wide.txt): auto against data-parallel on 128 x 256 (one round), 128 x
128 and 64 x 128, and cuBLAS; medians of two passes.
    python3 wide.py run244 > wide.txt
"""
import csv, math, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
t = defaultdict(list)
plan = {}
for lay in ['tn', 'nn']:
    for p in [1, 2]:
        for r in csv.DictReader(open(os.path.join(d, f'wide-{lay}-{p}.csv'))):
            if r['status'] != 'ok':
                print('NOT OK', lay, r['name'], r['mode'], r['status'])
                continue
            t[(lay, r['name']), r['mode']].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plan[(lay, r['name'])] = r['plan_mode'] + ' ' + r['tile_m'] + 'x' + r['tile_n']
modes = ['auto', 'dp/128x128x64', 'dp/128x256x64', 'dp/64x128x64', 'cublas']
print('%-3s %-18s %-12s' % ('lay', 'weights.tokens.k', 'auto plan') +
      ''.join('%9s' % m.replace('x64', '').replace('dp/', '') for m in modes) +
      '  auto/128x256  cublas/auto')
by_weights = defaultdict(list)
for k in sorted({k for k, _ in t}):
    row = {m: statistics.median(t[k, m]) for m in modes}
    r = row['auto'] / row['dp/128x256x64']
    by_weights[(k[0], k[1].split('.')[0])].append(r)
    print('%-3s %-18s %-12s' % (k[0], k[1], plan[k]) + ''.join('%9.1f' % row[m] for m in modes) +
          '  %11.3f  %11.3f' % (r, row['cublas'] / row['auto']))
print('time(auto) / time(dp on 128 x 256), geometric mean per layout and weights:')
for key, v in sorted(by_weights.items()):
    print('  %s %-7s %.3f (%.3f-%.3f)' % (key[0], key[1], math.exp(sum(map(math.log, v)) / len(v)),
                                          min(v), max(v)))
