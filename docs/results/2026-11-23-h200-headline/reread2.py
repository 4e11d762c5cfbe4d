#!/usr/bin/env python3
"""Session 49: the re-reads counted up to once per tile, by the tiles a Stream-K block takes
(after eb0ee5f's once more): the picks that move, replayed by OLD_FIT and NEW_FIT over runs
262-266's rows of 128-768 tokens and every set reread.py replays; then run 266's times of each
moved row's new pick (auto) and old pick (every tile Stream-K over 132 blocks on 128 x 256,
forced), in one run.

  python3 docs/results/2026-11-23-h200-headline/reread2.py OLD_FIT NEW_FIT > reread2.txt

(OLD_FIT: build/tools/streamk-fit built at eb0ee5f; NEW_FIT: this one.)"""
import collections, csv, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay_moves as rm  # changes to the repository's root

old_fit, new_fit = (os.path.abspath(f) for f in sys.argv[1:3])
H = rm.H
ROWS = ([H + f'run26{r}/rows3-tn.csv' for r in (5, 6)] +
        [H + f'run26{r}/rows-{l}.csv' for r in (2, 3, 4) for l in ('tn', 'nn')])
moved_rows = set()
for group in ROWS + rm.RUN259 + rm.DECODE + rm.HEADLINE:
    moved, _ = rm.moves(old_fit, new_fit, group)
    moved_rows |= {k[1] for k, _, _ in moved if 'rows3' in group}
rows = collections.defaultdict(dict)
with open(H + 'run266/rows3-tn.csv') as f:
    for r in csv.DictReader(f):
        if r['status'] == 'ok':
            rows[r['name']][r['mode']] = r
print('\nrun 266 (tn, cold): new pick (auto) against the old (streamk:132/128x256x64), us')
for name in sorted(moved_rows):
    a, o = rows[name]['auto'], rows[name]['streamk:132/128x256x64']
    plan = f"{a['plan_mode']} 128x{a['tile_n']} dp{a['dp_tiles']}+sk{a['sk_tiles']} {a['reduction']}"
    print(f"   {name:22s} {plan:36s} {float(a['time_us']):6.1f}  old {float(o['time_us']):6.1f}  "
          f"{float(a['time_us']) / float(o['time_us']):.3f}  dp {float(rows[name]['dp']['time_us']):.1f}")
