#!/usr/bin/env python3
"""Session 52: the picks that move between two builds of streamk-plan over random shapes drawn as
`streamk-bench --set paper` draws them (log-uniform M, N, K in [128, 8192], multiples of 8),
planned for the H200 preset; prints planner M N K, the old pick and the new.

  python3 docs/results/2026-11-24-h200-rows5/rand_scan.py OLD_PLAN NEW_PLAN SEED COUNT

(moved.txt holds seeds 11 (9000 shapes) and 7 (3000) with M and N swapped, as streamk-bench
takes them.)"""
import json, math, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
random.seed(int(sys.argv[3]))
def r():
    return max(128, int(math.exp(random.uniform(math.log(128), math.log(8192)))) // 8 * 8)
shapes = [(r(), r(), r()) for _ in range(int(sys.argv[4]))]
def pick(b, m, n, k):
    d = json.loads(subprocess.run([b, str(m), str(n), str(k), '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    return (d['mode'], tuple(d['tile'][:2]), d['dp_tiles'], d['sk_tiles'], d['sk_blocks'],
            d['reduction'], round(d['predicted_us'], 1))
def both(s):
    return s, pick(sys.argv[1], *s), pick(sys.argv[2], *s)
moved = 0
with ThreadPoolExecutor(2) as ex:
    for s, a, b in ex.map(both, shapes):
        if a[:6] != b[:6]:
            moved += 1
            print(*s, a, '->', b)
print(moved, 'of', len(shapes))
