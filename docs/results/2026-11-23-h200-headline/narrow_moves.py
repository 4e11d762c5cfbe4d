#!/usr/bin/env python3
"""Session 49: which of auto's picks the narrow M-/N-major terms' refit (narrow_refit.sh) would
move, replayed by streamk-fit over every decode CSV since session 43 (floor_replay.py's and
moves.py's groups), run 259's and run 258's paper, waveq and llm sets.

  python3 docs/results/2026-11-23-h200-headline/narrow_moves.py > narrow_moves.txt"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay_moves as rm  # changes to the repository's root

groups = rm.RUN259 + rm.DECODE + rm.HEADLINE
rm.fr.main(groups, {
    'the 128 x 128 refit': {'alt.narrow_mn_misaligned_iter_us': 0.31,
                            'alt.narrow_mn_iter_us': 0.05},
    'every tile at 0.31': {'narrow_mn_misaligned_iter_us': 0.31},
}, 'Moves are from the preset (narrow_mn_misaligned_iter_us 0.22, narrow_mn_iter_us 0.045) to '
   'the variant.')
