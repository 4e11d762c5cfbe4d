#!/usr/bin/env python3
"""Session 49: the picks that move where the memory floor counts the panels Stream-K tiles read
again (CostModel::streamk_reread_bytes): auto replayed by OLD_FIT and NEW_FIT over run 262's rows
of 128-512 tokens, every decode CSV since session 43 (floor_replay.py's and moves.py's groups),
run 259's, and run 258's paper, waveq and llm sets, with what the moved picks measured (None: not
measured there).

  python3 docs/results/2026-11-23-h200-headline/reread.py OLD_FIT NEW_FIT > reread.txt

(OLD_FIT: build/tools/streamk-fit built at 550ed20; NEW_FIT: with streamk_reread_bytes.)"""
import collections, csv, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay_moves as rm  # changes to the repository's root

old_fit, new_fit = (os.path.abspath(f) for f in sys.argv[1:3])
H = rm.H
ROWS = [H + f'run262/rows-{l}.csv' for l in ('tn', 'nn')]
n_moved, logs = 0, []
for group in ROWS + rm.RUN259 + rm.DECODE + rm.HEADLINE:
    moved, measured = rm.moves(old_fit, new_fit, group)
    n_moved += len(moved)
    logs += measured
print(f'TOTAL moved {n_moved}, measured both ways {len(logs)}, geomean new/old '
      + (f'{math.exp(sum(logs) / len(logs)):.4f}' if logs else 'nan'))

# Run 263: the new build's auto against dp/128x256x64 and the best forced plan in the same run,
# beside run 262's (the old build's) auto against dp/128x256x64 in that run, on the rows whose
# pick moved. (Run 263's forced streamk/128x256x64 is planned by the new model, on fewer blocks:
# not the old pick.)
print('\nauto / dp/128x256x64 in the same run: run 262 (old pick) -> run 263 (new pick)')
moved = {}
for group in ROWS:
    old, new = rm.picks(old_fit, [group]), rm.picks(new_fit, [group])
    layout = 'tn' if group.endswith('tn.csv') else 'nn'
    moved[layout] = {k[1]: new[k][0] for k, o in old.items() if k in new and new[k][0] != o[0]}


def load(run, layout):
    rows = collections.defaultdict(dict)
    with open(H + f'{run}/rows-{layout}.csv') as f:
        for r in csv.DictReader(f):
            if r['status'] == 'ok':
                rows[r['name']][r['mode']] = r
    return rows


olds, news, cross = [], [], []
for layout in ('tn', 'nn'):
    before, after = load('run262', layout), load('run263', layout)
    for name in sorted(moved[layout]):
        b, a = before[name], after[name]
        t = lambda m, mode: float(m[mode]['time_us'])
        old_r = t(b, 'auto') / t(b, 'dp/128x256x64')
        new_r = t(a, 'auto') / t(a, 'dp/128x256x64')
        forced = {k: float(r['time_us']) for k, r in a.items() if k not in ('auto', 'cublas')}
        best = min(forced, key=forced.get)
        p = a['auto']
        plan = f"{p['plan_mode']} {p['tile_m']}x{p['tile_n']}"
        if p['plan_mode'] != 'dp':
            plan += f" dp{p['dp_tiles']}+sk{p['sk_tiles']}/{p['sk_blocks']}"
            plan += ' sep' if p['reduction'] == 'separate' else ''
        # Run 263 timed an earlier form of the rule; its pick must be this build's.
        plan += '' if plan == moved[layout][name] else f' (not {moved[layout][name]})'
        olds.append(math.log(old_r)), news.append(math.log(new_r))
        cross.append(math.log(t(a, 'auto') / t(b, 'auto')))
        print(f'   {layout} {name:22s} {old_r:.3f} -> {new_r:.3f}  {plan:36s} {t(a, "auto"):6.1f} us '
              f'(old pick {t(b, "auto"):6.1f} in run 262); best forced {best} {forced[best]:.1f}')
g = lambda v: math.exp(sum(v) / len(v))
print(f'   {len(news)} rows: auto / dp/128x256x64 geomean {g(olds):.3f} -> {g(news):.3f}, '
      f'worst {math.exp(max(olds)):.3f} -> {math.exp(max(news)):.3f}; new time / old time across '
      f'the two runs {g(cross):.3f} ({math.exp(min(cross)):.3f}-{math.exp(max(cross)):.3f})')
