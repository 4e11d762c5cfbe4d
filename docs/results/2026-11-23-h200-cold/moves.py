#!/usr/bin/env python3
"""Session 48: the picks that move between two builds of streamk-fit (auto replayed over the same
measured CSVs as replay.py): per group of files, each shape whose pick moves, what the old and new
picks measured (None: not measured there) and the best measured plan; then totals.

  python3 docs/results/2026-11-23-h200-cold/moves.py OLD_FIT NEW_FIT > moves.txt

(OLD_FIT: build/tools/streamk-fit built at e0e1d09, session 47; NEW_FIT at session 48.)"""
import importlib.util, math, os, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'floor_replay', os.path.join(here, '../2026-11-23-h200-narrowfloor/floor_replay.py'))
fr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fr)  # changes to the repository's root
old_fit, new_fit = (os.path.abspath(f) for f in sys.argv[1:3])
C = 'docs/results/2026-11-23-h200-cold/'
NEW = [C + f'run256/sweep-{s}-{l}.csv' for s in 'ab' for l in ('tn', 'nn')] + \
      [C + f'run255/{w}-{l}-{t}.csv' for w in ('moved', 'floor') for l in ('tn', 'nn')
       for t in ('cold', 'warm')]
n_moved = n_measured = 0
logs = []
best_old, best_new = [], []
for group in NEW + fr.FILES:
    files = group.split('+')
    fr.FIT = old_fit
    old = fr.replay(files, {})
    fr.FIT = new_fit
    new = fr.replay(files, {})
    if old is None or new is None:
        print('skipped', group)
        continue
    moved = [(k, o, new[k]) for k, o in old.items() if k in new and new[k][0] != o[0]]
    for k, o in old.items():
        if k in new and o[1] and new[k][1]:
            best_old.append(math.log(o[1] / o[2]))
            best_new.append(math.log(new[k][1] / o[2]))
    if not moved:
        continue
    measured = [math.log(n[1] / o[1]) for _, o, n in moved if o[1] and n[1]]
    n_moved += len(moved)
    n_measured += len(measured)
    logs += measured
    mean = f'{math.exp(sum(measured) / len(measured)):.3f}' if measured else 'nan'
    print(f"== {'+'.join(os.path.relpath(f, fr.R) for f in files)}: {len(moved)} moved, "
          f'{len(measured)} measured both ways, geomean new/old {mean}')
    for k, o, n in moved:
        print(f'   {k[1]:20s} {k[2]:16s} {o[0]:36s} {o[1]} -> {n[0]:36s} {n[1]}  best {o[2]}')
print(f'TOTAL moved {n_moved}, measured both ways {n_measured}, geomean new/old '
      f'{math.exp(sum(logs) / len(logs)) if logs else float("nan"):.4f}')
print(f'auto/best over the picks measured both ways before and after (not the same shapes): '
      f'{math.exp(sum(best_old) / len(best_old)):.4f} ({len(best_old)}) -> '
      f'{math.exp(sum(best_new) / len(best_new)):.4f} ({len(best_new)})')
