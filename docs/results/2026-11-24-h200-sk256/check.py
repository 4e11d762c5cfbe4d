#!/usr/bin/env python3
"""Session 59: run 311 out of sample. moved_shapes.txt (fresh seeds 161-200: the 141 shapes whose
pick session 59's rules move) on head 04eb5f1's streamk-bench in auto (the old pick) and dp (what
the new build runs), fp16 twice and bf16 once; per class of old pick (every tile Stream-K or the
one-tile hybrid behind one round; rows aligned or misaligned) and by the predicted gain, the
geometric mean of fp16 (median of two passes) and bf16 time(dp) / time(old pick): under 1, the
new build's plan ran faster. "behind": the old pick 3% or more behind dp in fp16 or bf16;
"ahead": 3% or more ahead in both. Then the new build's auto against dp and cuBLAS.

  python3 check.py > check.txt"""
import csv, collections, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
t, plan = collections.defaultdict(list), {}
for f in ('tn-fp16-1', 'tn-fp16-2', 'tn-bf16-1', 'new-fp16', 'new-bf16'):
    for r in csv.DictReader(open(os.path.join(here, 'run311', f + '.csv'))):
        if r['status'] != 'ok':
            print('# not timed:', f, r['name'], r['mode'], r['status'])
            continue
        t[(f[:3], r['name'], r['dtype'], r['mode'])].append(float(r['time_us']))
        plan[(f[:3], r['name'], r['mode'])] = r
med = lambda *k: statistics.median(t[k])
rows = []
for (b, name, mode), a in sorted(plan.items()):
    if b != 'tn-' or mode != 'auto':
        continue
    q = plan[(b, name, 'dp')]
    r = {dt: med(b, name, dt, 'dp') / med(b, name, dt, 'auto') for dt in ('fp16', 'bf16')}
    cls = ('every tile' if a['dp_tiles'] == '0' else 'one-round hybrid') + (
        ', misaligned' if int(a['k']) * 2 % 32 else ', aligned')
    rows.append(dict(name=name, cls=cls, fp16=r['fp16'], bf16=r['bf16'],
                     both=(r['fp16'] * r['bf16']) ** 0.5,
                     pred=float(q['predicted_us']) / float(a['predicted_us'])))
def summary(label, v):
    if v:
        print('%-44s %3d  dp/old %.3f (%.3f-%.3f)  old behind %2d, ahead %2d' % (
            label, len(v), statistics.geometric_mean([x['both'] for x in v]),
            min(x['both'] for x in v), max(x['both'] for x in v),
            sum(min(x['fp16'], x['bf16']) < 0.97 for x in v),
            sum(min(x['fp16'], x['bf16']) > 1.03 for x in v)))
print('# old pick against dp (what the new build runs), by class and predicted gain '
      '(bench predictions)')
for cls in sorted({x['cls'] for x in rows}):
    v = [x for x in rows if x['cls'] == cls]
    summary(cls, v)
    for lo, hi in ((0, 1.0), (1.0, 1.031), (1.031, 9)):
        summary('  pred %.3f-%.3f' % (lo, hi), [x for x in v if lo <= x['pred'] < hi])
summary('every moved shape', rows)
print('\n# the new build: auto against dp (the same launch where it moved) and cuBLAS')
for dt in ('fp16', 'bf16'):
    names = sorted({n for (b, n, _) in plan if b == 'new'})
    dp = [med('new', n, dt, 'dp') / med('new', n, dt, 'auto') for n in names]
    cb = [med('new', n, dt, 'cublas') / med('new', n, dt, 'auto') for n in names]
    same = sum(plan[('new', n, 'auto')]['plan_mode'] == 'dp' for n in names)
    print('%s: %d shapes, auto ran dp\'s plan on %d; time(dp)/time(auto) %.3f (%.3f-%.3f); '
          'time(cuBLAS)/time(auto) %.3f (%.3f-%.3f)' % (
              dt, len(names), same, statistics.geometric_mean(dp), min(dp), max(dp),
              statistics.geometric_mean(cb), min(cb), max(cb)))
