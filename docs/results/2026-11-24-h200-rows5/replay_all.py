#!/usr/bin/env python3
"""Session 52: the picks that move between two builds of streamk-fit, replayed over every
streamk-bench CSV under docs/results and run 258's paper, waveq and llm sets (replay_moves.py).

  python3 docs/results/2026-11-24-h200-rows5/replay_all.py OLD_FIT NEW_FIT > replay_all.txt"""
import glob, math, os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '../2026-11-23-h200-headline'))
import replay_moves as rm  # changes to the repository's root
old, new = (os.path.abspath(f) for f in sys.argv[1:3])
files = []
for f in sorted(glob.glob('docs/results/**/*.csv', recursive=True)):
    with open(f) as h:
        head = h.readline()
    if 'time_us' in head and 'plan_mode' in head and 'predicted_us' in head:
        files.append(f)
files += rm.HEADLINE
print(f'{len(files)} CSVs')
measured = []
for f in files:
    measured += rm.moves(old, new, f)[1]
if measured:
    print(f'moved picks measured both ways: {len(measured)}, geomean new/old '
          f'{math.exp(sum(measured) / len(measured)):.3f}, range '
          f'{math.exp(min(measured)):.3f}-{math.exp(max(measured)):.3f}')
