#!/usr/bin/env python3
"""Session 53: the prefill grid's picks (4096-32000 weights, 128-4096 tokens as the kernel's A,
4096-14336 deep) that move between two builds of streamk-plan; prints bench-style shape lines
(NAME weights tokens depth) of the moved picks for streamk-bench --shapes, then the old and new
pick per moved shape as comments.

  python3 docs/results/2026-11-24-h200-broad/grid_scan.py OLD_PLAN NEW_PLAN > grid_moved.txt"""
import itertools, json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
W = [4096, 5120, 8192, 11008, 12288, 13824, 14336, 16384, 18432, 20480, 24576, 28672, 32000]
T = [128, 256, 384, 512, 640, 768, 1024, 2048, 4096]
K = [4096, 5120, 8192, 14336]
def pick(b, t, w, k):
    d = json.loads(subprocess.run([b, str(t), str(w), str(k), '--json', '--device', 'h200'],
                                  capture_output=True, text=True).stdout)
    return (d['mode'], tuple(d['tile'][:2]), d['dp_tiles'], d['sk_tiles'], d['sk_blocks'],
            round(d['predicted_us'], 1))
def both(s):
    return s, pick(sys.argv[1], *s), pick(sys.argv[2], *s)
shapes = [(t, w, k) for w, t, k in itertools.product(W, T, K)]
moved = []
with ThreadPoolExecutor(2) as ex:
    for (t, w, k), a, b in ex.map(both, shapes):
        if a[:5] != b[:5]:
            moved.append((t, w, k, a, b))
print(f'# Session 53: {len(moved)} of {len(shapes)} prefill grid picks move (grid_scan.py)')
for t, w, k, a, b in moved:
    print(f'g.w{w}.t{t}.k{k} {w} {t} {k}')
for t, w, k, a, b in moved:
    print(f'# {w} x {t} x {k}: {a} -> {b}, predicted gain {a[5] / b[5]:.3f}')
