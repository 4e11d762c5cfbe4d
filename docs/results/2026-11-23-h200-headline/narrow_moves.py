#!/usr/bin/env python3
"""Session 49: which of auto's picks the narrow M-/N-major terms' refit (narrow_refit.sh) would
move, replayed by streamk-fit over every decode CSV since session 43 (floor_replay.py's and
moves.py's groups), run 259's and run 258's paper, waveq and llm sets.

  python3 docs/results/2026-11-23-h200-headline/narrow_moves.py > narrow_moves.txt"""
import importlib.util, os, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'floor_replay', os.path.join(here, '../2026-11-23-h200-narrowfloor/floor_replay.py'))
fr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fr)  # changes to the repository's root
C = 'docs/results/2026-11-23-h200-cold/'
H = 'docs/results/2026-11-23-h200-headline/'
tmp = tempfile.mkdtemp()
with tarfile.open(H + 'run258/csv.tgz') as t:
    t.extractall(tmp)
groups = ([H + f'run259/{f}-{l}.csv' for f in ('sweep-a', 'onerow-extra') for l in ('tn', 'nn')] +
          [C + f'run256/sweep-{s}-{l}.csv' for s in 'ab' for l in ('tn', 'nn')] +
          [C + f'run255/{w}-{l}-{t}.csv' for w in ('moved', 'floor') for l in ('tn', 'nn')
           for t in ('cold', 'warm')] + fr.FILES +
          [os.path.join(tmp, f'bench-{d}.csv') for d in ('fp16', 'bf16')] +
          [H + f'run258/llm-cold-{d}.csv' for d in ('fp16', 'bf16')])
fr.main(groups, {
    'the 128 x 128 refit': {'alt.narrow_mn_misaligned_iter_us': 0.31,
                            'alt.narrow_mn_iter_us': 0.05},
    'every tile at 0.31': {'narrow_mn_misaligned_iter_us': 0.31},
}, 'Moves are from the preset (narrow_mn_misaligned_iter_us 0.22, narrow_mn_iter_us 0.045) to '
   'the variant.')
