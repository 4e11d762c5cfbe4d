#!/usr/bin/env python3
"""Session 57: run 301's 457 random shapes (rule_shapes.txt, seeds 41-44, where auto's plan differed
from dp's) replanned by the new build (NEW) and the old (OLD): where the new auto runs dp's very
plan, dp / auto reads 1 (the same launch); where it runs the old pick, run 301's times stand; any
other new plan is listed as untimed. Medians of run 301's three passes, per dtype.

  python3 rule_recheck.py OLD NEW > rule_recheck.txt"""
import csv, json, os, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
old_dir = os.path.join(here, '..', '2026-11-24-h200-clusters')
t = {}
for p in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1'):
    for r in csv.DictReader(open(os.path.join(old_dir, 'run301', p + '.csv'))):
        if r['status'] == 'ok':
            t.setdefault((r['name'], r['dtype'], r['mode']), []).append(float(r['time_us']))
def pj(b, m, n, k, *x):
    return json.loads(subprocess.run([b, m, n, k, '--json', '--device', 'h200', *x],
                                     capture_output=True, text=True).stdout)
key = lambda d: (d['mode'], tuple(d['tile']), d['dp_tiles'], d['sk_tiles'], d['sk_blocks'],
                 d['reduction'], d['repack_a'], d['repack_b'], d['cluster_m'])
shapes = [l.split()[:4] for l in open(os.path.join(old_dir, 'rule_shapes.txt'))]
def one(s):
    name, w, tk, k = s
    return s, key(pj(sys.argv[1], tk, w, k)), key(pj(sys.argv[2], tk, w, k)), \
        key(pj(sys.argv[2], tk, w, k, '--mode', 'dp'))
res = {'fp16': [], 'bf16': []}
now_dp = untimed = 0
with ThreadPoolExecutor(2) as ex:
    for s, old, new, dp in ex.map(one, shapes):
        name = s[0]
        if new == dp and old != dp:
            now_dp += 1
        elif new != old:
            untimed += 1
            print('# untimed new plan:', name, new)
            continue
        for dt in res:
            if new == dp:
                res[dt].append((1.0, name))
            else:
                res[dt].append((statistics.median(t[(name, dt, 'dp')]) /
                                statistics.median(t[(name, dt, 'auto')]), name))
print('# %d of %d shapes now run dp\'s very plan (dp / auto = 1); %d new plans untimed' % (
    now_dp, len(shapes), untimed))
for dt, v in res.items():
    x = [a for a, _ in v]
    print('%s: %d shapes, dp / auto geomean %.3f, min %.3f; %d under 0.97: %s' % (
        dt, len(x), statistics.geometric_mean(x), min(x), sum(a < 0.97 for a in x),
        ' '.join('%s %.3f' % (n, a) for a, n in sorted(v) if a < 0.97)))
