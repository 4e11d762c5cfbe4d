#!/usr/bin/env python3
"""Session 51: the same plans on two lent H200s, run 273's (median SM clock 1875 MHz busy) over
runs 270-271's (1665-1755 MHz): each plan's fastest time in run 273's tn fp16 passes over its
fastest in runs 270-271 (tn fp16), by kind of plan.

  python3 docs/results/2026-11-24-h200-clock/machines.py"""
import collections, csv, math, os
here = os.path.dirname(os.path.abspath(__file__))
def load(files):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in files:
        for r in csv.DictReader(open(os.path.join(here, f))):
            if r['status'] != 'ok':
                continue
            plan = ('cublas',) if r['mode'] == 'cublas' else (
                r['plan_mode'], r['tile_m'], r['tile_n'], r['dp_tiles'], r['sk_tiles'],
                r['sk_blocks'], r['reduction'])
            d[(r['m'], r['n'], r['k'])][plan].append(float(r['time_us']))
    return d
slow = load([f'run271/new-{p}.csv' for p in (1, 2)] + [f'run270/rows-{p}.csv' for p in (1, 2, 3)])
fast = load([f'run273/grid-tn-fp16-{p}.csv' for p in (1, 2, 3)])
kinds = collections.defaultdict(list)
for shape, plans in fast.items():
    for plan, t in plans.items():
        if plan in slow.get(shape, {}):
            kind = plan[0] if plan[0] != 'streamk' else (
                'streamk, every tile' if plan[3] == '0' else 'streamk, with data-parallel tiles')
            kinds[kind].append(min(t) / min(slow[shape][plan]))
for kind, v in sorted(kinds.items()):
    print(f'{kind:34s} {len(v):3d} plans: time fast / slow geomean '
          f'{math.exp(sum(map(math.log, v)) / len(v)):.3f} ({min(v):.3f}-{max(v):.3f})')
