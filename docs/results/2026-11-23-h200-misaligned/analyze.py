#!/usr/bin/env python3
"""Session 41's analysis of runs 227-229 (misaligned rows against cuBLAS): python3 analyze.py."""
import collections
import csv
import glob
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def gmean(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else 1.0


def load(path, keep=lambda r: True):
    d = collections.defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(HERE, path))):
        if r['status'] != 'ok' or not keep(r):
            continue
        d[(int(r['m']), int(r['n']), int(r['k']))][r['mode']] = (float(r['time_us']), r)
    return d


def plan_name(mode, r):
    return '%s %sx%s%s' % (mode.split('/')[0], r['tile_m'], r['tile_n'],
                           ' repacked' if r['repack'] else '')


def run227():
    print('== run 227: the 23 worst shapes, every tile configuration, as the rows are and repacked')
    asis, rep = load('run227/as-is.csv'), load('run227/repacked.csv')
    print('%-16s %7s %7s %6s  %-28s %7s %6s' % ('shape', 'auto', 'cuBLAS', 'a/cB', 'fastest of ours',
                                               'us', 'f/cB'))
    ac, bc = [], []
    for key, v in asis.items():
        cands = [(t, plan_name(m, r)) for m, (t, r) in v.items() if m != 'cublas']
        cands += [(t, plan_name(m, r)) for m, (t, r) in rep.get(key, {}).items()]
        best = min(cands)
        auto, cub = v['auto'][0], v['cublas'][0]
        ac.append(cub / auto)
        bc.append(cub / best[0])
        print('%-16s %7.1f %7.1f %6.3f  %-28s %7.1f %6.3f' % ('x'.join(map(str, key)), auto, cub,
                                                            cub / auto, best[1], best[0],
                                                            cub / best[0]))
    print('geomean auto/cuBLAS %.3f; fastest of the %d plans per shape / cuBLAS %.3f\n' %
          (gmean(ac), 2 * 21 + 1, gmean(bc)))


def cublas_kernels():
    print('== run 227: the kernels cuBLAS runs (ncu)')
    for f in sorted(glob.glob(os.path.join(HERE, 'run227/ncu-*.txt'))):
        shape = os.path.basename(f)[4:-4]
        text = open(f).read()
        m = re.search(r'^  (nvjet\S+) \((\d+), (\d+), (\d+)\)x\((\d+)', text, re.M)
        if not m:
            continue
        blocks = int(m.group(2)) * int(m.group(3)) * int(m.group(4))
        t = re.search(re.escape(m.group(0)) + r'.*?gpu__time_duration.sum\s+us\s+([\d.]+)', text,
                      re.S)
        print('%-16s %-48s %4d blocks of %s threads, %s us' % (shape, m.group(1), blocks,
                                                              m.group(5), t.group(1)))
    print()


def run228():
    print('== run 228: 256 x 128 tiles on 2-SM clusters (experimental build) against the build '
          'as it is, the 132 paper shapes with K not a multiple of 64')
    main, x = load('run228/main.csv'), load('run228/x.csv')
    gains, rows = [], []
    for key, v in main.items():
        ours = min((t, plan_name(m, r)) for m, (t, r) in v.items() if m != 'cublas')
        exp = min((t, plan_name(m, r)) for m, (t, r) in x[key].items() if m != 'auto')
        gains.append(max(1.0, ours[0] / exp[0]))
        rows.append((ours[0] / exp[0], key, ours, exp, v['cublas'][0]))
    rows.sort(reverse=True)
    for g, key, ours, exp, cub in rows[:10]:
        print('%-16s fastest now %6.1f (%-18s)  256x128 clusters %6.1f (%-16s) %.3fx; cuBLAS %.1f'
              % ('x'.join(map(str, key)), ours[0], ours[1], exp[0], exp[1], g, cub))
    print('faster by 5%% or more on %d of %d; a perfect pick among both: %.4fx over the set\n' %
          (sum(r[0] >= 1.05 for r in rows), len(rows), gmean(gains)))


def estimates(path):
    out = {}
    for line in open(os.path.join(HERE, path)):
        t = line.split()
        out[tuple(map(int, t[:3]))] = (float(t[t.index('est') + 1]), t[t.index('cl') + 1],
                                       float(t[t.index('cl') + 3]))
    return out


def cluster_scale(name, csv_path, est_path):
    d = load(csv_path, lambda r: r['mode'] in ('auto', 'cublas') or r['tile_m'] == '256')
    rows = []
    for key, (as_is, cmode, cl) in estimates(est_path).items():
        v = d[key]
        auto = v['auto']
        measured = {m.split('/')[0]: t for m, (t, r) in v.items() if m != 'auto'}
        if cmode not in measured:
            continue
        rows.append((key, as_is, cl, auto[0], auto[1]['tile_m'] == '256', measured[cmode]))
    big = [r for r in rows if r[3] > 20]
    print('%s: %d shapes; over 20 us, measured/estimated %.3f as the rows are (auto not on '
          'clusters), %.3f on clusters' % (name, len(rows),
                                           gmean(r[3] / r[1] for r in big if not r[4]),
                                           gmean(r[5] / r[2] for r in big)))
    for s in (1.0, 0.95, 0.92, 0.90, 0.88):
        for floor in (0, 12, 20):
            moved = [r[3] / r[5] for r in rows
                     if not r[4] and r[2] * s < r[1] * 0.97 and r[1] >= floor]
            print('  cluster estimate x %.2f, as-is estimate >= %2d us: %2d shapes move, %.3fx '
                  'over them (worst %.3f), %.4fx over all' %
                  (s, floor, len(moved), gmean(moved), min(moved, default=1.0),
                   gmean(moved + [1.0] * (len(rows) - len(moved)))))


if __name__ == '__main__':
    run227()
    cublas_kernels()
    run228()
    print('== runs 228-229: scaling the cluster estimate in PlanRows (estimates.cc)')
    cluster_scale('in sample (run 228, seed 1)', 'run228/main.csv', 'est-s1.txt')
    cluster_scale('out of sample (run 229, seeds 2 and 3)', 'run229/s2s3.csv', 'est-s2s3.txt')
