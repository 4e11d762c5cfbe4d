#!/usr/bin/env python3
"""Session 46: the planner's picks for run 252's wide operands with misaligned M- or N-major rows.

  python3 docs/results/2026-11-23-h200-pdlcopy/wide_replay.py build/tools/streamk-plan

Run 252 timed each shape of wide2.txt in layouts nn, nt and tt (D column-major: the kernel's
problem is N x M; nn: the kernel's B N-major, its rows M elements apart; nt: that and the kernel's
A M-major, its rows N elements apart; tt: that A alone), data-parallel on 128 x 256 and 128 x 128
tiles, with the operands as they are (--repack off) and copied first (--repack on), and cuBLAS.
For each: streamk-plan's pick and its time where that plan was timed (same mode and tile,
copied or not), the best timed plan, and cuBLAS."""
import csv, json, os, statistics, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
plan_tool = sys.argv[1]
def load(f):
    return {(int(r['m']), int(r['n']), int(r['k']), r['mode']): r
            for r in csv.DictReader(open(os.path.join(here, 'run252', f)))}
def plan_of(r): return (r['plan_mode'], int(r['tile_m']), int(r['tile_n']))
def misaligned(rows): return (rows * 2) % 32 == 16
ratios, vs_cublas = [], []
for layout in ['nn', 'nt', 'tt']:
    off, on = load(f'wide-{layout}-off.csv'), load(f'wide-{layout}-on.csv')
    print(f'== layout {layout}: pick, its time (us), best timed, cuBLAS')
    for (m, n, k) in sorted({key[:3] for key in off}):
        a_mn = layout in ('nt', 'tt')  # the kernel's A: the user's B, rows n apart
        b_mn = layout in ('nn', 'nt')  # the kernel's B: the user's A, rows m apart
        mn = 'both' if a_mn and b_mn else 'a' if a_mn else 'b'
        mis = [o for o, bad in (('a', a_mn and misaligned(n)), ('b', b_mn and misaligned(m)))
               if bad]
        pj = json.loads(subprocess.run(
            [plan_tool, str(n), str(m), str(k), '--device', 'h200', '--json', '--mn_major', mn,
             '--misaligned', 'both' if len(mis) == 2 else mis[0] if mis else 'none'],
            capture_output=True, text=True, check=True).stdout)
        pick = (pj['mode'], pj['tile'][0], pj['tile'][1])
        copied = pj['repack_a'] is True or pj['repack_b'] is True
        timed = {}
        for mode in ['dp/128x256x64', 'dp/128x128x64']:
            for was_copied, runs in ((False, off), (True, on)):
                r = runs[(m, n, k, mode)]
                timed[(plan_of(r), r['repack'] not in ('', 'none', 'off'))] = float(r['time_us'])
        best = min(timed.values())
        cublas = float(off[(m, n, k, 'cublas')]['time_us'])
        got = timed.get((pick, copied))
        name = f'{m}x{n}x{k}'
        what = f'{pick[0]} {pick[1]}x{pick[2]} {"copied" if copied else "as is"}'
        if got is None:
            print(f'{name:16s} {what:24s} not timed (predicted {pj["predicted_us"]:.1f})  best '
                  f'timed {best:6.1f}  cuBLAS {cublas:6.1f}')
            continue
        ratios.append(got / best)
        vs_cublas.append(cublas / got)
        print(f'{name:16s} {what:24s} {got:6.1f} (predicted {pj["predicted_us"]:6.1f})  best timed '
              f'{best:6.1f}  pick/best {got / best:5.3f}  cuBLAS {cublas:6.1f}')
print(f'pick / best timed: geomean {statistics.geometric_mean(ratios):.3f}, max '
      f'{max(ratios):.3f} over {len(ratios)}; cuBLAS / pick geomean '
      f'{statistics.geometric_mean(vs_cublas):.3f}')
