#!/usr/bin/env python3
"""Run 152: how far auto's pick is from the fastest plan measured, per set, with D fp32 and with
D fp16 (the same shapes; the fp16 command timed fewer plans: auto, dp and the third and fourth
tiles data-parallel), and the shapes auto misses most. cuBLAS is not a plan auto could pick.
Usage: oracle.py RUN_DIR (with RUN_DIR/csv.tgz extracted in RUN_DIR)"""
import collections, csv, math, sys
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
common = ('auto', 'dp', 'dp/128x192x64', 'dp/192x192x64')
for out in ('fp32', 'fp16'):
    rows = collections.defaultdict(dict)
    for r in csv.DictReader(open(f'{sys.argv[1]}/{out}.csv')):
        if r['status'] == 'ok' and r['mode'] != 'cublas':
            rows[(r['set'], f"{r['m']}x{r['n']}x{r['k']}")][r['mode']] = r
    for modes in ((None, 'every plan timed'), (common, 'the plans both commands timed')):
        miss = []
        for key, d in rows.items():
            t = {m: float(r['time_us']) for m, r in d.items() if modes[0] is None or m in modes[0]}
            best = min(t, key=t.get)
            a = d['auto']
            miss.append((t['auto'] / t[best], key, best, f"{a['plan_mode']} {a['tile_m']}x{a['tile_n']}"))
        print(f"D {out}, against {modes[1]}: time(auto) / time(fastest) " + ", ".join(
            f"{s} {g([m[0] for m in miss if m[1][0] == s]):.4f}" for s in ('paper', 'waveq', 'llm')))
        if (out == 'fp32') == (modes[0] is None):
            for m in sorted(miss, reverse=True)[:6]:
                print(f"  {m[0]:.3f} {m[1][0]:6} {m[1][1]:16} auto {m[3]:16} fastest {m[2]}")
