#!/usr/bin/env python3
"""Session 56: the picks that move between two builds of streamk-plan (H200 preset) over random
paper-like shapes (seeds 11 and 7, 3000 each, drawn as streamk-bench --set paper draws them) and
the issue's paper, waveq and llm shapes (run 295's bench-fp16.csv); bench-style lines NAME M N K
(M the planner's N), each followed by a comment with the old pick and the new.

  python3 moves.py OLD_PLAN NEW_PLAN > moved.txt
  python3 moves.py OLD_PLAN NEW_PLAN 31,32,33,34 > moved_extra.txt  # those seeds only"""
import csv, json, math, os, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
here = os.path.dirname(os.path.abspath(__file__))
def pick(b, m, n, k):  # planner M x N x K
    d = json.loads(subprocess.run([b, str(m), str(n), str(k), '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    rep = ('A' if d['repack_a'] else '') + ('B' if d['repack_b'] else '')
    return (d['mode'], '%dx%d' % tuple(d['tile'][:2]), d['dp_tiles'], d['sk_tiles'],
            d['sk_blocks'], d['reduction'], rep or '-', round(d['predicted_us'], 1))
shapes = []  # (name, planner M, N, K)
seeds = [int(x) for x in sys.argv[3].split(',')] if len(sys.argv) > 3 else [11, 7]
for seed in seeds:
    random.seed(seed)
    r = lambda: max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
    for _ in range(3000):
        m, n, k = r(), r(), r()
        shapes.append(('r%d.w%d.t%d.k%d' % (seed, n, m, k), m, n, k))
seen = set()
import io, tarfile
t = tarfile.open(os.path.join(here, '..', '2026-11-24-h200-headline', 'run295', 'csv.tgz'))
for f in ('bench-fp16.csv',) if len(sys.argv) <= 3 else ():
    for row in csv.DictReader(io.TextIOWrapper(t.extractfile(f))):
        key = (int(row['n']), int(row['m']), int(row['k']))
        if key in seen: continue
        seen.add(key)
        shapes.append(('%s.w%d.t%d.k%d' % (row['set'], key[1], key[0], key[2]),) + key)
def both(s):
    return s, pick(sys.argv[1], *s[1:]), pick(sys.argv[2], *s[1:])
moved = 0
with ThreadPoolExecutor(2) as ex:
    for s, a, b in ex.map(both, shapes):
        if a[:7] != b[:7]:
            moved += 1
            print(s[0], s[2], s[1], s[3])
            print('#', a, '->', b)
print('# %d of %d shapes move' % (moved, len(shapes)))
