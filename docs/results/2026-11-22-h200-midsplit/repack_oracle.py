#!/usr/bin/env python3
"""Run 142: per misaligned shape, the best of the rows as they are (base auto), and auto / dp
with the copies forced onto A, B or both (user's operands, bench M x N x K), against this
build's auto. Usage: repack_oracle.py RUN_DIR"""
import csv, math, sys, collections

d = sys.argv[1]
t = collections.defaultdict(dict)   # shape -> variant -> [times]
plan = collections.defaultdict(dict)
def load(f, tag):
    for r in csv.DictReader(open(f)):
        if r['status'] != 'ok':
            continue
        key = (int(r['m']), int(r['n']), int(r['k']))
        v = tag + ':' + r['mode']
        t[key].setdefault(v, []).append(float(r['time_us']))
        plan[key][v] = (r['plan_mode'], r['tile_m'], r['tile_n'], r['repack'])
for p in (1, 2):
    load(f'{d}/auto-base-{p}.csv', 'base')
    load(f'{d}/auto-new-{p}.csv', 'new')
for r in ('a', 'b', 'on'):
    load(f'{d}/repack-{r}.csv', 'copy-' + r)
med = lambda l: sorted(l)[len(l) // 2] if len(l) % 2 else sum(sorted(l)[len(l)//2-1:len(l)//2+1]) / 2
gm = lambda l: math.exp(sum(math.log(x) for x in l) / len(l))
rows = []
for key, v in t.items():
    T = {k: med(x) for k, x in v.items()}
    base, new = T['base:auto'], T['new:auto']
    forced = {k: T[k] for k in T if k.startswith('copy-') and not k.endswith('cublas')}
    best_k = min(forced, key=forced.get)
    rows.append((key, base, new, best_k, forced[best_k], T['base:cublas'], plan[key]['new:auto'],
                 plan[key]['base:auto']))
print('shapes', len(rows))
print('new auto / base auto (time ratio base/new, >1 new faster): %.4f' % gm([r[1] / r[2] for r in rows]))
print('oracle over base auto and forced copies / base auto: %.4f' % gm([r[1] / min(r[1], r[4]) for r in rows]))
print('base auto / cuBLAS %.3f   new auto / cuBLAS %.3f   oracle / cuBLAS %.3f' % (
    gm([r[5] / r[1] for r in rows]), gm([r[5] / r[2] for r in rows]),
    gm([r[5] / min(r[1], r[4]) for r in rows])))
print('\nshape                 base    new   best forced          cuBLAS  new plan / base plan')
for r in sorted(rows, key=lambda r: r[4] / r[1]):
    print('%-20s %6.1f %6.1f %6.1f %-14s %6.1f  %s / %s' % ('x'.join(map(str, r[0])), r[1], r[2],
          r[4], r[3], r[5], ' '.join(r[6]), ' '.join(r[7])))
