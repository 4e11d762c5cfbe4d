#!/usr/bin/env python3
"""Session 52: auto's picks replayed (streamk-fit) under the H200 preset and under its iteration
terms (iter_us, iter_busy_us of every configuration but clusters) scaled by SCALE, as on a lent
H200 whose SMs run that much faster; prints the picks that move with what each measured.

  python3 docs/results/2026-11-24-h200-rows5/clock_scale.py SCALE CSV...

(The base values are the preset's, lib/device_spec.cc.)"""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '../2026-11-23-h200-headline'))
import replay_moves as rm  # changes to the repository's root
scale = float(sys.argv[1])
base = {'main': (0.121, 0.228), 'alt': (0.16, 0.24), 'mid': (0.117, 0.22),
        'wide': (0.156, 0.2305), 'small': (0.182, 0.26)}
variant = {}
for c, (it, busy) in base.items():
    variant[f'{c}.iter_us'] = round(it * scale, 5)
    variant[f'{c}.iter_busy_us'] = round(busy * scale, 5)
for f in sys.argv[2:]:
    a, b = rm.fr.replay([f], {}), rm.fr.replay([f], variant)
    if a is None or b is None:
        print('skipped', f)
        continue
    moved = [(k, a[k], b[k]) for k in a if k in b and a[k][0] != b[k][0]]
    print(f'{f}: {len(a)} picks, {len(moved)} move')
    for k, o, n in moved:
        r = f'{n[1] / o[1]:.3f}' if o[1] and n[1] else ''
        print(f'   {k[1]:22s} {o[0]:34s} {o[1]} -> {n[0]:34s} {n[1]} {r}')
