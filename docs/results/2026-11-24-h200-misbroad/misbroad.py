#!/usr/bin/env python3
"""Session 55, run 291: data-parallel 128 x 320 forced against auto on 60 one-round shapes with
misaligned K-major rows (shapes.txt), three passes (tn fp16 twice, bf16 once); per shape the
predicted ratio (auto's plan / 128 x 320, from the CSV's predicted_us) beside the measured one
(median of the passes' medians).  python3 misbroad.py > misbroad.txt"""
import csv, os, statistics
from collections import defaultdict
here = os.path.dirname(os.path.abspath(__file__))
t = defaultdict(lambda: defaultdict(list)); pred = {}; plan = {}; order = []
for f in ['tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1']:
    for r in csv.DictReader(open(os.path.join(here, 'run291', f + '.csv'))):
        if r['status'] != 'ok':
            continue
        key = r['name']
        if key not in order:
            order.append(key)
        t[key][r['mode']].append(float(r['time_us']))
        if r['mode'] != 'cublas':
            pred[key, r['mode']] = float(r['predicted_us'])
        if r['mode'] == 'auto':
            plan[key] = '%s %sx%s' % (r['plan_mode'], r['tile_m'], r['tile_n'])
print('# time(auto) / time(dp/128x320x64): > 1, the 128 x 320 tile faster; predicted and measured')
print('%-24s %-14s %7s %7s %7s %7s %7s' % ('shape', 'auto plan', 'k-its', 'pred', 'fp16', 'bf16',
                                         'cublas'))
meas = []; preds = []
for key in order:
    a, b, c = t[key]['auto'], t[key]['dp/128x320x64'], t[key]['cublas']
    k = int(key.split('.k')[1])
    p = pred[key, 'auto'] / pred[key, 'dp/128x320x64']
    fp16 = statistics.median(a[:2]) / statistics.median(b[:2])
    bf16 = a[2] / b[2]
    cb = statistics.median(c) / statistics.median(b)
    meas.append(fp16); preds.append(p)
    print('%-24s %-14s %7d %7.3f %7.3f %7.3f %7.3f' % (key, plan[key], k // 64, p, fp16, bf16, cb))
g = lambda xs: statistics.geometric_mean(xs)
print('\ngeomean measured fp16 %.3f (min %.3f, max %.3f); predicted %.3f' %
      (g(meas), min(meas), max(meas), g(preds)))
for lo, hi in [(1.0, 1.05), (1.05, 1.15), (1.15, 9)]:
    sel = [m for m, p in zip(meas, preds) if lo <= p < hi]
    if sel:
        print('predicted %.2f-%.2f: %2d shapes, measured geomean %.3f, min %.3f' %
              (lo, hi, len(sel), g(sel), min(sel)))
