#!/usr/bin/env python3
"""Run 159: kMinDeepAlignedGain's build (rule) against 11c9a66 (base) on the shapes it moves.
Per shape and dtype, medians over three passes: time(base auto) / time(rule auto) (above 1: the
rule faster), the rule's auto against its own dp (the 3% rule, same command), and the dp times'
ratio base/rule (the passes' drift; the same plan in both builds). Then geomeans.
Usage: rule_ab.py RUN_DIR [MOVERS] (with RUN_DIR/csv.tgz extracted in RUN_DIR; MOVERS: a file of
names, the shapes the committed rule moves, summarized on their own)"""
import collections, csv, math, statistics, sys
t = collections.defaultdict(list)
plan = {}
for b in ('base', 'rule'):
    for dt in ('fp16', 'bf16'):
        for p in (1, 2, 3):
            for r in csv.DictReader(open(f'{sys.argv[1]}/{b}-{dt}-{p}.csv')):
                if r['status'] == 'ok':
                    t[(r['name'], dt, b, r['mode'])].append(float(r['time_us']))
                    if r['mode'] == 'auto':
                        plan[(r['name'], dt, b)] = f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']}"
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
med = lambda *k: statistics.median(t[k])
print(f"{'shape':20} {'dtype':5} {'base auto':12} {'rule auto':14} {'base/rule':>9} {'rule dp/auto':>12} {'dp base/rule':>12} {'dp128x192/auto':>14}")
gain, rule3, drift = collections.defaultdict(list), [], []
for name in sorted({k[0] for k in t}):
    for dt in ('fp16', 'bf16'):
        k = (name, dt)
        a = med(*k, 'base', 'auto') / med(*k, 'rule', 'auto')
        r = med(*k, 'rule', 'dp') / med(*k, 'rule', 'auto')
        d = med(*k, 'base', 'dp') / med(*k, 'rule', 'dp')
        m = med(*k, 'rule', 'dp/128x192x64') / med(*k, 'rule', 'auto')
        moved = plan[k + ('base',)] != plan[k + ('rule',)]
        print(f"{name:20} {dt:5} {plan[k + ('base',)]:12} {plan[k + ('rule',)]:14} {a:9.3f} {r:12.3f} {d:12.3f} {m:14.3f}")
        gain[moved].append(a)
        if moved:
            rule3.append(r)
        drift.append(d)
for m, v in gain.items():
    print(f"{'moved' if m else 'not moved'}: {len(v)} shape-dtypes, base/rule auto geomean {g(v):.3f} (min {min(v):.3f}, max {max(v):.3f})")
print(f"moved: rule auto against its dp geomean {g(rule3):.3f} (min {min(rule3):.3f}); dp base/rule (drift) geomean {g(drift):.3f}")
if len(sys.argv) > 2:
    names = {l.split()[0] for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')}
    v = [med(n, dt, 'base', 'auto') / med(n, dt, 'rule', 'auto') for n in names for dt in ('fp16', 'bf16')]
    r = [med(n, dt, 'rule', 'dp') / med(n, dt, 'rule', 'auto') for n in names for dt in ('fp16', 'bf16')]
    llm = [med(n, dt, 'base', 'auto') / med(n, dt, 'rule', 'auto') for n in names for dt in ('fp16', 'bf16')
           if not n.startswith(('p', 'wqT'))]
    print(f"committed rule: {len(names)} shapes moved, base/rule auto geomean {g(v):.3f} (min {min(v):.3f}, "
          f"max {max(v):.3f}); against its dp {g(r):.3f} (min {min(r):.3f}); the {len(llm) // 2} Llama "
          f"projections {g(llm):.3f}")
