#!/usr/bin/env python3
"""Session 51: the picks that move, replayed over the CSVs session 50's replays covered, runs
267-269 and runs 270-271 and 273: from OLD_FIT to MID_FIT (the one-tile hybrid over a tied two-tile,
kMinTwoTileOverTailGain), then from MID_FIT to NEW_FIT (the third tile over a Stream-K pick of a
few rows of tiles, kMaxFewRowsOfTiles).

  python3 docs/results/2026-11-24-h200-clock/moves.py OLD_FIT MID_FIT NEW_FIT > moves.txt

(streamk-fit built at 9b4898c, at the commit that adds kMinTwoTileOverTailGain, and at the one
that adds kMaxFewRowsOfTiles.)"""
import math, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '../2026-11-23-h200-headline'))
import replay_moves as rm  # changes to the repository's root

fits = [os.path.abspath(f) for f in sys.argv[1:4]]
H, C = rm.H, 'docs/results/2026-11-23-h200-chain/'
K = 'docs/results/2026-11-24-h200-clock/'
groups = ([H + f'run26{r}/rows3-tn.csv' for r in (5, 6)] +
          [H + f'run26{r}/rows-{l}.csv' for r in (2, 3, 4) for l in ('tn', 'nn')] +
          [C + f'run26{r}/rows-{l}.csv' for r in (7, 8) for l in ('tn', 'nn')] +
          [C + 'run269/rows-tn.csv'] + rm.RUN259 + rm.DECODE + rm.HEADLINE +
          [K + f'run270/rows-{p}.csv' for p in (1, 2, 3)] +
          [K + f'run271/new-{p}.csv' for p in (1, 2)] +
          [K + f'run273/grid-{c}.csv' for c in ('tn-fp16-1', 'tn-fp16-2', 'tn-fp16-3',
                                                'nn-fp16-1', 'tn-bf16-1')])
for title, old_fit, new_fit in (('the one-tile hybrid over a tied two-tile', fits[0], fits[1]),
                                ('the third tile over a few rows of Stream-K', fits[1], fits[2])):
    print(f'# {title}')
    measured = []
    for group in groups:
        _, m = rm.moves(old_fit, new_fit, group)
        measured += m
    print(f'moved picks measured both ways: {len(measured)}, geomean new/old '
          f'{math.exp(sum(measured) / len(measured)):.3f}, range '
          f'{math.exp(min(measured)):.3f}-{math.exp(max(measured)):.3f}\n')
