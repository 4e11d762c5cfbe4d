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
import collections, importlib.util, math, os, re, subprocess, sys, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'floor_replay', os.path.join(here, '../2026-11-23-h200-narrowfloor/floor_replay.py'))
fr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fr)  # changes to the repository's root
old_fit, new_fit = (os.path.abspath(f) for f in sys.argv[1:3])
C = 'docs/results/2026-11-23-h200-cold/'
H = 'docs/results/2026-11-23-h200-headline/run258/'

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
tmp = tempfile.mkdtemp()
with tarfile.open(H + 'csv.tgz') as t:
    t.extractall(tmp)
HEADLINE = [os.path.join(tmp, f'bench-{d}.csv') for d in ('fp16', 'bf16')] + \
           [H + f'llm-cold-{d}.csv' for d in ('fp16', 'bf16')]
NEW = [C + f'run256/sweep-{s}-{l}.csv' for s in 'ab' for l in ('tn', 'nn')] + \
      [C + f'run255/{w}-{l}-{t}.csv' for w in ('moved', 'floor') for l in ('tn', 'nn')
       for t in ('cold', 'warm')]
n_moved, logs = 0, []
RUN259 = [H.replace('run258', 'run259') + f'{f}-{l}.csv' for f in ('sweep-a', 'onerow-extra')
          for l in ('tn', 'nn')]
for group in NEW + fr.FILES + HEADLINE + RUN259:
    if group == RUN259[0]:
        print(f'TOTAL before run 259: moved {n_moved}, measured both ways {len(logs)}, geomean '
              f'new/old {math.exp(sum(logs) / len(logs)):.4f}, range {math.exp(min(logs)):.3f}-'
              f'{math.exp(max(logs)):.3f}')
        n_moved, logs = 0, []
    files = group.split('+')
    fr.FIT = old_fit
    old = fr.replay(files, {})
    fr.FIT = new_fit
    new = fr.replay(files, {})
    if old is None or new is None:
        print('skipped', group)
        continue
    moved = [(k, o, new[k]) for k, o in old.items() if k in new and new[k][0] != o[0]]
    where = '+'.join(('run258' if f.startswith(tmp) else os.path.basename(os.path.dirname(f))) +
                     '/' + os.path.basename(f) for f in files)
    if not moved:
        print(f'   {where}: {len(old)} picks, none moves')
        continue
    measured = [math.log(n[1] / o[1]) for _, o, n in moved if o[1] and n[1]]
    n_moved += len(moved)
    logs += measured
    mean = f'{math.exp(sum(measured) / len(measured)):.3f}' if measured else 'nan'
    print(f'   {where}: {len(old)} picks, {len(moved)} move, {len(measured)} measured both ways, '
          f'geomean new/old {mean}')
    for k, o, n in moved:
        ratio = f'{n[1] / o[1]:.3f}' if o[1] and n[1] else ''
        print(f'      {k[1]:20s} {k[2]:16s} {o[0]:34s} {o[1]} -> {n[0]:14s} {n[1]}  '
              f'best {o[2]}  {ratio}')
print(f'TOTAL run 259: moved {n_moved}, measured both ways {len(logs)}, geomean new/old '
      f'{math.exp(sum(logs) / len(logs)):.4f}, range {math.exp(min(logs)):.3f}-'
      f'{math.exp(max(logs)):.3f}')
