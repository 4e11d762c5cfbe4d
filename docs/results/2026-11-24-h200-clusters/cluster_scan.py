#!/usr/bin/env python3
"""Session 56: random paper-like shapes (drawn as streamk-bench --set paper draws them:
log-uniform M, N, K in [128, 8192], multiples of 8) whose K makes tn rows misaligned and whose
auto pick (streamk-plan of build 2e1ca87, H200 preset) runs on 2-SM clusters; one line each:
planner M N K, auto's mode, tiles along n, tiles, k-iterations, estimate, then data-parallel's
pick (mode dp), its tiles and estimate, and the ratio of the two estimates.

  python3 cluster_scan.py PLAN SEED COUNT > scanSEED.txt
  (shapesSEED.txt: the same shapes as bench lines, NAME W T K with W the planner's N)"""
import json, math, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
plan = sys.argv[1]
random.seed(int(sys.argv[2]))
def r():
    return max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
shapes = [(r(), r(), r()) for _ in range(int(sys.argv[3]))]
shapes = [s for s in shapes if s[2] % 16 == 8]  # K x 2 bytes an odd multiple of 16
def pj(m, n, k, *x):
    return json.loads(subprocess.run([plan, str(m), str(n), str(k), '--json', '--device', 'h200',
                                      *x], capture_output=True, text=True).stdout)
def one(s):
    a = pj(*s)
    return (s, a, pj(*s, '--mode', 'dp')) if a['cluster_m'] == 2 else None
with ThreadPoolExecutor(2) as ex:
    for x in ex.map(one, shapes):
        if x is None: continue
        s, a, d = x
        print(*s, a['mode'], a['tiles_n'], a['tiles'], a['iters_per_tile'],
              round(a['predicted_us'], 1), 'dp', '%dx%d' % tuple(d['tile'][:2]), d['dp_tiles'],
              round(d['predicted_us'], 1), '%.3f' % (a['predicted_us'] / d['predicted_us']))
