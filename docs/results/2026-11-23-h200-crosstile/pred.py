#!/usr/bin/env python3
"""Run 221's medians against the planner's predictions (python3 pred.py PLAN_BINARY): per tile,
measured / predicted of each shape's data-parallel plan, with tiles per block and k-iterations."""
import collections, csv, glob, json, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
plan = sys.argv[1]
t, order = collections.defaultdict(list), []
for f in sorted(glob.glob(os.path.join(HERE, 'run221', 'grid-*.csv'))):
    for r in csv.DictReader(open(f)):
        s = (int(r['m']), int(r['n']), int(r['k']))
        if s not in order:
            order.append(s)
        t[(r['dtype'], r['mode'], s)].append(float(r['time_us']))
tiles = ['128x128x64', '128x192x64', '192x192x64', '128x256x64']


def predicted(s, tile, dt):
    # The bench's tn layout plans the kernel problem N x M.
    out = subprocess.run([plan, str(s[1]), str(s[0]), str(s[2]), '--tile', tile, '--mode', 'dp',
                          '--dtype', dt, '--json'], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)['predicted_us']


for dt in ('fp16', 'bf16'):
    print(f"\n{dt}: measured / predicted, data-parallel (median of 2 passes)")
    print(f"{'shape':18s} {'t/b':>5s} {'it':>3s} " + ' '.join(f"{x[:7]:>8s}" for x in tiles) +
          '  256/pp meas pred')
    for s in order:
        meas = [statistics.median(t[(dt, 'dp/' + x, s)]) for x in tiles]
        pred = [predicted(s, x, dt) for x in tiles]
        tb = -(-s[0] // 128) * -(-s[1] // 128) / 132
        print(f"{s[0]}x{s[1]}x{s[2]:<6d} {tb:5.1f} {-(-s[2] // 64):3d} " +
              ' '.join(f"{m / p:8.3f}" for m, p in zip(meas, pred)) +
              f"  {meas[3] / meas[0]:.3f} {pred[3] / pred[0]:.3f}")
