#!/usr/bin/env python3
"""Session 56: how the 2-SM clusters' estimate for misaligned rows errs, and how a term for the
columns their tiles pad (CostModel::padded_columns_load) replays against data-parallel's pick.
Data: run 298 (this directory: 509 random paper-like shapes whose rows auto ran on clusters, tn
fp16, three passes) and run 295 (../2026-11-24-h200-misbroad/: 135 shapes, tn fp16, two passes);
medians per shape and mode. predicted_us is the planner's estimate (MisalignedEstimate).
Bench shapes are W x T x K, W the planner's N.

  python3 clusters_replay.py > clusters_replay.txt"""
import csv, math, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
files = [os.path.join(here, 'run298', 'tn-fp16-%d.csv' % p) for p in (1, 2, 3)]
files += [os.path.join(here, '..', '2026-11-24-h200-misbroad', 'run295', f + '.csv')
          for f in ('tn-fp16-1', 'tn-fp16-2')]
t = {}
for f in files:
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            t.setdefault((r['name'], r['mode']), []).append(r)
med = lambda v, f='time_us': statistics.median(float(x[f]) for x in v)
def padded(w, tile=256):  # the share of the tiles' columns past N
    return 1 - w / (tile * math.ceil(w / tile))

# 1. The clusters' data-parallel plan: measured / estimated against the padded share w.
fit = []
for (n, m), c in t.items():
    if m == 'dp/256x256x64':
        fit.append((padded(int(c[0]['m'])), math.log(med(c) / med(c, 'predicted_us'))))
def lsq(xs, ys):
    mx, my = statistics.mean(xs), statistics.mean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - b * mx
    return a, b, math.sqrt(statistics.mean((y - a - b * x) ** 2 for x, y in zip(xs, ys)))
ws, ys = [f[0] for f in fit], [f[1] for f in fit]
print('# 1. clusters, data-parallel (dp/256x256x64): log(measured / estimated) against w,'
      ' %d shapes' % len(fit))
print('without w: mean %.3f, rms about it %.3f' % (statistics.mean(ys), statistics.pstdev(ys)))
a, b, rms = lsq(ws, ys)
print('log-linear: %.3f + %.3f w, rms %.3f' % (a, b, rms))
best = min((statistics.pvariance([y - math.log(1 + s * w) for w, y in fit]), s)
           for s in [i / 20 for i in range(61)])
print('a + log(1 + s w): s = %.2f, rms %.3f' % (best[1], math.sqrt(best[0])))
for lo, hi in [(0, .05), (.05, .1), (.1, .15), (.15, .2), (.2, .3), (.3, .4), (.4, .5)]:
    v = [y for w, y in fit if lo <= w < hi]
    if v:
        print('  w %.2f-%.2f: %3d shapes, measured %.3f x the estimate' % (
            lo, hi, len(v), math.exp(statistics.mean(v))))

# 1b. Auto's cluster plans (run 298) by decomposition.
print('\n# 1b. auto\'s plans on clusters (run 298), by decomposition: log(measured / estimated)')
for mode in ('dp', 'streamk', 'splitk'):
    v = [(padded(int(c[0]['m'])), math.log(med(c) / med(c, 'predicted_us')))
         for (n, m), c in t.items() if m == 'auto' and n.startswith('c2')
         and c[0]['plan_mode'] == mode and c[0]['tile_m'] == '256']
    a, b, rms = lsq([x[0] for x in v], [x[1] for x in v])
    print('  %-7s %3d shapes: %.3f + %.3f w (w up to %.2f), rms %.3f' % (
        mode, len(v), a, b, max(x[0] for x in v), rms))

# 2. Clusters against 128 x 256 tiles on single SMs (the same work per SM), by tiles along n
# and the last one's columns.
print('\n# 2. clusters / 128x256 data-parallel, measured, by tiles along n and the last one\'s'
      ' fill')
g = {}
for (n, m), c in t.items():
    if m != 'dp/256x256x64': continue
    w = int(c[0]['m']); tn = math.ceil(w / 256); last = w - 256 * (tn - 1)
    key = ('2, last 8-112' if tn == 2 and last <= 112 else '2, last 113-256' if tn == 2
           else '3-4' if tn <= 4 else '5-8' if tn <= 8 else '9 or more' if tn >= 9 else '1')
    g.setdefault(key, []).append(med(c) / med(t[(n, 'dp/128x256x64')]))
for k in sorted(g):
    v = g[k]
    print('  tiles along n %-16s %3d shapes: median %.3f, %.3f-%.3f' % (
        k, len(v), statistics.median(v), min(v), max(v)))

# 3. Replay: clusters (auto's plan in run 298; the cluster mode with the lowest estimate, the old
# pick, in run 295) against data-parallel's pick (mode dp), the clusters' estimate scaled by
# `scale(w)`, data-parallel's pick taken where estimated `margin` under it.
rows = []
for (n, m), c in t.items():
    if m != 'dp/256x256x64': continue
    if n.startswith('c2'):
        cl = t[(n, 'auto')]
    else:
        cl = min((t[(n, mm)] for mm in ('dp/256x256x64', 'streamk/256x256x64',
                                         'splitk/256x256x64') if (n, mm) in t),
                 key=lambda v: med(v, 'predicted_us'))
    d = t[(n, 'dp')]
    rows.append(dict(n=n, w=padded(int(c[0]['m'])), pc=med(cl, 'predicted_us'), mc=med(cl),
                     pd=med(d, 'predicted_us'), md=med(d), mode=cl[0]['plan_mode']))
def replay(scale, margin, sub):
    out = []
    for r in rows:
        if not sub(r['n']): continue
        take = r['pd'] < r['pc'] * scale(r['w'], r['mode']) * (1 - margin)
        ch = r['md'] if take else r['mc']
        out.append((r['md'] / ch, min(r['md'], r['mc']) / ch, take))
    return (len(out), statistics.geometric_mean([o[0] for o in out]), min(o[0] for o in out),
            sum(o[0] < 0.97 for o in out), statistics.geometric_mean([o[1] for o in out]),
            min(o[1] for o in out), sum(o[2] for o in out))
print('\n# 3. replay: the pick\'s time against dp (geomean, min, shapes under 0.97) and against'
      ' the faster of the two (geomean, min); shapes moved to data-parallel\'s pick')
subs = [('seed 21', lambda n: n.startswith('c21')), ('seed 22', lambda n: n.startswith('c22')),
        ('run 295', lambda n: not n.startswith('c2'))]
variants = [('none (before)', lambda w, m: 1), ('1 + 0.8 w', lambda w, m: 1 + 0.8 * w),
            ('1 + 0.8 w, not splitk', lambda w, m: 1 if m == 'splitk' else 1 + 0.8 * w),
            ('1 + w', lambda w, m: 1 + w),
            ('0.88 exp(0.79 w)', lambda w, m: 0.88 * math.exp(0.79 * w))]
for name, scale in variants:
    for margin in (0.03, 0.05, 0.08):
        print('%-21s margin %.2f' % (name, margin))
        for sname, sub in subs:
            print('    %-8s %3d shapes: vs dp %.4f min %.3f under-0.97 %2d; vs the faster %.4f'
                  ' min %.3f; moved %3d' % ((sname,) + replay(scale, margin, sub)))
