#!/usr/bin/env python3
"""Session 57: the rule DataParallelOverMisalignedSplit fitted. Runs 301 and 302's misaligned shapes
(../2026-11-24-h200-clusters/: rule_shapes.txt, small_shapes.txt) on which the old planner (PLAN,
HEAD 8a21c2d) splits or streams the k-iterations on single-SM tiles without copies: the gain its
pick was predicted over data-parallel's (candidates' predictions, per-iteration misaligned terms),
data-parallel's tiles, and the measured dp / auto (medians of fp16 twice and bf16 once). Then the
same by bands of data-parallel's tiles, measured / predicted per side, and candidate rules.

  python3 band_fit.py PLAN > band_fit.txt"""
import csv, json, os, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
old = os.path.join(here, '..', '2026-11-24-h200-clusters')
def pj(m, n, k, *x):
    return json.loads(subprocess.run([sys.argv[1], str(m), str(n), str(k), '--json', '--device',
                                      'h200', *x], capture_output=True, text=True).stdout)
items = []
for run, f in (('run301', 'rule_shapes.txt'), ('run302', 'small_shapes.txt')):
    t = {}
    for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
        for r in csv.DictReader(open(os.path.join(old, run, p + '.csv'))):
            if r['status'] == 'ok':
                t.setdefault((r['name'], r['mode']), []).append(float(r['time_us']))
    for l in open(os.path.join(old, f)):
        x = l.split()
        if x[0][0] == 'a' or (x[0], 'dp') not in t: continue  # aligned rows: not this rule's
        items.append((x[0], int(x[1]), int(x[2]), int(x[3]), statistics.median(t[(x[0], 'dp')]),
                      statistics.median(t[(x[0], 'auto')])))
def one(it):
    name, w, tk, k = it[:4]
    return it, pj(tk, w, k), pj(tk, w, k, '--mode', 'dp')
rows = []
with ThreadPoolExecutor(2) as ex:
    for it, a, d in ex.map(one, items):
        if a['mode'] not in ('splitk', 'streamk') or a['cluster_m'] != 1: continue
        if a['repack_a'] or a['repack_b']: continue
        ca = [c for c in a['candidates'] if c['chosen']][0]['predicted_us']
        cd = [c for c in d['candidates'] if c['chosen']][0]['predicted_us']
        rows.append(dict(name=it[0], meas=it[4] / it[5], gain=cd / ca, dp_tiles=d['tiles'],
                         dp_fit=it[4] / cd, pick_fit=it[5] / ca,
                         pick='%s %dx%d' % (a['mode'], a['tile'][0], a['tile'][1]),
                         dp='%dx%d' % (d['tile'][0], d['tile'][1])))
def line(title, v):
    x = [r['meas'] for r in v]
    if not x: return
    print('%-40s %3d: dp / auto geomean %.3f, %.3f-%.3f, %2d under 0.97, %2d over 1.03' % (
        title, len(x), statistics.geometric_mean(x), min(x), max(x), sum(a < 0.97 for a in x),
        sum(a > 1.03 for a in x)))
print('# %d picks; by predicted gain and data-parallel\'s tiles (of 132 SMs)' % len(rows))
for lo, hi in ((0, 34), (34, 45), (45, 60), (60, 80), (80, 90), (90, 133), (133, 99999)):
    for glo, ghi in ((0, 1.25), (1.25, 1.5), (1.5, 99)):
        line('tiles %d-%d, predicted %.2f-%.2f' % (lo, hi - 1, glo, ghi),
             [r for r in rows if lo <= r['dp_tiles'] < hi and glo <= r['gain'] < ghi])
print()
print('# predicted under 1.25x: measured / predicted (candidates), geomeans')
for lo, hi in ((0, 34), (34, 60), (60, 91), (91, 99999)):
    v = [r for r in rows if lo <= r['dp_tiles'] < hi and r['gain'] < 1.25]
    if v:
        print('tiles %d-%d: %3d picks, data-parallel %.3f, the pick %.3f' % (
            lo, hi - 1, len(v), statistics.geometric_mean([r['dp_fit'] for r in v]),
            statistics.geometric_mean([r['pick_fit'] for r in v])))
print()
print('# candidate rules: data-parallel\'s pick where its tiles fill LO-HI of 132 and the pick is '
      'predicted under G')
for lo, hi in ((0.25, 0.6), (0.25, 2 / 3), (0.3, 0.6), (0.3, 2 / 3), (0, 99)):
    for g in (1.2, 1.25, 1.3):
        moved = [r for r in rows if lo * 132 <= r['dp_tiles'] <= hi * 132 and r['gain'] < g]
        kept = [r for r in rows if r not in moved]
        x = [r['meas'] for r in moved]
        print('%.2f-%.2f, under %.2f: moves %3d (dp / auto %.3f; %2d were 3%% behind, %2d 3%% '
              'ahead), leaves %2d 3%% behind' % (
                  lo, hi, g, len(moved), statistics.geometric_mean(x) if x else 1,
                  sum(a < 0.97 for a in x), sum(a > 1.03 for a in x),
                  sum(r['meas'] < 0.97 for r in kept)))
print()
print('# per pick: dp / auto, predicted gain, data-parallel\'s tiles, shape, pick, dp\'s tile')
for r in sorted(rows, key=lambda r: r['meas']):
    print('%.3f %.3f %3d %-26s %-16s %s' % (r['meas'], r['gain'], r['dp_tiles'], r['name'],
                                             r['pick'], r['dp']))
