#!/usr/bin/env python3
"""Session 52: run 279's moved picks (wide_moved.txt), every tile Stream-K on 128 x 256 (the old
pick) against data-parallel 128 x 192 (the new), both forced in the same pass, and auto before
(wide-*.csv) and after (xp-*.csv, XP_MAIN=0.03), with the predicted gain of the old pick over the
new; per pass time(old) / time(new) (> 1: the new pick faster).

  python3 docs/results/2026-11-24-h200-rows5/wide.py RUN_DIR STREAMK_PLAN"""
import csv, collections, glob, json, math, os, subprocess, sys
run, plan = sys.argv[1:3]
def pred(m, n, k, *extra):
    return json.loads(subprocess.run([plan, m, n, k, '--json', '--device', 'h200'] + list(extra),
                                     capture_output=True, text=True).stdout)['predicted_us']
rows = collections.defaultdict(dict)
tags = []
for f in sorted(glob.glob(f'{run}/wide-*.csv')):
    tag = os.path.basename(f)[5:-4]
    tags.append(tag)
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            rows[r['name']].setdefault(tag, {})[r['mode']] = r
    for r in csv.DictReader(open(f.replace('/wide-', '/xp-'))):
        if r['status'] == 'ok':
            rows[r['name']][tag]['xp'] = r
print(f"{'row':4s} {'planner M N K':18s} {'pred':>6s}  " + ' '.join(f'{t:>10s}' for t in tags) +
      '   geomean  (forced SK / forced 128x192)')
logs, per = collections.defaultdict(list), []
for name, v in rows.items():
    r = next(iter(v.values()))['auto']
    m, n, k = r['n'], r['m'], r['k']
    sk = pred(m, n, k, '--mode', 'streamk', '--tile', '128x256x64')
    mid = pred(m, n, k, '--mode', 'dp', '--tile', '128x192x64')
    x = [float(v[t]['streamk:132/128x256x64']['time_us']) /
         float(v[t]['dp/128x192x64']['time_us']) for t in tags]
    for t, y in zip(tags, x):
        logs[t].append(math.log(y))
    g = math.exp(sum(map(math.log, x)) / len(x))
    per.append((name, mid / sk, g))
    print(f"{name:4s} {m+' '+n+' '+k:18s} {mid / sk:6.3f}  " + ' '.join(f'{y:10.3f}' for y in x) +
          f'   {g:.3f}')
for t in tags:
    y = logs[t]
    print(f'{t}: forced SK / forced 128x192 geomean {math.exp(sum(y) / len(y)):.3f}, min '
          f'{math.exp(min(y)):.3f}, max {math.exp(max(y)):.3f}')
    a = [float(v[t]['auto']['time_us']) / float(v[t]['xp']['time_us']) for v in rows.values()]
    print(f'   auto before / auto after (separate calls) geomean '
          f'{math.exp(sum(map(math.log, a)) / len(a)):.3f}')
print('\nby the predicted gain of every tile Stream-K over 128 x 192 (pred = time(128x192) / '
      'time(SK) predicted):')
for lo, hi in ((0.0, 1.0), (1.0, 1.015), (1.015, 1.025), (1.025, 1.035)):
    s = [g for _, p, g in per if lo <= p < hi]
    if s:
        print(f'  pred {lo:.3f}-{hi:.3f}: {len(s):2d} shapes, measured SK / 128x192 geomean '
              f'{math.exp(sum(map(math.log, s)) / len(s)):.3f} ({min(s):.3f}-{max(s):.3f})')
