#!/usr/bin/env python3
"""Session 56, runs 299-300: the final planner's moves (moved_final.txt: 110 shapes, every one
from 2-SM clusters to data-parallel's pick), the new pick (auto) against the old one's very plan
and against dp, medians per dtype; the old pick from run 299's forced cluster modes where they ran
it, else from run 300's exact modes (exact_modes.txt) in the same passes as auto there. Then the
split-K picks on clusters that the term leaves (run 300): old pick (auto) against dp's.

  python3 final_check.py OLD_PLAN NEW_PLAN > final_check.txt   # streamk-plan of 2e1ca87, of this"""
import csv, glob, json, os, statistics, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
def load(pattern):
    t = {}
    for f in glob.glob(os.path.join(here, pattern)):
        for r in csv.DictReader(open(f)):
            if r['status'] == 'ok' and r['mode'] != 'cublas':
                t.setdefault((r['name'], r['dtype'], r['mode']), []).append(r)
    return t
t299, t300 = load('run299/tn-*.csv'), load('run300/tn-*.csv')
med = lambda v: statistics.median(float(x['time_us']) for x in v)
fields = lambda r: (r['plan_mode'], int(r['tile_m']), int(r['tile_n']), int(r['dp_tiles']),
                    int(r['sk_tiles']), int(r['sk_blocks']))
pj = lambda b, *a: json.loads(subprocess.run([b, *a, '--json', '--device', 'h200'],
                                             capture_output=True, text=True).stdout)
jfields = lambda j: (j['mode'], j['tile'][0], j['tile'][1], j['dp_tiles'], j['sk_tiles'],
                     j['sk_blocks'])
exact = {l.split()[0]: l.split()[4] for l in open(os.path.join(here, 'exact_modes.txt'))}
rows, problems = [], []
for l in open(os.path.join(here, 'moved_final.txt')):
    name, w, tk, k = l.split()
    old, new = pj(sys.argv[1], tk, w, k), pj(sys.argv[2], tk, w, k)
    for dt in ('fp16', 'bf16'):
        if name in exact:
            t, om = t300, exact[name]
        else:
            t, om = t299, '%s/%dx%dx%d' % (old['mode'], *old['tile'])
        o, a, d = t[(name, dt, om)], t[(name, dt, 'auto')], t[(name, dt, 'dp')]
        if fields(o[0]) != jfields(old): problems.append((name, dt, 'old', om))
        if fields(a[0]) != jfields(new): problems.append((name, dt, 'new'))
        rows.append((med(o) / med(a), med(d) / med(a), med(d) / med(o), name, dt, om,
                     '%s %sx%s' % (a[0]['plan_mode'], a[0]['tile_m'], a[0]['tile_n'])))
rows.sort()
print('# old/new  dp/new  dp/old  shape  dtype  old pick (its very plan)  new pick')
for r in rows:
    print('%.3f %.3f %.3f %-26s %s %-40s %s' % r)
for dt in ('fp16', 'bf16'):
    v = [r for r in rows if r[4] == dt]
    g = lambda i: statistics.geometric_mean([r[i] for r in v])
    print('%s: %d shapes; new against old: geomean %.3f, min %.3f, max %.3f, %d under 0.97; '
          'new against dp: geomean %.3f, min %.3f; old against dp: geomean %.3f, min %.3f, %d '
          'under 0.97' % (dt, len(v), g(0), min(r[0] for r in v), max(r[0] for r in v),
                          sum(r[0] < 0.97 for r in v), g(1), min(r[1] for r in v), g(2),
                          min(r[2] for r in v), sum(r[2] < 0.97 for r in v)))
print('plans that were not the ones named: %s' % (problems or 'none'))
print('\n# split-K on clusters, left out of the term (run 300): auto (the old pick, kept) against '
      'dp (data-parallel\'s pick, where the term would have moved it)')
sk = []
for name, mode in exact.items():
    if not mode.startswith('splitk'): continue
    for dt in ('fp16', 'bf16'):
        a, d = t300[(name, dt, 'auto')], t300[(name, dt, 'dp')]
        sk.append((med(d) / med(a), name, dt, '%s %s' % (a[0]['plan_mode'], a[0]['sk_blocks'])))
sk.sort()
for r in sk:
    print('%.3f %-26s %s %s' % r)
print('dp/auto: geomean %.3f, min %.3f, %d of %d under 0.97' % (
    statistics.geometric_mean([r[0] for r in sk]), min(r[0] for r in sk),
    sum(r[0] < 0.97 for r in sk), len(sk)))
