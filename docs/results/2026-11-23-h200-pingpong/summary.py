#!/usr/bin/env python3
"""Medians over passes of a run's CSVs (run207-210): per shape and dtype, auto (and
dp/128x128x64 where timed) with ping-pong as the launch picks it (files pingpong-*), without
(STREAMK_PINGPONG=off: shared-*) and b335276's build (before-*, run 207 only), and cuBLAS.
Files: BUILD-PASS.csv (fp16) or BUILD-DTYPE-PASS.csv.  usage: summary.py RUN_DIR"""
import csv, glob, math, os, statistics, sys

run = sys.argv[1]
t = {}  # (build, dtype, shape, mode) -> [times]
names, plans = {}, {}
for path in sorted(glob.glob(os.path.join(run, '*-*.csv'))):
    parts = os.path.basename(path)[:-4].split('-')
    build = parts[0]
    for r in csv.DictReader(open(path)):
        shape = (int(r['m']), int(r['n']), int(r['k']))
        if r['status'] != 'ok':
            print('not ok:', path, shape, r['mode'], r['status'])
            continue
        names[shape] = r['name']
        if build == 'pingpong' and r['mode'] == 'auto':
            plans[shape] = '%s %sx%s %d/%s' % (r['plan_mode'], r['tile_m'], r['tile_n'],
                                               int(r['dp_tiles']) + int(r['sk_tiles']),
                                               r['grid_blocks'])
        t.setdefault((build, r['dtype'], shape, r['mode']), []).append(float(r['time_us']))
med = {k: statistics.median(v) for k, v in t.items()}
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')
for dtype in sorted({k[1] for k in med}):
    print('\n%s: median us over passes; gain = off / ping-pong' % dtype)
    print('%-18s %-18s %-22s %9s %9s %9s %9s %7s %7s %7s' %
          ('shape', 'name', 'auto plan (tiles/grid)', 'auto', 'auto off', 'dp128', 'dp128 off',
           'cublas', 'gain', 'dp gain'))
    gains, dgains = [], []
    for shape in names:
        g = lambda b, m: med.get((b, dtype, shape, m), float('nan'))
        ap, ao = g('pingpong', 'auto'), g('shared', 'auto')
        dp, do = g('pingpong', 'dp/128x128x64'), g('shared', 'dp/128x128x64')
        cb = [x for b in ('pingpong', 'shared', 'before')
              for x in t.get((b, dtype, shape, 'cublas'), [])]
        cb = statistics.median(cb) if cb else float('nan')
        if not math.isnan(ap / ao): gains.append(ao / ap)
        if not math.isnan(dp / do): dgains.append(do / dp)
        print('%-18s %-18s %-22s %9.3f %9.3f %9.3f %9.3f %7.2f %7.3f %7.3f' %
              ('x'.join(map(str, shape)), names[shape][:18], plans.get(shape, '')[:22], ap, ao,
               dp, do, cb, ao / ap, do / dp))
    print('geomean gain: auto %.4f over %d shapes; dp/128x128x64 %.4f' %
          (gm(gains), len(gains), gm(dgains)))
