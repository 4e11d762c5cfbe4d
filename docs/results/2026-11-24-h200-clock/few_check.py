#!/usr/bin/env python3
"""Session 51: run 275, the seven picks CostModel::few_tiles_streamk_gain moves, auto (the new
pick) against the old pick forced (every tile Stream-K on 128 x 128 over 132 blocks) and dp in
one pass each.

  python3 docs/results/2026-11-24-h200-clock/few_check.py RUN_DIR"""
import csv, glob, math, sys
run = sys.argv[1]
logs, old_dp, new_dp = [], [], []
for f in sorted(glob.glob(f'{run}/few-*.csv')):
    rows = {}
    for r in csv.DictReader(open(f)):
        rows.setdefault(f"{r['m']}x{r['n']}x{r['k']}", {})[r['mode']] = r
    print(f.split('/')[-1])
    for shape, m in rows.items():  # bench M weights x N tokens x K
        a, o, d = m['auto'], m['streamk:132/128x128x64'], m['dp']
        plan = lambda r: (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+sk"
                          f"{r['sk_tiles']}/{r['sk_blocks']}")
        t, to, td = (float(x['time_us']) for x in (a, o, d))
        logs.append(math.log(t / to))
        old_dp.append(td / to)
        new_dp.append(td / t)
        print(f'   {shape:16s} old {plan(o):30s} {to:6.1f}  new {plan(a):30s} {t:6.1f}  '
              f'new/old {t / to:.3f}  old/dp {td / to:.3f}  new/dp {td / t:.3f}')
print(f'\n{len(logs)} rows: new/old geomean {math.exp(sum(logs) / len(logs)):.3f} '
      f'({math.exp(min(logs)):.3f}-{math.exp(max(logs)):.3f}); the old pick read '
      f'{min(old_dp):.3f}-{max(old_dp):.3f} of dp, the new {min(new_dp):.3f}-{max(new_dp):.3f}')
