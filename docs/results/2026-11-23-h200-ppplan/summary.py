#!/usr/bin/env python3
"""Session 39's runs as tables (python3 summary.py > summary.txt): medians over passes.

run 213: shapes.txt, auto and every tile's data-parallel plan, ping-pong (the launch's choice)
         against STREAMK_PINGPONG=off in alternating calls;
runs 214-216: probe214-216.txt, data-parallel on 128 x 128 tiles, ping-pong on against off;
run 217: the waveq set, auto, dp and cuBLAS, this build against c87e547's (session 38).
Run 212 (shapes.txt, off in calls of one mode) is kept but not summarized: its off calls ran on
a cooler GPU than its on calls, so its A/B is not fair (run 213 repeats it)."""
import collections, csv, glob, math, os, statistics

HERE = os.path.dirname(os.path.abspath(__file__))


def load(run, key):
    t, order = collections.defaultdict(list), []
    for f in sorted(glob.glob(os.path.join(HERE, run, '*-*-*.csv'))):
        parts = os.path.basename(f)[:-4].split('-')
        for r in csv.DictReader(open(f)):
            if r['status'] != 'ok':
                print('not ok:', run, parts, r['m'], r['n'], r['k'], r['mode'], r['status'])
                continue
            s = (r['name'], int(r['m']), int(r['n']), int(r['k']))
            if s not in order:
                order.append(s)
            t[key(parts, r) + (s,)].append(r)
    return t, order


def med(rows):
    return statistics.median(float(r['time_us']) for r in rows)


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def shape_facts(s):
    _, m, n, k = s
    tiles = -(-m // 128) * -(-n // 128)
    lines = 'lines' if 2 * k % 128 == 0 else 'off'
    return f"{tiles / 132:5.1f} {-(-k // 64):3d} {lines:5s}"


def run213():
    t, order = load('run213', lambda p, r: (p[0], r['dtype'], r['mode']))
    print('=== run 213: shapes.txt; pp = 128x128 data-parallel with ping-pong, off = without;')
    print('    tiles/block, k-iterations and rows (lines: K-major rows on 128-byte lines)')
    for dt in ('fp16', 'bf16'):
        print(f"\n{dt}: median us of 3 passes")
        print(f"{'shape':18s} {'t/b':>5s} {'it':>3s} rows   {'auto':>7s} {'plan':8s} {'pp':>7s} "
              f"{'off':>7s} {'off/pp':>6s} {'128x192':>7s} {'192x192':>7s} {'128x256':>7s}")
        for s in order:
            g = lambda b, m: med(t[(b, dt, m, s)])
            a = t[('pingpong', dt, 'auto', s)][0]
            pp, off = g('pingpong', 'dp/128x128x64'), g('shared', 'dp/128x128x64')
            others = [g('shared', m) for m in ('dp/128x192x64', 'dp/192x192x64', 'dp/128x256x64')]
            print(f"{s[1]}x{s[2]}x{s[3]:<6d}"[:18].ljust(18) + f" {shape_facts(s)}  "
                  f"{g('pingpong', 'auto'):7.1f} {a['tile_m'] + 'x' + a['tile_n']:8s} {pp:7.1f} "
                  f"{off:7.1f} {off / pp:6.3f} " + ' '.join(f"{x:7.1f}" for x in others))


def probes():
    for run in ('run214', 'run215', 'run216'):
        t, order = load(run, lambda p, r: (p[0], p[1]))
        builds = sorted({k[0] for k in t})
        on, off = ('pingpong', 'shared') if 'pingpong' in builds else ('on', 'off')
        print(f"\n=== {run}: data-parallel on 128 x 128 tiles, {on} against {off}; median us of 3"
              " (rows: as K-major rows of K elements; layout nt's operands are M/N-major)")
        for var in sorted({k[1] for k in t}):
            print(f"{var}:")
            for s in order:
                if (on, var, s) not in t:
                    continue
                a, b = med(t[(on, var, s)]), med(t[(off, var, s)])
                print(f"  {s[1]}x{s[2]}x{s[3]:<6d} {shape_facts(s)}  {a:7.2f} {b:7.2f}  gain {b / a:.3f}")


def run217():
    t, order = load('run217', lambda p, r: (p[0], r['dtype'], r['mode']))
    print('\n=== run 217: waveq set, this build (new) against c87e547 (old); median us of 2 passes')
    for dt in ('fp16', 'bf16'):
        print(f"\n{dt}")
        ratios, ad_new, ad_old, ac_new, ac_old = [], [], [], [], []
        for s in order:
            g = lambda b, m: med(t[(b, dt, m, s)])
            pn = t[('new', dt, 'auto', s)][0]
            po = t[('c87e547', dt, 'auto', s)][0]
            an, ao = g('new', 'auto'), g('c87e547', 'auto')
            ratios.append(ao / an)
            ad_new.append(g('new', 'dp') / an)
            ad_old.append(g('c87e547', 'dp') / ao)
            ac_new.append(g('new', 'cublas') / an)
            ac_old.append(g('c87e547', 'cublas') / ao)
            name = lambda r: f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}"
            if name(pn) != name(po):
                print(f"  {s[1]}x{s[2]}x{s[3]}: new {name(pn)} {an:.1f} us, old {name(po)} "
                      f"{ao:.1f} us: old/new {ao / an:.3f}")
        print(f"  geomean over {len(order)} shapes: old/new {geo(ratios):.4f}; auto/dp new "
              f"{geo(ad_new):.4f} old {geo(ad_old):.4f}; auto/cublas new {1 / geo(ac_new):.4f} "
              f"old {1 / geo(ac_old):.4f}")


run213()
probes()
run217()
