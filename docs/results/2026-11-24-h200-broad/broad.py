#!/usr/bin/env python3
"""Session 53: data-parallel 128 x 320 forced against auto, dp and cuBLAS per shape and pass
(run 284's CSVs): time(mode) / time(dp/128x320x64), > 1 means 128 x 320 is faster, and 128 x 320's
measured / predicted time.

  python3 docs/results/2026-11-24-h200-broad/broad.py docs/results/2026-11-24-h200-broad/run284"""
import csv, glob, math, os, sys
from collections import defaultdict

runs = sys.argv[1:]
rows = defaultdict(dict)  # (shape, pass) -> mode -> (time, predicted, plan)
passes = []
for d in runs:
    for f in sorted(glob.glob(os.path.join(d, '*.csv'))):
        p = os.path.basename(d) + '/' + os.path.basename(f)[:-4]
        passes.append(p)
        for r in csv.DictReader(open(f)):
            if r['status'] != 'ok':
                continue
            plan = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}"
            if r['plan_mode'] != 'dp':
                plan += f" sk{r['sk_tiles']}"
            rows[(r['name'], p)][r['mode']] = (float(r['time_us']),
                                               float(r['predicted_us'] or 0), plan)
B = 'dp/128x320x64'
print(f"{'shape':22} {'pass':22} {'auto plan':20} {'auto/B':>7} {'dp/B':>6} {'cub/B':>6} "
      f"{'B meas/pred':>11}")
per = defaultdict(list)
for (name, p), m in sorted(rows.items()):
    if B not in m or 'auto' not in m:
        continue
    b = m[B][0]
    a, d, c = m['auto'][0] / b, m['dp'][0] / b, m['cublas'][0] / b if 'cublas' in m else 0
    per[name].append(a)
    print(f"{name:22} {p:22} {m['auto'][2]:20} {a:7.3f} {d:6.3f} {c:6.3f} "
          f"{m[B][0] / m[B][1]:11.3f}")
print('\nper shape, geomean over passes of time(auto) / time(128 x 320 dp):')
for name, v in sorted(per.items(), key=lambda kv: -sum(map(math.log, kv[1])) / len(kv[1])):
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"  {name:22} {g:6.3f}  ({min(v):.3f}-{max(v):.3f}, {len(v)} passes)")
