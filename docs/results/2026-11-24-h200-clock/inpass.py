#!/usr/bin/env python3
"""Session 51: run 271's moved rows, this build's auto (the new pick) against the old pick where a
forced mode runs it, in the same interleaved pass: every tile Stream-K (streamk/TILE, whose block
count the planner picks as the old auto did), the partial round with a separate reduction, or
data-parallel on 192 x 192. The two-tile hybrids of 2.5 rounds have no forced mode; run 270 timed
those against the one-tile in its passes (tail/auto there).

  python3 docs/results/2026-11-24-h200-clock/inpass.py RUN_DIR"""
import csv, math, sys
run = sys.argv[1]
logs = []
for p in (1, 2):
    old, new = {}, {}
    for r in csv.DictReader(open(f'{run}/old-{p}.csv')):
        old.setdefault(r['name'], {})[r['mode']] = r
    for r in csv.DictReader(open(f'{run}/new-{p}.csv')):
        new.setdefault(r['name'], {})[r['mode']] = r
    print(f'pass {p}')
    for name, m in new.items():
        o = old[name]['auto']
        key = (o['plan_mode'], o['tile_m'], o['tile_n'], o['dp_tiles'], o['sk_tiles'], o['reduction'])
        a = m['auto']
        if key == (a['plan_mode'], a['tile_m'], a['tile_n'], a['dp_tiles'], a['sk_tiles'],
                   a['reduction']):
            continue
        for mode, r in m.items():
            if mode in ('auto', 'dp', 'cublas') or r['status'] != 'ok':
                continue
            if key == (r['plan_mode'], r['tile_m'], r['tile_n'], r['dp_tiles'], r['sk_tiles'],
                       r['reduction']):
                t, to = float(a['time_us']), float(r['time_us'])
                logs.append(math.log(t / to))
                print(f'   {name:22s} old pick ({mode}, {o["sk_blocks"]}/{r["sk_blocks"]} blocks)'
                      f' {to:6.1f}  new {t:6.1f}  new/old {t / to:.3f}')
                break
print(f'\n{len(logs)} in-pass comparisons: new/old geomean {math.exp(sum(logs) / len(logs)):.3f} '
      f'({math.exp(min(logs)):.3f}-{math.exp(max(logs)):.3f})')
