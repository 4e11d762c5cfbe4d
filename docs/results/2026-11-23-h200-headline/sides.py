#!/usr/bin/env python3
"""Session 49: the same decode rows with the tokens as the kernel's A (a row-major D, as a
PyTorch Linear has it) and as its B (run 257, cold, fp16, auto and cuBLAS timed in one call per
side and layout): time with the tokens as A over time with them as B, per row, for auto and for
cuBLAS. Whether an epilogue that stores D transposed, so that row-major D's tokens could run as
B, would pay.

  python3 docs/results/2026-11-23-h200-headline/sides.py > sides.txt"""
import csv, math, os

here = os.path.dirname(os.path.abspath(__file__))
cold = os.path.join(here, '..', '2026-11-23-h200-cold', 'run257')


def load(path):
    with open(path) as f:
        return {(r['name'][2:], r['mode']): float(r['time_us']) for r in csv.DictReader(f)
                if r['mode'] in ('auto', 'cublas') and r['status'] == 'ok'}


def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v))


for layout in ('tn', 'nn'):
    a = load(os.path.join(cold, f'sweep-a-{layout}.csv'))
    b = load(os.path.join(cold, f'sweep-b-{layout}.csv'))
    rows = sorted(k for k, m in a if m == 'auto' and (k, 'auto') in b)
    ours = [(a[(k, 'auto')] / b[(k, 'auto')], k) for k in rows]
    theirs = [a[(k, 'cublas')] / b[(k, 'cublas')] for k in rows]
    print(f'layout {layout}, {len(rows)} rows: tokens as A / tokens as B, auto {gm([x for x, _ in ours]):.3f} '
          f'(min {min(ours)[0]:.3f}, max {max(ours)[0]:.3f}), cuBLAS {gm(theirs):.3f}')
    print('   rows where auto runs the tokens as A 3% or more slower than as B:')
    for x, k in sorted(ours, reverse=True):
        if x < 1.03:
            break
        print(f"      {k:20s} {x:.3f}  ({a[(k, 'auto')]:.1f} against {b[(k, 'auto')]:.1f} us)")
