#!/usr/bin/env python3
"""Session 59: run 310 (head 04eb5f1's streamk-bench) on census_old.txt, and runs 306-307's
Stream-K picks on 128 x 256 (../2026-11-24-h200-fewsmall/): per class (ska / skm every tile
Stream-K on aligned / misaligned rows, skah / skmh the hybrids) and by the predicted gain (dp's
predicted time over the pick's), the geometric mean of fp16 (median of two passes) and bf16 (one
pass) time(dp) / time(auto) per shape; "behind": under 0.97 in fp16 or bf16.

With OLD and NEW (streamk-plan before and after session 59), also: the misaligned picks by the
per-iteration predictions (OLD's chosen candidates, auto's and dp's: what DataParallelOverSplitPick
compares), and NEW replayed: where NEW's auto runs dp's very plan the shape reads dp's time,
elsewhere the old pick's.

  python3 fit.py OLD NEW > fit.txt"""
import csv, collections, json, os, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
def load(d, names):
    t, plan, rows = collections.defaultdict(list), {}, []
    for f in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
        for r in csv.DictReader(open(os.path.join(d, f + '.csv'))):
            if r['status'] != 'ok':
                print('# not timed:', d, r['name'], r['mode'], r['status'])
                continue
            t[(r['name'], r['dtype'], r['mode'])].append(float(r['time_us']))
            plan[(r['name'], r['mode'])] = r
    for (name, mode), a in sorted(plan.items()):
        if mode != 'auto' or not names(name) or a['tile_n'] != '256' or a['plan_mode'] != 'streamk':
            continue
        q = plan[(name, 'dp')]
        ratio = {dt: statistics.median(t[(name, dt, 'dp')]) /
                 statistics.median(t[(name, dt, 'auto')]) for dt in ('fp16', 'bf16')}
        cls = name.split('.')[0]
        if d.endswith('run306') or d.endswith('run307'):
            cls = 'ska' if name.startswith('ska') else 'skah'
        rows.append(dict(name=name, cls=cls, m=int(a['n']), n=int(a['m']), k=int(a['k']),
                         dp_tile=q['tile_m'] + 'x' + q['tile_n'], fp16=ratio['fp16'],
                         bf16=ratio['bf16'], both=(ratio['fp16'] * ratio['bf16']) ** 0.5,
                         pred=float(q['predicted_us']) / float(a['predicted_us']),
                         src=os.path.basename(d)))
    return rows
few = os.path.join(here, '..', '2026-11-24-h200-fewsmall')
old = [x for r in ('run306', 'run307')
       for x in load(os.path.join(few, r), lambda s: s.startswith('sk') and '256' in s)]
new = load(os.path.join(here, 'run310'), lambda s: True)
behind = lambda x: x['fp16'] < 0.97 or x['bf16'] < 0.97
def summary(label, v):
    if not v:
        return
    m = [x['both'] for x in v]
    print('%-40s %3d  dp/auto %.3f (%.3f-%.3f)  behind %3d' % (
        label, len(v), statistics.geometric_mean(m), min(m), max(m), sum(map(behind, v))))
bins = ((0, 0.99), (0.99, 1.0), (1.0, 1.01), (1.01, 1.03), (1.03, 9))
for label, rows in (('runs 306-307', old), ('run 310', new), ('both', old + new)):
    print('# %s: class, predicted gain, shapes, time(dp)/time(auto) geomean (range), '
          'behind dp 3%%+' % label)
    for cls in ('ska', 'skm', 'skah', 'skmh'):
        for lo, hi in bins:
            summary('%-4s pred %.2f-%.2f' % (cls, lo, hi),
                    [x for x in rows if x['cls'] == cls and lo <= x['pred'] < hi])
        summary('%-4s all' % cls, [x for x in rows if x['cls'] == cls])
    print()
print('# every tile Stream-K, aligned rows, predicted no faster than dp\'s pick (pred < 1)')
for x in sorted(old + new, key=lambda x: x['pred']):
    if x['cls'] == 'ska' and x['pred'] < 1:
        print('  %-28s %-7s dp on %-7s pred %.3f  dp/auto %.3f / %.3f' % (
            x['name'], x['src'], x['dp_tile'], x['pred'], x['fp16'], x['bf16']))
print('\n# picks 3% or more behind dp, other classes')
for x in sorted(old + new, key=lambda x: (x['cls'], x['pred'])):
    if x['cls'] != 'ska' and behind(x):
        print('  %-28s %-7s %-4s dp on %-7s pred %.3f  dp/auto %.3f / %.3f' % (
            x['name'], x['src'], x['cls'], x['dp_tile'], x['pred'], x['fp16'], x['bf16']))
if len(sys.argv) < 3:
    sys.exit()
def plan_json(b, x, *a):
    return json.loads(subprocess.run([b, str(x['m']), str(x['n']), str(x['k']), '--json',
                                      '--device', 'h200', *a],
                                     capture_output=True, text=True).stdout)
def iter_pred(x):
    us = lambda d: [c for c in d['candidates'] if c['chosen']][0]['predicted_us']
    return us(plan_json(sys.argv[1], x, '--mode', 'dp')) / us(plan_json(sys.argv[1], x))
skm = [x for x in old + new if x['cls'] == 'skm']
print('\n# skm by the per-iteration predictions (dp\'s pick over the old pick\'s)')
for x, p in zip(skm, ThreadPoolExecutor(2).map(iter_pred, skm)):
    x['iter_pred'] = p
for lo, hi in ((0, 1.0), (1.0, 1.031), (1.031, 1.09), (1.09, 9)):
    summary('skm  per-iteration pred %.3f-%.3f' % (lo, hi),
            [x for x in skm if lo <= x['iter_pred'] < hi])
def moves(x):
    pj = lambda *a: plan_json(sys.argv[2], x, *a)
    k = lambda p: (p['mode'], tuple(p['tile']), p['dp_tiles'], p['sk_blocks'], p['repack_a'],
                   p['repack_b'], p['cluster_m'])
    return k(pj()) == k(pj('--mode', 'dp'))
rows = old + new
moved = list(ThreadPoolExecutor(2).map(moves, rows))
print('\n# NEW replayed: where it runs dp\'s very plan, dp / new = 1')
for cls in ('ska', 'skm', 'skah', 'skmh'):
    v = [(x, mv) for x, mv in zip(rows, moved) if x['cls'] == cls]
    if not v:
        continue
    mvd = [1 / x['both'] for x, mv in v if mv] or [1]
    print('%-4s %3d shapes, %3d move: dp/pick geomean %.3f -> %.3f; behind %2d -> %2d; moved ran '
          '%.3fx as fast on dp\'s (%.3f-%.3f)' % (
              cls, len(v), sum(mv for _, mv in v),
              statistics.geometric_mean([x['both'] for x, _ in v]),
              statistics.geometric_mean([1.0 if mv else x['both'] for x, mv in v]),
              sum(behind(x) for x, _ in v), sum(behind(x) for x, mv in v if not mv),
              statistics.geometric_mean(mvd), min(mvd), max(mvd)))
print('\n# kept picks still behind dp')
for x, mv in zip(rows, moved):
    if not mv and behind(x):
        print('  %-28s %-7s pred %.3f  dp/pick %.3f / %.3f' % (x['name'], x['src'], x['pred'],
                                                           x['fp16'], x['bf16']))
