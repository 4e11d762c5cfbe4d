#!/usr/bin/env python3
"""Session 53: where data-parallel on a tile no kernel computes yet would beat auto, as the
planner predicts it ("what if": a forced tile the device has no kernel for is priced by the main
configuration's constants, scaled by the tile's volume and area). Over the prefill grid (planner
M tokens x N weights x K); prints the shapes predicted more than 2% faster on it (shapes.txt).

  python3 docs/results/2026-11-24-h200-broad/whatif.py 128x320x64 [STREAMK_PLAN]

(Run with the build before auto weighed the tile.)"""
import itertools, json, subprocess, sys
tile = sys.argv[1]
plan = sys.argv[2] if len(sys.argv) > 2 else 'build/tools/streamk-plan'
W = [4096, 5120, 8192, 11008, 12288, 13824, 14336, 16384, 18432, 20480, 24576, 28672, 32000]
T = [128, 256, 384, 512, 640, 768, 1024, 2048, 4096]
K = [4096, 8192, 14336]
def p(t, w, k, *extra):
    out = subprocess.run([plan, str(t), str(w), str(k), '--json', *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)
gains = []
for w, t, k in itertools.product(W, T, K):
    a = p(t, w, k)
    b = p(t, w, k, '--tile', tile, '--mode', 'dp')
    g = a['predicted_us'] / b['predicted_us']
    gains.append(g)
    if g > 1.02:
        print(f'{w} {t} {k} auto {a["mode"]} {a["tile"]} {a["predicted_us"]:.1f} {tile} '
              f'tiles {b["tiles"]} {b["predicted_us"]:.1f} gain {g:.3f}')
print(len(gains), sum(1 for g in gains if g > 1.02), sum(1 for g in gains if g > 1.05))
