#!/usr/bin/env python3
"""Session 58: random paper-like shapes (128-8192 a side, multiples of 8, log-uniform, as
streamk-bench --set paper draws them; 3000 a seed) planned by streamk-plan (H200 preset) in auto
and dp. Prints bench-style lines NAME M N K (M the planner's N) for the aligned shapes whose auto
pick differs from dp's pick in these classes, named by class:
  sks     every tile Stream-K on 64 x 128       spl64 / spl128  split-K on 64 x 128 / 128 x 128
  ska128  every tile Stream-K on 128 x 128      skh   Stream-K hybrid on 128 x 128
  ska256 / skh256  the same on 128 x 256 (skh256: a sample of 16)
split-K only where dp's tiles fill 30% of the SMs or more. With NEW, instead every shape whose
pick NEW moves (class 'mv'), each followed by a comment with the two picks.

  python3 few_census.py PLAN 91,92,93,94,95,96,97,98 > few_shapes.txt   # run 306's shapes
  python3 few_census.py OLD 101,...,108 NEW > moved_shapes.txt"""
import json, math, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
def pj(b, m, n, k, *x):
    return json.loads(subprocess.run([b, str(m), str(n), str(k), '--json', '--device', 'h200', *x],
                                     capture_output=True, text=True).stdout)
key = lambda d: (d['mode'], tuple(d['tile']), d['dp_tiles'], d['sk_blocks'], d['repack_a'],
                 d['repack_b'], d['cluster_m'])
shapes = []
for seed in [int(x) for x in sys.argv[2].split(',')]:
    random.seed(seed)
    r = lambda: max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
    for _ in range(3000):
        shapes.append((r(), r(), r()))
new = sys.argv[3] if len(sys.argv) > 3 else None
def one(s):
    return s, pj(sys.argv[1], *s), (pj(new, *s) if new else pj(sys.argv[1], *s, '--mode', 'dp'))
hyb256 = []
print('# %s' % ' '.join(sys.argv[1:]))
for (m, n, k), p, q in ThreadPoolExecutor(2).map(one, shapes):
    tag = 'w%d.t%d.k%d %d %d %d' % (n, m, k, n, m, k)
    if new:
        if key(p) != key(q):
            print('mv.%s\n#  %s %s %d/%d -> %s %s %d' % (
                tag, p['mode'], p['tile'][:2], p['sk_tiles'], p['sk_blocks'], q['mode'],
                q['tile'][:2], q['tiles']))
        continue
    if p['a_rows_misaligned'] or p['b_rows_misaligned'] or key(p) == key(q):
        continue
    t, share = '%dx%d' % tuple(p['tile'][:2]), q['tiles'] / 132
    if p['mode'] == 'streamk' and t == '64x128': name = 'sks'
    elif p['mode'] == 'streamk' and t in ('128x128', '128x256') and p['dp_tiles'] == 0:
        name = 'ska' + t[4:]
    elif p['mode'] == 'streamk' and t == '128x128': name = 'skh'
    elif p['mode'] == 'splitk' and t in ('64x128', '128x128') and 0.3 <= share <= 1:
        name = 'spl' + t[:-4].replace('x', '')
    elif p['mode'] == 'streamk' and t == '128x256':
        hyb256.append(tag); continue
    else: continue
    print('%s.%s' % (name, tag))
random.seed(5)
for tag in random.sample(hyb256, min(16, len(hyb256))):
    print('skh256.%s' % tag)
