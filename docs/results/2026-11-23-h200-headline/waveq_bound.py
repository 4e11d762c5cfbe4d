#!/usr/bin/env python3
"""Session 49: the waveq set on every forced plan of the aligned tiles (run 260's waveq-forced.csv,
fp16, 13 modes, 31 repetitions): what a perfect pick among them would gain over dp (the fastest
of five tiles, data-parallel) and over data-parallel on the 128 x 256 tile the set is built from,
against what auto gains; then run 261's four passes of auto against both.

  python3 docs/results/2026-11-23-h200-headline/waveq_bound.py > waveq_bound.txt"""
import collections, csv, math, os

here = os.path.dirname(os.path.abspath(__file__))


def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def load(path):
    rows = collections.defaultdict(dict)
    with open(path) as f:
        for r in csv.DictReader(f):
            if r['status'] == 'ok':
                rows[(r['m'], r['n'], r['k'])][r['mode']] = float(r['time_us'])
    return rows


rows = load(os.path.join(here, 'run260', 'waveq-forced.csv'))
print('run 260, fp16: time(baseline) / time(plan), geomean over the 27 shapes')
print(f"{'baseline':16s} {'auto':>7s} {'best of 13':>11s}")
for base in ('dp', 'dp/128x256x64'):
    a = [m[base] / m['auto'] for m in rows.values()]
    b = [m[base] / min(m.values()) for m in rows.values()]
    print(f'{base:16s} {gm(a):7.3f} {gm(b):11.3f}')
print('auto / best of 13: %.3f (min %.3f)' % (
    gm([min(m.values()) / m['auto'] for m in rows.values()]),
    min(min(m.values()) / m['auto'] for m in rows.values())))
print('shapes where the best plan is not auto by 3% or more:')
for shape, m in sorted(rows.items()):
    best = min(m, key=m.get)
    if m[best] < 0.97 * m['auto']:
        print(f"   {'x'.join(shape):16s} auto {m['auto']:.1f} us, {best} {m[best]:.1f}")
print('\nrun 261: auto against dp and dp/128x256x64 (geomean, min)')
for dt in ('fp16', 'bf16'):
    for p in (1, 2):
        r = load(os.path.join(here, 'run261', f'waveq-{dt}-{p}.csv'))
        out = []
        for base in ('dp', 'dp/128x256x64'):
            v = [m[base] / m['auto'] for m in r.values()]
            out.append(f'{base} {gm(v):.3f} (min {min(v):.3f})')
        print(f'   {dt} pass {p}: ' + ', '.join(out))
