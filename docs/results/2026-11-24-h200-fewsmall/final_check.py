#!/usr/bin/env python3
"""Session 58, run 308: final_shapes.txt (fresh seeds 111-118, the 209 picks the new rules move)
on the old build (auto: the old pick; dp: what the new build runs) and on the new build (auto,
dp, cuBLAS), per class of old pick (K a multiple of 64: rows on 128-byte lines).

  python3 final_check.py > final_check.txt"""
import csv, collections, os, statistics
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'run308')
def load(prefix):
    t, plan = collections.defaultdict(dict), {}
    for dt in ('fp16', 'bf16'):
        for r in csv.DictReader(open(os.path.join(here, '%s-%s.csv' % (prefix, dt)))):
            if r['status'] != 'ok':
                print('# not timed:', prefix, r['name'], r['mode'], r['status'])
                continue
            t[(r['name'], dt)][r['mode']] = float(r['time_us'])
            plan[(r['name'], dt, r['mode'])] = r
    return t, plan
old, old_plan = load('old')
new, new_plan = load('new')
cls = collections.defaultdict(list)
for (name, dt), md in old.items():
    a = old_plan[(name, dt, 'auto')]
    c = '%s %sx%s %s' % (a['plan_mode'], a['tile_m'], a['tile_n'],
                         'on lines' if int(a['k']) % 64 == 0 else 'off lines')
    cls[(c, dt)].append(md['auto'] / md['dp'])  # new pick (dp's) over the old: > 1 faster
    cls[('all', dt)].append(md['auto'] / md['dp'])
print('# old pick\'s time over the new pick\'s (dp\'s very plan), > 1: the new pick is faster;')
print('# "old behind": the old pick 3% or more slower than dp; "old ahead": 3% or more faster')
for (c, dt), v in sorted(cls.items()):
    print('%-26s %s %3d  new/old speed geomean %.3f (%.3f-%.3f)  old behind %3d  old ahead %3d' % (
        c, dt, len(v), statistics.geometric_mean(v), min(v), max(v), sum(x > 1 / 0.97 for x in v),
        sum(x < 0.97 for x in v)))
print('\n# the new build: auto against dp (the same launch) and cuBLAS, time(other) / time(auto)')
for dt in ('fp16', 'bf16'):
    same = sum(new_plan[(n, d, 'auto')]['plan_mode'] == new_plan[(n, d, 'dp')]['plan_mode'] and
               new_plan[(n, d, 'auto')]['tile_n'] == new_plan[(n, d, 'dp')]['tile_n']
               for (n, d) in new if d == dt)
    dp = [md['dp'] / md['auto'] for (n, d), md in new.items() if d == dt]
    cb = [md['cublas'] / md['auto'] for (n, d), md in new.items() if d == dt]
    print('%s: %d shapes, auto ran dp\'s plan on %d; dp/auto %.3f (%.3f-%.3f); cuBLAS/auto %.3f '
          '(%.3f-%.3f)' % (dt, len(dp), same, statistics.geometric_mean(dp), min(dp), max(dp),
                           statistics.geometric_mean(cb), min(cb), max(cb)))
