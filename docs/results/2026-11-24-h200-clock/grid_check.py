#!/usr/bin/env python3
"""Session 51: run 273, auto against dp per shape over the passes (grid-*.csv): the shapes that
read under 0.97 of dp in any pass, with their plans and predictions.

  python3 docs/results/2026-11-24-h200-clock/grid_check.py RUN_DIR"""
import collections, csv, glob, math, sys
run = sys.argv[1]
by = collections.defaultdict(dict)
for f in sorted(glob.glob(f'{run}/grid-*.csv')):
    tag = f.split('grid-')[1][:-4]
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            by[r['name']].setdefault(tag, {})[r['mode']] = r
tags = sorted({t for v in by.values() for t in v})
print('shape                  ' + ' '.join(f'{t:>10s}' for t in tags) + '   auto plan (pred) / dp plan (pred)')
low = 0
for name, v in by.items():
    ratios = {t: float(v[t]['dp']['time_us']) / float(v[t]['auto']['time_us']) for t in v}
    if min(ratios.values()) >= 0.97:
        continue
    low += 1
    a, d = v[tags[0]]['auto'], v[tags[0]]['dp']
    plan = lambda r: (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+sk"
                      f"{r['sk_tiles']}/{r['sk_blocks']} ({float(r['predicted_us']):.1f})")
    print(f'{name:22s} ' + ' '.join(f'{ratios.get(t, float("nan")):10.3f}' for t in tags) +
          f'   {plan(a)} / {plan(d)}')
print(f'\n{low} of {len(by)} shapes under 0.97 of dp in some pass')
for t in tags:
    r = [float(v[t]['dp']['time_us']) / float(v[t]['auto']['time_us']) for v in by.values() if t in v]
    print(f'{t}: auto/dp geomean {math.exp(sum(map(math.log, r)) / len(r)):.3f}, '
          f'under 0.97 on {sum(x < 0.97 for x in r)} of {len(r)}')
