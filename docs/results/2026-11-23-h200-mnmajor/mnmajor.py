#!/usr/bin/env python3
"""Session 45: run 249's decode rows with N-major tokens, and the planner's picks replayed on them.

  python3 docs/results/2026-11-23-h200-mnmajor/mnmajor.py build/tools/streamk-plan > mnmajor.txt

Reads run249/{nn-off,nn-a,tn-auto}-{1,2}.csv (medians of the two passes). For each row: the
times as the tokens are (nn-off), with them copied to K-major rows first (nn-a), and on K-major
tokens (tn); then the plan streamk-plan picks for the kernel's problem (weights x tokens x K, B
N-major, its rows misaligned where the tokens' leading dimension, rounded up to 8, is an odd
multiple of 8) and run 249's time for that plan (same mode and tile, copied or not), against the
plan auto ran in run 249 (before the narrow terms)."""
import csv, json, os, statistics, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
plan_tool = sys.argv[1]
def load(f):
    d = {}
    for r in csv.DictReader(open(os.path.join(here, 'run249', f))):
        d[(int(r['m']), int(r['n']), int(r['k']), r['mode'])] = r
    return d
runs = {v: [load(f'{v}-{p}.csv') for p in (1, 2)] for v in ['nn-off', 'nn-a', 'tn-auto']}
def t(v, k): return statistics.median(float(x[k]['time_us']) for x in runs[v])
def plan_of(v, k):
    r = runs[v][0][k]
    return (r['plan_mode'], int(r['tile_m']), int(r['tile_n']))
def plan(m, n, k, extra):
    out = subprocess.run([plan_tool, str(m), str(n), str(k), '--device', 'h200', '--json'] + extra,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)
modes = ['auto', 'dp/128x128x64', 'dp/64x128x64']
shapes = sorted({k[:3] for k in runs['nn-off'][0]}, key=lambda s: (s[1], s[2], s[0]))
print('Run 249, fp16, us (median of 2 passes): as the tokens are (nn) / tokens copied first (nn, '
      '--repack a) / K-major tokens (tn)')
print(f"{'tokens x weights x K':22s} {'rows':>5s}  " +
      '  '.join(f'{m:>23s}' for m in modes) + f"  {'cuBLAS nn':>9s}")
ratios, lines = [], []
for (tok, n, k) in shapes:
    mis = ((tok + 7) // 8) % 2 == 1
    cells = ['%6.1f %6.1f %6.1f' % (t('nn-off', (tok, n, k, m)), t('nn-a', (tok, n, k, m)),
                                   t('tn-auto', (tok, n, k, m))) for m in modes]
    print(f'{tok:3d} x {n:5d} x {k:5d}     {"16n" if mis else "32n":>5s}  ' + '  '.join(
        f'{c:>23s}' for c in cells) + f"  {t('nn-off', (tok, n, k, 'cublas')):9.1f}")
    pj = plan(n, tok, k, ['--mn_major', 'b', '--misaligned', 'b' if mis else 'none'])
    pick = (pj['mode'], pj['tile'][0], pj['tile'][1])
    copied = pj['repack_b'] is True
    v = 'nn-a' if copied else 'nn-off'
    new = next(t(v, (tok, n, k, m)) for m in modes if plan_of(v, (tok, n, k, m)) == pick)
    old = t('nn-off', (tok, n, k, 'auto'))
    ratios.append(old / new)
    lines.append(f'{tok:3d} x {n:5d} x {k:5d}  {pick[0]:6s} {pick[1]}x{pick[2]:<3d} '
                 f'{"copied " if copied else "as is  "} {new:6.1f} us (predicted '
                 f'{pj["predicted_us"]:6.1f})  run 249 auto {old:6.1f}  ratio {old / new:5.3f}')
print('\n("rows": 16n where the tokens\' rows start at odd multiples of 16 bytes, 32n where on '
      '32-byte boundaries)\n')
print("The planner's pick now, timed in run 249 (same mode and tile), against run 249's auto:")
print('\n'.join(lines))
print(f'geomean run 249 auto / pick now: {statistics.geometric_mean(ratios):.3f} over '
      f'{len(ratios)} rows; min {min(ratios):.3f}, max {max(ratios):.3f}')
