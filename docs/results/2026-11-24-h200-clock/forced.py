#!/usr/bin/env python3
"""Session 51: run 272, each moved row's new pick (auto) against its old pick forced (the second
mode of its group) and `dp`, in one interleaved pass per layout and dtype; checks that the forced
mode ran the old pick's plan.

  python3 docs/results/2026-11-24-h200-clock/forced.py RUN_DIR"""
import csv, glob, math, os, sys
run = sys.argv[1]
total = {}
for combo in ('tn-fp16', 'nn-fp16', 'tn-bf16'):
    logs, vs_dp, old_dp = [], [], []
    print(combo)
    for f in sorted(glob.glob(f'{run}/{combo}-*.csv')):
        rows = {}
        modes = []
        for r in csv.DictReader(open(f)):
            rows.setdefault(f"{r['m']}x{r['n']}x{r['k']}", {})[r['mode']] = r
            if r['mode'] not in modes:
                modes.append(r['mode'])
        old = modes[1]
        for name, m in rows.items():  # bench M weights x N tokens x K
            a, o, d = m['auto'], m[old], m['dp']
            if 'ok' not in (a['status'], o['status']) or a['status'] != 'ok' or o['status'] != 'ok':
                print(f'   {name}: not timed ({a["status"]}, {o["status"]})')
                continue
            plan = lambda r: (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+"
                              f"sk{r['sk_tiles']}/{r['sk_blocks']}"
                              f"{' sep' if r['reduction'] == 'separate' else ''}")
            t, to, td = float(a['time_us']), float(o['time_us']), float(d['time_us'])
            logs.append(math.log(t / to))
            vs_dp.append(td / t)
            old_dp.append(td / to)
            print(f'   {name:18s} old {plan(o):34s} {to:7.1f}  new {plan(a):34s} {t:7.1f}  '
                  f'new/old {t / to:.3f}  auto/dp {td / t:.3f}')
    g = math.exp(sum(logs) / len(logs))
    print(f'   {len(logs)} rows: new/old geomean {g:.3f} ({math.exp(min(logs)):.3f}-'
          f'{math.exp(max(logs)):.3f}); auto/dp {min(vs_dp):.3f}-{max(vs_dp):.3f}, under 0.97 on '
          f'{sum(x < 0.97 for x in vs_dp)}; the old pick/dp {min(old_dp):.3f}-{max(old_dp):.3f}, '
          f'under 0.97 on {sum(x < 0.97 for x in old_dp)}\n')
