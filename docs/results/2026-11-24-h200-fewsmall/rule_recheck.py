#!/usr/bin/env python3
"""Session 58: run 301's 457 random shapes (session 56's rule_shapes.txt, where auto's plan differed
from dp's) replanned by NEW: where it runs dp's very plan, dp / auto reads 1 (the same launch);
where it runs run 301's auto plan (the CSV's plan columns), run 301's times stand; any other plan
is listed as untimed. Medians of run 301's three passes, per dtype.

  python3 rule_recheck.py NEW > rule_recheck.txt"""
import csv, json, os, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
old_dir = os.path.join(here, '..', '2026-11-24-h200-clusters')
t, plan = {}, {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for r in csv.DictReader(open(os.path.join(old_dir, 'run301', p + '.csv'))):
        if r['status'] == 'ok' and r['mode'] != 'cublas':
            t.setdefault((r['name'], r['dtype'], r['mode']), []).append(float(r['time_us']))
            plan[(r['name'], r['mode'])] = (r['plan_mode'], int(r['tile_m']), int(r['tile_n']),
                                            int(r['dp_tiles']), int(r['sk_tiles']),
                                            int(r['sk_blocks']), r['repack'] not in ('', 'none'))
def pj(m, n, k, *x):
    return json.loads(subprocess.run([sys.argv[1], m, n, k, '--json', '--device', 'h200', *x],
                                     capture_output=True, text=True).stdout)
key = lambda d: (d['mode'], d['tile'][0], d['tile'][1], d['dp_tiles'], d['sk_tiles'],
                 d['sk_blocks'], d['repack_a'] or d['repack_b'])
shapes = [l.split()[:4] for l in open(os.path.join(old_dir, 'rule_shapes.txt'))]
def one(s):
    name, w, tk, k = s
    return name, key(pj(tk, w, k)), key(pj(tk, w, k, '--mode', 'dp'))
res = {'fp16': [], 'bf16': []}
now_dp = untimed = 0
with ThreadPoolExecutor(2) as ex:
    for name, new, dp in ex.map(one, shapes):
        if new == dp:
            now_dp += new != plan[(name, 'auto')]
            for dt in res:
                res[dt].append((1.0, name))
            continue
        if new != plan[(name, 'auto')]:
            untimed += 1
            print('# untimed new plan:', name, new)
            continue
        for dt in res:
            res[dt].append((statistics.median(t[(name, dt, 'dp')]) /
                            statistics.median(t[(name, dt, 'auto')]), name))
print('# %d of %d shapes now run dp\'s very plan where run 301\'s auto did not (dp / auto = 1); '
      '%d new plans untimed' % (now_dp, len(shapes), untimed))
for dt, v in res.items():
    x = [a for a, _ in v]
    print('%s: %d shapes, dp / auto geomean %.3f, min %.3f; %d under 0.97: %s' % (
        dt, len(x), statistics.geometric_mean(x), min(x), sum(a < 0.97 for a in x),
        ' '.join('%s %.3f' % (n, a) for a, n in sorted(v) if a < 0.97)))
