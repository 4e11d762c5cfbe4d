#!/usr/bin/env python3
"""Session 56, run 301: the shapes of rule_shapes.txt on which auto splits or streams the
k-iterations while dp runs the 64 x 128 tile: the gain auto's pick was predicted over that tile's
data-parallel plan (streamk-plan PLAN's candidates, per-iteration misaligned terms included)
against the measured dp / auto (median of run 301's three passes, fp16 and bf16 together).

  python3 small_margin.py PLAN > small_margin.txt   # PLAN: streamk-plan of ca72a60"""
import csv, json, os, statistics, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
t = {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for r in csv.DictReader(open(os.path.join(here, 'run301', p + '.csv'))):
        if r['status'] == 'ok':
            t.setdefault((r['name'], r['mode']), []).append(float(r['time_us']))
rows = []
for l in open(os.path.join(here, 'rule_shapes.txt')):
    name, w, tk, k, _, kind, mode, tile, _, dp_tile = l.split()[:10]
    if dp_tile != '64x128' or kind not in ('splitk', 'streamk'): continue
    d = json.loads(subprocess.run([sys.argv[1], tk, w, k, '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    chosen = [c for c in d['candidates'] if c['chosen']][0]
    small = [c for c in d['candidates'] if c['name'] == 'dp [64x128x64]']
    if not small: continue
    rows.append((small[0]['predicted_us'] / chosen['predicted_us'],
                 statistics.median(t[(name, 'dp')]) / statistics.median(t[(name, 'auto')]),
                 name, '%s %s %s' % (mode, tile, chosen['reduction'])))
rows.sort()
print('# predicted gain over dp 64x128, measured dp / auto, shape, auto pick')
for r in rows:
    print('%.3f %.3f %-24s %s' % r)
for lo, hi in ((1.0, 1.25), (1.25, 1.5), (1.5, 99)):
    for rows_kind in ('m', 'a'):
        v = [r[1] for r in rows if lo <= r[0] < hi and r[2][0] == rows_kind]
        if v:
            print('predicted %.2f-%.2f, %s rows: %3d shapes, measured geomean %.3f, %.3f-%.3f, '
                  '%d under 0.97' % (lo, hi, 'misaligned' if rows_kind == 'm' else 'aligned',
                                     len(v), statistics.geometric_mean(v), min(v), max(v),
                                     sum(x < 0.97 for x in v)))

# Run 302: small_shapes.txt (small_scan.py, seeds 45-50), every such misaligned shape predicted
# under 1.25x, out of sample.
t2 = {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for r in csv.DictReader(open(os.path.join(here, 'run302', p + '.csv'))):
        if r['status'] == 'ok':
            t2.setdefault((r['name'], r['mode']), []).append(float(r['time_us']))
v = []
for l in open(os.path.join(here, 'small_shapes.txt')):
    name = l.split()[0]
    v.append(statistics.median(t2[(name, 'dp')]) / statistics.median(t2[(name, 'auto')]))
print('run 302, misaligned rows predicted under 1.25x: %d shapes, measured geomean %.3f, '
      '%.3f-%.3f, %d under 0.97, %d over 1.03' % (
          len(v), statistics.geometric_mean(v), min(v), max(v), sum(x < 0.97 for x in v),
          sum(x > 1.03 for x in v)))
