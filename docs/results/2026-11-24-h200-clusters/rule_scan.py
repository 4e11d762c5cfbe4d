#!/usr/bin/env python3
"""Session 56: random paper-like shapes (drawn as streamk-bench --set paper draws them) on which
auto's plan (PLAN, H200 preset) differs from dp's: K-major rows misaligned (K x 2 bytes an odd
multiple of 16) with ALIGNED=0, aligned (a multiple of 32) with ALIGNED=1; bench lines NAME W T K
(W the planner's N), then auto's kind, mode and tile, dp's tile and the estimates' ratio dp/auto.
rule_shapes.txt: seeds 41 and 42 misaligned, 43 and 44 aligned, 1000 shapes each.

  python3 rule_scan.py PLAN SEED COUNT ALIGNED >> rule_shapes.txt   # PLAN: streamk-plan of ca72a60"""
import json, math, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
plan, seed = sys.argv[1], int(sys.argv[2])
aligned = sys.argv[4] == '1'
random.seed(seed)
def r():
    return max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
shapes = [(r(), r(), r()) for _ in range(int(sys.argv[3]))]
shapes = [s for s in shapes if s[2] % 16 == (0 if aligned else 8)]
def pj(m, n, k, *x):
    return json.loads(subprocess.run([plan, str(m), str(n), str(k), '--json', '--device', 'h200',
                                      *x], capture_output=True, text=True).stdout)
key = lambda d: (d['mode'], tuple(d['tile']), d['dp_tiles'], d['sk_tiles'], d['sk_blocks'],
                 d['repack_a'], d['repack_b'], d['cluster_m'])
def one(s):
    return s, pj(*s), pj(*s, '--mode', 'dp')
with ThreadPoolExecutor(1) as ex:
    for s, a, d in ex.map(one, shapes):
        if key(a) == key(d): continue
        kind = ('clusters' if a['cluster_m'] == 2 else
                'repack' if a['repack_a'] or a['repack_b'] else a['mode'])
        print(('a' if aligned else 'm') + '%d.w%d.t%d.k%d' % (seed, s[1], s[0], s[2]), s[1], s[0],
              s[2], '#', kind, a['mode'], '%dx%d' % tuple(a['tile'][:2]), 'dp',
              '%dx%d' % tuple(d['tile'][:2]), '%.3f' % (d['predicted_us'] / a['predicted_us']))
