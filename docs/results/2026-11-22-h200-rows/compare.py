# Auto on session 33's unaligned shapes, packed and padded: run 179 (before the epilogue's bulk
# copies of rows) against run 180 (after), with cuBLAS from run 180. Run from this folder;
# `python3 compare.py run180 run187` compares two other runs' folders.
import csv, math, sys
before, after = (sys.argv[1], sys.argv[2]) if len(sys.argv) > 2 else (
    '../2026-11-22-h200-anyld/run179', 'run180')
def load(d, dt, pack):
    out = {}
    for r in csv.DictReader(open(f'{d}/{pack}-{dt}.csv')):
        if r['status'] != 'ok': print('BAD', d, pack, r['name'], r['mode'], r['status']); continue
        out[(r['name'], r['mode'])] = (float(r['time_us']), r)
    return out
g = lambda l: math.exp(sum(map(math.log, l)) / len(l))
for dt in ['fp16', 'bf16']:
    B = {p: load(before, dt, p) for p in ['packed', 'padded']}
    A = {p: load(after, dt, p) for p in ['packed', 'padded']}
    names = [n for (n, m) in A['packed'] if m == 'auto']
    print(dt)
    print('%-18s %9s %9s %7s %9s %9s %7s %7s %8s %7s  %s' % ('shape', 'pk before', 'pk after', 'gain',
          'pd before', 'pd after', 'gain', 'pk/pd', 'cublas', 'cub/au', 'plan (packed)'))
    gains = {'packed': [], 'padded': []}
    pkpd, cub = [], []
    for n in names:
        row = []
        for p in ['packed', 'padded']:
            b, a = B[p][(n, 'auto')][0], A[p][(n, 'auto')][0]
            gains[p].append(b / a)
            row += [b, a, b / a]
        pk, pd = A['packed'][(n, 'auto')][0], A['padded'][(n, 'auto')][0]
        cb = A['packed'][(n, 'cublas')][0]
        pkpd.append(pk / pd); cub.append(cb / pk)
        r = A['packed'][(n, 'auto')][1]
        print('%-18s %9.1f %9.1f %7.3f %9.1f %9.1f %7.3f %7.3f %8.1f %7.2f  %s %sx%s %s' % (
            n, *row, pk / pd, cb, cb / pk, r['plan_mode'], r['tile_m'], r['tile_n'], r['repack']))
    print('geomean gain packed %.3f padded %.3f; packed/padded %.3f; cublas/auto packed %.3f' % (
        g(gains['packed']), g(gains['padded']), g(pkpd), g(cub)))
