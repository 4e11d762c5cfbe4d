#!/usr/bin/env python3
"""Session 55, run 292: the three moved shapes whose old pick copied an operand first, timed with
that copy forced (repack-*.csv, --repack a or b: the pass whose plan column shows the old pick's
copy) beside cuBLAS; auto (tn-fp16-*.csv) beside cuBLAS in the main passes. Prints
time(old pick) / time(auto), each against cuBLAS of its own pass.  python3 repack_check.py"""
import csv, glob, os, statistics
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'run292')
want = {'mis.w1368.t3112.k1192': ('dp/128x192x64', 'b'), 'mis.w912.t5304.k1464': ('dp/128x192x64', 'b'),
        'r.w7840.t600.k5112': ('streamk/128x256x64', 'a')}
def rows(path):
    return [r for r in csv.DictReader(open(path)) if r['status'] == 'ok']
auto = {}
for p in sorted(glob.glob(os.path.join(here, 'tn-fp16-*.csv'))):
    t = {(r['name'], r['mode']): float(r['time_us']) for r in rows(p)}
    for n in want:
        auto.setdefault(n, []).append(t[(n, 'auto')] / t[(n, 'cublas')])
old = {}
for p in sorted(glob.glob(os.path.join(here, 'repack-*.csv'))):
    rs = rows(p)
    t = {(r['name'], r['mode']): float(r['time_us']) for r in rs}
    for r in rs:
        n = r['name']
        if n in want and r['mode'] == want[n][0] and r['repack'] == want[n][1]:
            old.setdefault(n, []).append(t[(n, r['mode'])] / t[(n, 'cublas')])
for n in want:
    o, a = statistics.median(old.get(n, [float('nan')])), statistics.median(auto[n])
    print(f'{n:24} old pick {want[n][0]} with {want[n][1]} copied: {o:.3f} of cuBLAS; auto {a:.3f}; '
          f'old / auto {o / a:.3f}')
