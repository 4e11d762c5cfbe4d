#!/usr/bin/env python3
"""Run 143: this build's auto against acb26d6's (base) on the misaligned shapes, two alternating
passes each (mean of the two medians). Usage: ab_repack.py RUN_DIR"""
import csv, math, sys, collections
d = sys.argv[1]
t = collections.defaultdict(lambda: collections.defaultdict(list))
plan = {}
for b in ('base', 'new'):
    for p in (1, 2):
        for r in csv.DictReader(open(f'{d}/auto-{b}-{p}.csv')):
            if r['status'] != 'ok':
                continue
            k = (int(r['m']), int(r['n']), int(r['k']))
            t[k][b + ':' + r['mode']].append(float(r['time_us']))
            if r['mode'] == 'auto':
                plan[(k, b)] = (r['repack'] or '-') + (' clusters' if r['tile_m'] == '256' else '')
gm = lambda l: math.exp(sum(map(math.log, l)) / len(l))
mean = lambda l: sum(l) / len(l)
ab, same, cub_b, cub_n = [], [], [], []
for k, v in sorted(t.items()):
    b, n = mean(v['base:auto']), mean(v['new:auto'])
    cub = mean(v['base:cublas'] + v['new:cublas'])
    ab.append(b / n); cub_b.append(cub / b); cub_n.append(cub / n)
    if plan[(k, 'base')] != plan[(k, 'new')]:
        print('%-16s base %6.1f us (%s)  new %6.1f us (copies %s)  %.3fx' % (
            'x'.join(map(str, k)), b, plan[(k, 'base')], n, plan[(k, 'new')], b / n))
    else:
        same.append(b / n)
print('shapes %d: base/new auto geomean %.4f; same plan (%d) %.4f (min %.3f, max %.3f)' % (
    len(ab), gm(ab), len(same), gm(same), min(same), max(same)))
print('auto/cuBLAS: base %.3f, new %.3f' % (gm(cub_b), gm(cub_n)))
