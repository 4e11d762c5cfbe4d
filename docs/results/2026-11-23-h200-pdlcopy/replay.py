#!/usr/bin/env python3
"""Session 46: the planner's picks for run 249's decode rows (N-major tokens, layout nn), replayed on
what the copies cost once they launch programmatically and batch their loads.

  python3 docs/results/2026-11-23-h200-pdlcopy/replay.py build/tools/streamk-plan > replay.txt

Times: the tokens as they are from run 249 (../2026-11-23-h200-mnmajor/run249/nn-off-{1,2}.csv,
median of its two passes; the kernel has not changed), the tokens copied first from run 252
(run252/decode-nn-a.csv) and K-major tokens (layout tn) from run 252 (run252/decode-tn-off.csv).
For each row: streamk-plan's pick for the kernel's problem (weights x tokens x K, B N-major, its
rows misaligned where the tokens' leading dimension, rounded up to 8, is an odd multiple of 8),
its time where that plan was timed (same mode and tile, copied or not), and what the best timed
plan of the row ran."""
import csv, json, os, statistics, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
plan_tool = sys.argv[1]
def load(path):
    d = {}
    for r in csv.DictReader(open(os.path.join(here, path))):
        d[(int(r['m']), int(r['n']), int(r['k']), r['mode'])] = r
    return d
as_is = [load(f'../2026-11-23-h200-mnmajor/run249/nn-off-{p}.csv') for p in (1, 2)]
copied = load('run252/decode-nn-a.csv')
kmajor = load('run252/decode-tn-off.csv')
def t_as_is(k): return statistics.median(float(x[k]['time_us']) for x in as_is)
def plan_of(r): return (r['plan_mode'], int(r['tile_m']), int(r['tile_n']))
modes = ['dp/128x128x64', 'dp/64x128x64']
shapes = sorted({k[:3] for k in copied}, key=lambda s: (s[1], s[2], s[0]))
print("Each row: the planner's pick, its time (us) as timed (as is: run 249, copied: run 252), "
      'the best of the timed plans (as is or copied, either tile), and K-major tokens (tn) on '
      "the pick's tile")
ratios = []
for (tok, n, k) in shapes:
    mis = ((tok + 7) // 8) % 2 == 1
    out = subprocess.run([plan_tool, str(n), str(tok), str(k), '--device', 'h200', '--json',
                          '--mn_major', 'b', '--misaligned', 'b' if mis else 'none'],
                         capture_output=True, text=True, check=True).stdout
    pj = json.loads(out)
    pick = (pj['mode'], pj['tile'][0], pj['tile'][1])
    is_copied = pj['repack_b'] is True
    timed = {}
    for m in modes:
        timed[(plan_of(as_is[0][(tok, n, k, m)]), False)] = t_as_is((tok, n, k, m))
        timed[(plan_of(copied[(tok, n, k, m)]), True)] = float(copied[(tok, n, k, m)]['time_us'])
    best = min(timed.values())
    got = timed.get((pick, is_copied))
    tn = next((float(kmajor[(tok, n, k, m)]['time_us']) for m in modes
               if plan_of(kmajor[(tok, n, k, m)]) == pick), float('nan'))
    if got is None:
        print(f'{tok:3d} x {n:5d} x {k:5d}  {pick[0]} {pick[1]}x{pick[2]} not timed')
        continue
    ratios.append(got / best)
    print(f'{tok:3d} x {n:5d} x {k:5d} {"16n" if mis else "32n"}  {pick[0]:3s} {pick[1]:3d}x'
          f'{pick[2]:<3d} {"copied" if is_copied else "as is ":6s} {got:6.1f} (predicted '
          f'{pj["predicted_us"]:6.1f})  best timed {best:6.1f}  pick/best {got / best:5.3f}  '
          f'tn {tn:6.1f}')
print(f'pick / best timed: geomean {statistics.geometric_mean(ratios):.3f}, max {max(ratios):.3f}'
      f' over {len(ratios)} rows')
