"""Session 49: the picks that move between two builds of streamk-fit, replayed over measured CSVs
(floor_replay.replay), for onerow.py and reread.py."""
import importlib.util, math, os, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'floor_replay', os.path.join(here, '../2026-11-23-h200-narrowfloor/floor_replay.py'))
fr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fr)  # changes to the repository's root
C = 'docs/results/2026-11-23-h200-cold/'
H = 'docs/results/2026-11-23-h200-headline/'
# Every decode CSV since session 43: session 48's cold sweep and shapes (moves.py's), then
# floor_replay.py's.
DECODE = ([C + f'run256/sweep-{s}-{l}.csv' for s in 'ab' for l in ('tn', 'nn')] +
          [C + f'run255/{w}-{l}-{t}.csv' for w in ('moved', 'floor') for l in ('tn', 'nn')
           for t in ('cold', 'warm')] + fr.FILES)
RUN259 = [H + f'run259/{f}-{l}.csv' for f in ('sweep-a', 'onerow-extra') for l in ('tn', 'nn')]
_tmp = tempfile.mkdtemp()
with tarfile.open(H + 'run258/csv.tgz') as t:
    t.extractall(_tmp)
# Run 258's paper, waveq and llm sets, fp16 and bf16, and the llm set cold.
HEADLINE = [os.path.join(_tmp, f'bench-{d}.csv') for d in ('fp16', 'bf16')] + \
           [H + f'run258/llm-cold-{d}.csv' for d in ('fp16', 'bf16')]


def picks(fit, files):
    fr.FIT = fit
    return fr.replay(files, {})


def moves(old_fit, new_fit, group, width=34):
    """Prints the picks of one group of files (joined by +) that move; returns the moved picks
    ((set, name, shape), old, new) and the logs of new/old where both were measured."""
    files = group.split('+')
    old, new = picks(old_fit, files), picks(new_fit, files)
    where = '+'.join(('run258' if f.startswith(_tmp) else os.path.basename(os.path.dirname(f))) +
                     '/' + os.path.basename(f) for f in files)
    if old is None or new is None:
        print('skipped', where)
        return [], []
    moved = [(k, o, new[k]) for k, o in old.items() if k in new and new[k][0] != o[0]]
    if not moved:
        print(f'   {where}: {len(old)} picks, none moves')
        return [], []
    measured = [math.log(n[1] / o[1]) for _, o, n in moved if o[1] and n[1]]
    mean = f'{math.exp(sum(measured) / len(measured)):.3f}' if measured else 'nan'
    print(f'   {where}: {len(old)} picks, {len(moved)} move, {len(measured)} measured both ways, '
          f'geomean new/old {mean}')
    for k, o, n in moved:
        ratio = f'{n[1] / o[1]:.3f}' if o[1] and n[1] else ''
        print(f'      {k[1]:20s} {k[2]:16s} {o[0]:34s} {o[1]} -> {n[0]:{width}s} {n[1]}  '
              f'best {o[2]}  {ratio}')
    return moved, measured
