#!/usr/bin/env python3
"""Session 51: the prefill grid's shapes where auto's plan is not data-parallel's (4096-32000
weights, 128-4096 tokens as the kernel's A, 4096-14336 deep), as streamk-bench --shapes lines
(bench M weights x N tokens x K), for run 273's check of the 3% rule on the final build.

  python3 docs/results/2026-11-24-h200-clock/grid.py build/tools/streamk-plan > grid.txt"""
import itertools, json, subprocess, sys

plan = sys.argv[1]
W = [4096, 5120, 8192, 11008, 12288, 13824, 14336, 16384, 18432, 20480, 24576, 28672, 32000]
T = [128, 256, 384, 512, 640, 768, 1024, 2048, 4096]
K = [4096, 5120, 8192, 14336]
print('# Session 51: the prefill grid where auto differs from dp (grid.py)')
for w, t, k in itertools.product(W, T, K):
    def pick(*extra):
        out = subprocess.run([plan, str(t), str(w), str(k), '--json', *extra],
                             capture_output=True, text=True, check=True).stdout
        d = json.loads(out)
        return d['mode'], tuple(d['tile']), d['dp_tiles'], d['sk_tiles']
    if pick() != pick('--mode', 'dp'):
        print(f'a.w{w}.t{t}.k{k} {w} {t} {k}')
