#!/usr/bin/env python3
"""Run 158: per shape and dtype, medians over three passes of: base auto (dp), all-tiles Stream-K,
dp on 192 x 192, cuBLAS (base build), and the experimental build's auto (the Stream-K hybrid where
predicted 2.5% faster); each as time(base auto) / time(mode) (above 1: faster than auto), plus the
exp build's own dp as a check on the passes (exp dp against base dp).
Usage: sk_margin.py RUN_DIR (with RUN_DIR/csv.tgz extracted in RUN_DIR)"""
import collections, csv, math, os, statistics, sys
t = collections.defaultdict(list)
plan = {}
for b in ('base', 'exp'):
    for dt in ('fp16', 'bf16'):
        for p in (1, 2, 3):
            for r in csv.DictReader(open(f'{sys.argv[1]}/{b}-{dt}-{p}.csv')):
                if r['status'] != 'ok':
                    continue
                key = (r['name'], dt)
                t[key + (b, r['mode'])].append(float(r['time_us']))
                if r['mode'] == 'auto':
                    plan[key + (b,)] = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} sk{r['sk_tiles']}"
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
med = lambda *k: statistics.median(t[k])
names = []
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'llm-sk-candidates.txt')):
    if line.strip() and not line.startswith('#'):
        names.append(line.split()[0])
print(f"{'shape':16} {'dtype':5} {'exp auto plan':22} {'exp':>6} {'streamk':>8} {'dp192':>6} {'cublas':>6} {'dp(exp/base)':>12}")
moved = collections.defaultdict(list)
for name in names:
    for dt in ('fp16', 'bf16'):
        k = (name, dt)
        base = med(*k, 'base', 'auto')
        row = [base / med(*k, 'exp', 'auto'), base / med(*k, 'base', 'streamk'),
               base / med(*k, 'base', 'dp/192x192x64'), base / med(*k, 'base', 'cublas'),
               med(*k, 'base', 'dp') / med(*k, 'exp', 'dp')]
        print(f"{name:16} {dt:5} {plan[k + ('exp',)]:22} " + " ".join(f"{x:6.3f}" if i != 1 else f"{x:8.3f}" for i, x in enumerate(row[:4])) + f" {row[4]:12.3f}")
        moved[plan[k + ('exp',)] != plan[k + ('base',)]].append(row[0] / row[4])
for m, v in moved.items():
    print(f"{'moved' if m else 'same plan'}: {len(v)} shape-dtypes, exp/base auto (drift-corrected by dp) geomean {g(v):.3f}, min {min(v):.3f}, max {max(v):.3f}")
