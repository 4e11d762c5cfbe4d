#!/usr/bin/env python3
"""Runs 124-125: time(old build) / time(new build) per forced mode, from ab-{old,new}-P.csv in DIR
(the best of the passes on each side), with the old build's pass-to-pass ratio as the noise.
Usage: ab.py DIR"""
import csv, glob, math, sys


def load(f):
    return {(r['name'], r['m'], r['n'], r['k'], r['mode']): float(r['time_us'])
            for r in csv.DictReader(open(f)) if r['status'] == 'ok'}


d = sys.argv[1]
runs = {b: [load(f) for f in sorted(glob.glob(f'{d}/ab-{b}-*.csv'))] for b in ('old', 'new')}
g = lambda x: math.exp(sum(map(math.log, x)) / len(x))
for m in sorted({k[4] for k in runs['old'][0]}):
    keys = [k for k in runs['old'][0] if k[4] == m]
    r = [min(p[k] for p in runs['old']) / min(p[k] for p in runs['new']) for k in keys]
    line = f'{m:20s} old/new geomean {g(r):.4f} min {min(r):.3f} max {max(r):.3f}'
    if len(runs['old']) > 1:
        line += f'  (old pass 1 / pass 2: {g([runs["old"][0][k] / runs["old"][1][k] for k in keys]):.4f})'
    print(line)
