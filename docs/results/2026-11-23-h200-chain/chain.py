#!/usr/bin/env python3
"""Session 50: the turnstile's first peers publish off the chain where data-parallel tiles follow
the Stream-K blocks. The picks that move, replayed by OLD_FIT and NEW_FIT over the CSVs session
49's replays covered and runs 267-268; then, in run 268 (the final build, one run), each moved
row's new pick (auto) against its old pick (forced), and auto against `dp` on every row.

  python3 docs/results/2026-11-23-h200-chain/chain.py OLD_FIT NEW_FIT > chain.txt

(OLD_FIT: build/tools/streamk-fit built at bde5bb9; NEW_FIT: this one.)"""
import collections, csv, math, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '../2026-11-23-h200-headline'))
import replay_moves as rm  # changes to the repository's root

old_fit, new_fit = (os.path.abspath(f) for f in sys.argv[1:3])
H, C = rm.H, 'docs/results/2026-11-23-h200-chain/'
ROWS = ([H + f'run26{r}/rows3-tn.csv' for r in (5, 6)] +
        [H + f'run26{r}/rows-{l}.csv' for r in (2, 3, 4) for l in ('tn', 'nn')])
OURS = [C + f'run26{r}/rows-{l}.csv' for r in (7, 8) for l in ('tn', 'nn')]
measured = []
for group in ROWS + rm.RUN259 + rm.DECODE + rm.HEADLINE + OURS:
    _, m = rm.moves(old_fit, new_fit, group)
    if group not in OURS[2:]:
        measured += m
print(f'\nmoved picks measured both ways (run 268 left out: its auto is the new pick): '
      f'{len(measured)}, geomean new/old {math.exp(sum(measured) / len(measured)):.3f}')

for layout in ('tn', 'nn'):
    f = C + f'run268/rows-{layout}.csv'
    old = rm.picks(old_fit, [f])
    rows = collections.defaultdict(dict)
    with open(f) as fh:
        for r in csv.DictReader(fh):
            if r['status'] == 'ok':
                rows[r['name']][r['mode']] = r
    print(f'\nrun 268 ({layout}, cold, fp16): auto (the new pick) against the old pick, and '
          '`dp`, us')
    logs = []
    for key, (pick, pick_us, _) in old.items():
        name = key[1]
        a = rows[name]['auto']
        plan = (f"{a['plan_mode']} {a['tile_m']}x{a['tile_n']} "
                f"dp{a['dp_tiles']}+sk{a['sk_tiles']}/{a['sk_blocks']} {a['reduction'][:3]}")
        t, dp = float(a['time_us']), float(rows[name]['dp']['time_us'])
        moved = pick != rm.picks(new_fit, [f])[key][0]
        # The old pick's own time in this run (its forced mode), where it moved.
        was = f'old {pick:34s} {pick_us:6.1f}  {t / pick_us:.3f}' if moved and pick_us else ''
        if moved and pick_us:
            logs.append(math.log(t / pick_us))
        print(f'   {name:22s} {plan:34s} {t:6.1f}  dp {dp:6.1f} auto/dp {dp / t:.3f}  {was}')
    print(f'   moved: {len(logs)}, time new/old geomean {math.exp(sum(logs) / len(logs)):.3f}')
