#!/usr/bin/env python3
"""Session 49: the third tile's margin where every tile's rows hold all of m (decode's tokens as
the kernel's A). Two parts:

1. The close calls: over run 256's tokens-as-A sweep (both layouts, cold), every row where
   data-parallel 128 x 192 is predicted 0.90-1.03 of the other tiles' fastest measured plan,
   predicted and measured ratios (streamk-fit --rows of NEW_FIT, its model).
2. The picks that move between OLD_FIT and NEW_FIT, replayed over the decode CSVs of sessions
   43-48 (moves.py's groups), run 258's paper, waveq and llm sets (fp16 and bf16, warm and the
   llm set cold) and run 259's (the tokens-as-A sweep again and onerow-extra.txt, each plan the
   two pick timed in the same run), with what the moved picks measured (None: not measured
   there).

  python3 docs/results/2026-11-23-h200-headline/onerow.py OLD_FIT NEW_FIT > onerow.txt

(OLD_FIT: build/tools/streamk-fit built at 764f06c, session 48's planner; NEW_FIT: this one.)"""
import collections, math, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay_moves as rm  # changes to the repository's root

old_fit, new_fit = (os.path.abspath(f) for f in sys.argv[1:3])
C = rm.C

print('== 1. close calls: dp 128x192 against the fastest other plan of the other tiles')
ROW = re.compile(r'^file\s+(\S+)\s+\S+\s+(dp \d+x\d+|streamk \d+x\d+) ?(?:dp\d+\+sk\d+/\d+)?'
                 r'\s+([\d.]+)\s+([\d.]+)\s+[\d.]+$')
times = collections.defaultdict(dict)  # (layout, name) -> plan -> (measured, predicted)
for layout in ('tn', 'nn'):
    for model in ('mid', 'main', 'alt'):
        out = subprocess.run([new_fit, '--model', model, '--rows', f'{C}run256/sweep-a-{layout}.csv'],
                             capture_output=True, text=True).stdout
        for line in out.split('\n'):
            m = ROW.match(line.strip())
            if m and float(m[4]) > 0:
                times[(layout, m[1])][m[2]] = (float(m[3]), float(m[4]))
close = []
for (layout, name), plans in sorted(times.items()):
    if 'dp 128x192' not in plans:
        continue
    others = {p: t for p, t in plans.items() if p != 'dp 128x192'}
    best = min(others, key=lambda p: others[p][1])
    mid, other = plans['dp 128x192'], others[best]
    pred, meas = mid[1] / other[1], mid[0] / other[0]
    if 0.9 < pred < 1.03:
        close.append((pred, meas))
        print(f'   {layout} {name:22s} against {best:16s} predicted {pred:.3f} measured {meas:.3f}')
print(f'   {len(close)} rows: predicted {min(p for p, _ in close):.3f}-{max(p for p, _ in close):.3f}, '
      f'measured {min(m for _, m in close):.3f}-{max(m for _, m in close):.3f}')

print('\n== 2. picks that move')
n_moved, logs = 0, []
for group in rm.DECODE + rm.HEADLINE + rm.RUN259:
    if group == rm.RUN259[0]:
        print(f'TOTAL before run 259: moved {n_moved}, measured both ways {len(logs)}, geomean '
              f'new/old {math.exp(sum(logs) / len(logs)):.4f}, range {math.exp(min(logs)):.3f}-'
              f'{math.exp(max(logs)):.3f}')
        n_moved, logs = 0, []
    moved, measured = rm.moves(old_fit, new_fit, group, width=14)
    n_moved += len(moved)
    logs += measured
print(f'TOTAL run 259: moved {n_moved}, measured both ways {len(logs)}, geomean new/old '
      f'{math.exp(sum(logs) / len(logs)):.4f}, range {math.exp(min(logs)):.3f}-'
      f'{math.exp(max(logs)):.3f}')
