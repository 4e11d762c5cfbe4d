#!/usr/bin/env python3
"""Session 55: shapes for run 294 (moved2.txt): the picks that move from 2-SM clusters to the
128 x 320 tile (BroadOverClusters) over run 291's shapes, 6000 random paper-like ones (seeds 11
and 7) and the paper set's 960 x 5584 x 1816, and the misaligned shapes where auto and dp disagree
on that tile (diverge.txt); bench-style lines (NAME M N K, M the planner's N).

  python3 moves2.py OLD_PLAN NEW_PLAN > moved2.txt"""
import json, math, os, random, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
def pick(b, m, n, k):  # planner M x N x K
    d = json.loads(subprocess.run([b, str(m), str(n), str(k), '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    return d['mode'], d['tile'][0], d['tile'][1], d['cluster_m']
cands = []  # planner M N K
for l in open(os.path.join(here, 'shapes.txt')):
    _, bm, bn, k = l.split()
    cands.append((int(bn), int(bm), int(k)))
for seed in (11, 7):
    random.seed(seed)
    r = lambda: max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
    cands += [(r(), r(), r()) for _ in range(3000)]
cands.append((5584, 960, 1816))
seen, out = set(), []
for m, n, k in cands:
    if (k * 2) % 32 == 0 or math.ceil(m / 128) * math.ceil(n / 320) > 132 or (m, n, k) in seen:
        continue
    seen.add((m, n, k))
    a, b = pick(sys.argv[1], m, n, k), pick(sys.argv[2], m, n, k)
    if a[3] == 2 and b[2] == 320:
        out.append((f'c.w{n}.t{m}.k{k}', a))
for l in open(os.path.join(here, 'diverge.txt')):
    m, n, k = map(int, l.split()[:3])
    if all(name != f'c.w{n}.t{m}.k{k}' for name, _ in out):
        out.append((f'd.w{n}.t{m}.k{k}', None))
print(f'# Session 55: {len(out)} shapes: clusters -> 128 x 320 (c.), auto and dp disagree (d.)')
for name, _ in out:
    w, t, k = (int(x[1:]) for x in name.split('.')[1:])
    print(f'{name} {w} {t} {k}')
