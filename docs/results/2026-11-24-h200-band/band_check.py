#!/usr/bin/env python3
"""Session 57: the picks DataParallelOverMisalignedSplit moves, timed by the old build (its auto:
the old pick's very plan) and the new (auto, which runs dp's plan); medians over tn fp16 twice and
bf16 once, per dtype. Ratios old / new: > 1, the move gains. Seeds named in OUT_OF_SAMPLE are
summed up apart.

  python3 band_check.py run303 band_shapes.txt r71,r72,r73,r74,r75,r76 > band_check.txt
  python3 band_check.py run304 final_shapes.txt r81,r82,r83,r84,r85,r86 > final_check.txt"""
import csv, os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
t = {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for suffix, who in (('', 'new'), ('-old', 'old')):
        for r in csv.DictReader(open(os.path.join(here, sys.argv[1], p + suffix + '.csv'))):
            assert r['status'] == 'ok', r
            if r['mode'] != 'auto': continue
            t.setdefault((r['name'], r['dtype'], who), []).append(float(r['time_us']))
            if who == 'new':
                assert r['plan_mode'] == 'dp', r['name']
                t[(r['name'], 'dp')] = (int(r['dp_tiles']), '%sx%s' % (r['tile_m'], r['tile_n']))
            if who == 'old': t[(r['name'], 'plan')] = '%s %sx%s' % (r['plan_mode'], r['tile_m'],
                                                                   r['tile_n'])
fresh = sys.argv[3].split(',')
names = [l.split()[0] for l in open(os.path.join(here, sys.argv[2]))]
rows = []
for n in names:
    for dt in ('fp16', 'bf16'):
        old = statistics.median(t[(n, dt, 'old')]); new = statistics.median(t[(n, dt, 'new')])
        rows.append((old / new, n, dt, old, new, t[(n, 'plan')]))
def summary(title, v):
    if not v: return
    print('%-44s %3d: geomean %.3f, %.3f-%.3f; new 3%% or more behind old %2d, ahead %2d' % (
        title, len(v), statistics.geometric_mean(v), min(v), max(v), sum(x < 0.97 for x in v),
        sum(x > 1.03 for x in v)))
print('# old pick / dp (the move), medians; > 1: the move gains')
for dt in ('fp16', 'bf16'):
    summary('all moved, ' + dt, [r[0] for r in rows if r[2] == dt])
    summary('seeds %s, %s' % (sys.argv[3], dt),
            [r[0] for r in rows if r[2] == dt and r[1].split('.')[0] in fresh])
    summary('the others, ' + dt,
            [r[0] for r in rows if r[2] == dt and r[1].split('.')[0] not in fresh])
    for plan in sorted(set(r[5] for r in rows)):
        summary('  old pick %s, %s' % (plan, dt), [r[0] for r in rows if r[2] == dt and
                                                   r[5] == plan])
print()
print('# by data-parallel\'s tiles (its tile), both dtypes')
for lo, hi in ((33, 45), (45, 60), (60, 70), (70, 80), (80, 89)):
    for tile in ('64x128', '128x128', '128x256'):
        v = [r[0] for r in rows if lo <= t[(r[1], 'dp')][0] < hi and t[(r[1], 'dp')][1] == tile]
        if v: summary('  %d-%d tiles of %s' % (lo, hi - 1, tile), v)
print()
print('# per shape: old / new, shape, dtype, old us, new us, old pick')
for r in sorted(rows):
    print('%.3f %-26s %s %7.2f %7.2f  %s' % r)
