#!/usr/bin/env python3
"""Run 149: this build's auto against 7580772's (base) with D fp32 and fp16, two alternating
passes each: per set and output type, the geomean of time(base auto) / time(new auto) (above 1:
the new build faster), auto/cuBLAS per build (cuBLAS from the same invocation), and the shapes
that moved most.
Usage: ab_fp32.py RUN_DIR (with RUN_DIR/csv.tgz extracted in RUN_DIR)"""
import csv, math, statistics, sys, collections
t = collections.defaultdict(list)
for out in ('fp32', 'fp16'):
    for b in ('base', 'new'):
        for p in (1, 2):
            for r in csv.DictReader(open(f'{sys.argv[1]}/ab-{out}-{b}-{p}.csv')):
                if r['status'] == 'ok':
                    t[(out, r['set'], f"{r['m']}x{r['n']}x{r['k']}", b, r['mode'])].append(
                        float(r['time_us']))
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
med = lambda k: statistics.median(t[k])
for out in ('fp32', 'fp16'):
    for s in ('paper', 'waveq', 'llm'):
        shapes = sorted({k[2] for k in t if k[0] == out and k[1] == s})
        gain = {x: med((out, s, x, 'base', 'auto')) / med((out, s, x, 'new', 'auto')) for x in shapes}
        cub = {b: g([med((out, s, x, b, 'cublas')) / med((out, s, x, b, 'auto')) for x in shapes])
               for b in ('base', 'new')}
        worst = sorted(gain.items(), key=lambda kv: kv[1])
        print(f"D {out} {s:6} {len(shapes):3} shapes: base/new auto {g(list(gain.values())):.3f} "
              f"(min {worst[0][1]:.3f} {worst[0][0]}, max {worst[-1][1]:.3f} {worst[-1][0]}); "
              f"auto/cuBLAS {cub['base']:.3f} -> {cub['new']:.3f}")
