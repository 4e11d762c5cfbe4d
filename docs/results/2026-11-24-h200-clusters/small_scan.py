#!/usr/bin/env python3
"""Session 56: random paper-like shapes with misaligned K-major rows on which auto (PLAN) splits or
streams the k-iterations, dp runs the 64 x 128 tile, and auto's pick was predicted under 1.25x as
fast as that tile's data-parallel plan (small_margin.txt's band); bench lines NAME W T K, then the
predicted gain and auto's pick.

  python3 small_scan.py PLAN SEED COUNT >> small_shapes.txt   # PLAN: streamk-plan of ca72a60"""
import json, math, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
plan, seed = sys.argv[1], int(sys.argv[2])
random.seed(seed)
def r():
    return max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
shapes = [(r(), r(), r()) for _ in range(int(sys.argv[3]))]
shapes = [s for s in shapes if s[2] % 16 == 8]
def pj(m, n, k, *x):
    return json.loads(subprocess.run([plan, str(m), str(n), str(k), '--json', '--device', 'h200',
                                      *x], capture_output=True, text=True).stdout)
def one(s):
    a = pj(*s)
    if a['mode'] not in ('splitk', 'streamk') or a['cluster_m'] != 1: return None
    if a['repack_a'] or a['repack_b']: return None
    d = pj(*s, '--mode', 'dp')
    if d['tile'][:2] != [64, 128]: return None
    chosen = [c for c in a['candidates'] if c['chosen']][0]
    small = [c for c in a['candidates'] if c['name'] == 'dp [64x128x64]']
    if not small: return None
    gain = small[0]['predicted_us'] / chosen['predicted_us']
    return (s, gain, a) if gain < 1.25 else None
with ThreadPoolExecutor(2) as ex:
    for x in ex.map(one, shapes):
        if x is None: continue
        s, gain, a = x
        print('s%d.w%d.t%d.k%d' % (seed, s[1], s[0], s[2]), s[1], s[0], s[2], '# %.3f %s %dx%d' % (
            gain, a['mode'], a['tile'][0], a['tile'][1]))
