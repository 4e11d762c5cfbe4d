#!/usr/bin/env python3
"""Session 59: random paper-like shapes (128-8192 a side, multiples of 8, log-uniform, as
streamk-bench --set paper draws them; 3000 a seed) whose 128 x 256 tiles number 133-264, planned
by streamk-plan (H200 preset) in auto; those auto streams on 128 x 256, planned in dp too: ska /
skm every tile Stream-K, rows aligned / misaligned; skah / skmh the hybrids. Prints bench-style
lines NAME M N K (M the planner's N), each followed by a comment with the two picks and their
predictions. With NEW, instead every shape of those whose pick NEW moves (class 'mv'), each
followed by a comment with the two picks.

  python3 census.py OLD 121,122,...,160 > census_old.txt   # run 310's shapes
  python3 census.py OLD 161,...,200 NEW > moved_shapes.txt"""
import json, math, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
def pj(b, m, n, k, *x):
    return json.loads(subprocess.run([b, str(m), str(n), str(k), '--json', '--device', 'h200', *x],
                                     capture_output=True, text=True).stdout)
shapes = []
for seed in [int(x) for x in sys.argv[2].split(',')]:
    random.seed(seed)
    r = lambda: max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
    for _ in range(3000):
        m, n, k = r(), r(), r()
        if 133 <= -(-m // 128) * -(-n // 256) <= 264:
            shapes.append((m, n, k))
new = sys.argv[3] if len(sys.argv) > 3 else None
key = lambda d: (d['mode'], tuple(d['tile']), d['dp_tiles'], d['sk_blocks'], d['repack_a'],
                 d['repack_b'], d['cluster_m'])
def one(s):
    p = pj(sys.argv[1], *s)
    if new:
        return s, p, pj(new, *s)
    if p['mode'] != 'streamk' or p['tile'][:2] != [128, 256]:
        return s, p, None
    return s, p, pj(sys.argv[1], *s, '--mode', 'dp')
print('# %s (%d shapes of 128 x 256 tiles 133-264 planned)' % (' '.join(sys.argv[1:]),
                                                              len(shapes)))
for (m, n, k), p, q in ThreadPoolExecutor(2).map(one, shapes):
    if q is None or (new and key(p) == key(q)):
        continue
    if new:
        print('mv.w%d.t%d.k%d %d %d %d\n#  %s %dx%d %d+%d -> %s %dx%d %d+%d' % (
            n, m, k, n, m, k, p['mode'], p['tile'][0], p['tile'][1], p['dp_tiles'], p['sk_tiles'],
            q['mode'], q['tile'][0], q['tile'][1], q['dp_tiles'], q['sk_tiles']))
        continue
    mis = 'm' if p['a_rows_misaligned'] or p['b_rows_misaligned'] else 'a'
    mis += 'h' if p['dp_tiles'] else ''
    print('sk%s.w%d.t%d.k%d %d %d %d' % (mis, n, m, k, n, m, k))
    print('#  streamk %dx%d %d+%d tiles %.1f us; dp %s %dx%d %d tiles %.1f us; pred %.3f' % (
        p['tile'][0], p['tile'][1], p['dp_tiles'], p['sk_tiles'], p['predicted_us'], q['mode'],
        q['tile'][0], q['tile'][1], q['tiles'], q['predicted_us'],
        q['predicted_us'] / p['predicted_us']))
