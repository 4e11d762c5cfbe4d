#!/usr/bin/env python3
"""Session 58: runs 306-307 (head 73e7bdb's streamk-bench: auto ran the old picks, dp what the new
rules run instead), per class of old pick, by rows on 128-byte lines (K a multiple of 64) and by
the predicted gain (dp's predicted time over the pick's); then NEW (streamk-plan) replayed: where
it runs dp's very plan the shape reads dp's time, elsewhere the old pick's. Per shape the
geometric mean of fp16 (median of two passes) and bf16 (one pass) dp / auto; "behind": under
0.97 in fp16 or bf16.

  python3 few_fit.py NEW > few_fit.txt"""
import csv, collections, json, os, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
rows = []
for run in ('run306', 'run307'):
    t, plan = collections.defaultdict(list), {}
    for f in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
        for r in csv.DictReader(open(os.path.join(here, run, f + '.csv'))):
            if r['status'] != 'ok':
                print('# not timed:', run, r['name'], r['mode'], r['status'])
                continue
            t[(r['name'], r['dtype'], r['mode'])].append(float(r['time_us']))
            plan[(r['name'], r['mode'])] = r
    for (name, mode), a in sorted(plan.items()):
        if mode != 'auto':
            continue
        q = plan[(name, 'dp')]
        ratio = {dt: statistics.median(t[(name, dt, 'dp')]) /
                 statistics.median(t[(name, dt, 'auto')]) for dt in ('fp16', 'bf16')}
        rows.append(dict(run=run, name=name, m=int(a['n']), n=int(a['m']), k=int(a['k']),
                         mode=a['plan_mode'], tile=a['tile_m'] + 'x' + a['tile_n'],
                         tiles=int(a['dp_tiles']) + int(a['sk_tiles']), fp16=ratio['fp16'],
                         bf16=ratio['bf16'], both=(ratio['fp16'] * ratio['bf16']) ** 0.5,
                         lines=int(a['k']) % 64 == 0,
                         share=(int(q['dp_tiles']) + int(q['sk_tiles'])) / 132,
                         pred=float(q['predicted_us']) / float(a['predicted_us'])))
behind = lambda x: x['fp16'] < 0.97 or x['bf16'] < 0.97
def summary(label, v):
    if not v:
        return
    m = [x['both'] for x in v]
    print('%-44s %3d  dp/old %.3f (%.3f-%.3f)  behind %3d' % (
        label, len(v), statistics.geometric_mean(m), min(m), max(m), sum(map(behind, v))))
print('# class, shapes, geomean (range) of dp / old pick, old picks 3% or more behind dp')
small = [x for x in rows if x['tile'] == '64x128' and x['share'] >= 0.25]
bins = ((0, 1.1), (1.1, 1.2), (1.2, 1.3), (1.3, 9))
for mode in ('streamk', 'splitk'):
    for lines in (True, False):
        for lo, hi in bins:
            summary('64x128 %s lines=%d pred %.1f-%.1f' % (mode, lines, lo, hi),
                    [x for x in small if x['mode'] == mode and x['lines'] == lines
                     and lo <= x['pred'] < hi])
alt = [x for x in rows if x['tile'] == '128x128' and x['mode'] == 'streamk' and x['tiles'] > 132]
for lines in (True, False):
    for lo, hi in ((0, 1.05), (1.05, 1.11), (1.11, 9)):
        summary('128x128 streamk lines=%d pred %.2f-%.2f' % (lines, lo, hi),
                [x for x in alt if x['lines'] == lines and lo <= x['pred'] < hi])
summary('128x128 streamk, all', alt)
summary('128x128 splitk (dp on 64x128 fills 30%+)',
        [x for x in rows if x['tile'] == '128x128' and x['mode'] == 'splitk'])
summary('128x256 streamk', [x for x in rows if x['tile'] == '128x256'])
def new_key(x):
    d = json.loads(subprocess.run([sys.argv[1], str(x['m']), str(x['n']), str(x['k']), '--json',
                                   '--device', 'h200'], capture_output=True, text=True).stdout)
    q = json.loads(subprocess.run([sys.argv[1], str(x['m']), str(x['n']), str(x['k']), '--json',
                                   '--device', 'h200', '--mode', 'dp'],
                                  capture_output=True, text=True).stdout)
    k = lambda p: (p['mode'], tuple(p['tile']), p['dp_tiles'], p['sk_blocks'])
    return k(d) == k(q) and x['mode'] != 'dp', (d['mode'], '%dx%d' % tuple(d['tile'][:2]))
moved = list(ThreadPoolExecutor(2).map(new_key, rows))
print('\n# NEW replayed: where it runs dp\'s very plan, dp / new = 1')
alt_sk = lambda x: x['tile'] == '128x128' and x['mode'] == 'streamk'
for label, sel in (('every shape', lambda x: True),
                   ('64x128 picks', lambda x: x['tile'] == '64x128'),
                   ('128x128 streamk picks', alt_sk),
                   ('other picks', lambda x: not (x['tile'] == '64x128' or alt_sk(x)))):
    v = [(x, mv) for x, (mv, _) in zip(rows, moved) if sel(x)]
    if not v:
        continue
    old = [x['both'] for x, _ in v]
    new = [1.0 if mv else x['both'] for x, mv in v]
    print('%-24s %3d shapes, %3d move: dp/pick geomean %.3f -> %.3f; behind %3d -> %3d; '
          'moved ran %.3f as fast on dp\'s (%.3f-%.3f)' % (
              label, len(v), sum(mv for _, mv in v), statistics.geometric_mean(old),
              statistics.geometric_mean(new), sum(behind(x) for x, _ in v),
              sum(behind(x) for x, mv in v if not mv),
              statistics.geometric_mean([1 / x['both'] for x, mv in v if mv] or [1]),
              min([1 / x['both'] for x, mv in v if mv] or [1]),
              max([1 / x['both'] for x, mv in v if mv] or [1])))
print('\n# kept picks still behind dp')
for (x, (mv, p)) in zip(rows, moved):
    if not mv and behind(x):
        print('  %-28s %s %s pred %.3f  dp/pick %.3f / %.3f' % (x['name'], x['mode'], x['tile'],
                                                              x['pred'], x['fp16'], x['bf16']))
