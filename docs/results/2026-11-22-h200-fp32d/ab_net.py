#!/usr/bin/env python3
"""Run 154: this build's auto against 435586b's (base) with D fp32 and fp16, passes base/new twice
per output type: per set and time range, the geomean of time(base auto) / time(new auto) (above 1:
the new build faster). fp16 D runs the same code in both builds, so its ratio is the passes' drift
(base always ran first); 'net' divides it out. Then auto/cuBLAS per build.
Usage: ab_net.py RUN_DIR (with RUN_DIR/csv.tgz extracted in RUN_DIR)"""
import collections, csv, math, statistics, sys
t = collections.defaultdict(list)
for out in ('fp32', 'fp16'):
    for b in ('base', 'new'):
        for p in (1, 2):
            for r in csv.DictReader(open(f'{sys.argv[1]}/ab-{out}-{b}-{p}.csv')):
                if r['status'] == 'ok':
                    t[(out, r['set'], f"{r['m']}x{r['n']}x{r['k']}", b, r['mode'])].append(float(r['time_us']))
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
med = lambda *k: statistics.median(t[k])
for s in ('paper', 'waveq', 'llm'):
    shapes = sorted({k[2] for k in t if k[1] == s})
    for lo, hi in ((0, 15), (15, 60), (60, 1e9)):
        sel = [x for x in shapes if lo <= med('fp32', s, x, 'base', 'auto') < hi]
        if not sel:
            continue
        f32 = g([med('fp32', s, x, 'base', 'auto') / med('fp32', s, x, 'new', 'auto') for x in sel])
        f16 = g([med('fp16', s, x, 'base', 'auto') / med('fp16', s, x, 'new', 'auto') for x in sel])
        print(f"{s:6} {lo:>3}-{hi:<5g} us {len(sel):4} shapes: base/new fp32 D {f32:.3f}, fp16 D {f16:.3f}, net {f32 / f16:.3f}")
    for out in ('fp32', 'fp16'):
        cub = lambda b: g([med(out, s, x, b, 'cublas') / med(out, s, x, b, 'auto') for x in shapes])
        print(f"{s:6} D {out}: auto/cuBLAS base {cub('base'):.3f}, new {cub('new'):.3f}")
