#!/usr/bin/env python3
"""Session 49: how fast decode rows stream, by tile and by the SMs one round of data-parallel
tiles keeps busy (run 259's tokens-as-A sweep, cold, fp16, layouts tn and nn averaged over 1, 16
and 64 tokens). The rate is the weights' extra bytes over the extra time between two depths,
which leaves out every fixed cost.

  python3 docs/results/2026-11-23-h200-headline/rates.py > rates.txt"""
import collections, csv, os

here = os.path.dirname(os.path.abspath(__file__))
times = collections.defaultdict(dict)  # (mode, weights, layout, tokens) -> k -> (us, blocks)
for layout in ('tn', 'nn'):
    with open(os.path.join(here, 'run259', f'sweep-a-{layout}.csv')) as f:
        for r in csv.DictReader(f):
            if r['mode'].startswith('dp/') and r['status'] == 'ok':
                key = (r['mode'], int(r['m']), layout, int(r['n']))
                times[key][int(r['k'])] = (float(r['time_us']), int(r['grid_blocks']))
rates = collections.defaultdict(list)
for (mode, w, _, _), t in times.items():
    if all(k in t for k in (4096, 8192, 14336)):
        low = w * 4096 * 2 / (t[8192][0] - t[4096][0]) / 1e6
        high = w * 6144 * 2 / (t[14336][0] - t[8192][0]) / 1e6
        rates[(mode, w)].append((low, high, t[8192][1]))
print('mode             weights blocks  TB/s 4096->8192 deep  8192->14336   GB/s per busy SM')
for (mode, w), x in sorted(rates.items()):
    blocks = x[0][2]
    low = sum(a for a, _, _ in x) / len(x)
    high = sum(b for _, b, _ in x) / len(x)
    busy = min(blocks, 132)
    print(f'{mode:16s} {w:7d} {blocks:6d}  {low:20.2f}  {high:11.2f}   '
          f'{1000 * low / busy:6.1f} {1000 * high / busy:6.1f}')
