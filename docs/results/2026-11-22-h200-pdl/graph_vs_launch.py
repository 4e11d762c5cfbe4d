# Session 20: auto/cuBLAS from CUDA graph replays (run 102) against back-to-back launches (run 98),
# by cuBLAS's graph time, and the few-tile shapes' best measured plan (runs 103-104).
#   python3 graph_vs_launch.py RUN102_DIR RUN98_DIR RUN103_DIR RUN104_DIR   (csv.tgz unpacked)
import csv, math, collections, sys
def load(path, key=lambda r: (r['set'], r['m'], r['n'], r['k'])):
    t = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if r['status'] == 'ok': t[key(r)][r['mode']] = float(r['time_us'])
    return t
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
t = load(f'{sys.argv[1]}/sets-graph-fp16.csv'); old = load(f'{sys.argv[2]}/bench-fp16.csv')
print("auto/cuBLAS, fp16: graph replays (run 102) and back to back (run 98), by cuBLAS's graph time")
for lo, hi in [(0, 10), (10, 20), (20, 50), (50, 150), (150, 1e9)]:
    ks = [k for k, x in t.items() if lo <= x['cublas'] < hi and k in old]
    print(f"  cuBLAS {lo:>4}-{hi if hi < 1e9 else 'inf':>4} us: {len(ks):3d} shapes  graph {g([t[k]['cublas'] / t[k]['auto'] for k in ks]):.3f}"
          f"  back to back {g([old[k]['cublas'] / old[k]['auto'] for k in ks]):.3f}")
for s in ('paper', 'waveq', 'llm'):
    ks = [k for k in t if k[0] == s and k in old]
    print(f"  {s:6s} graph {g([t[k]['cublas'] / t[k]['auto'] for k in ks]):.3f}  back to back {g([old[k]['cublas'] / old[k]['auto'] for k in ks]):.3f}")
few = load(f'{sys.argv[3]}/fewtile-fp16.csv', key=lambda r: (r['m'], r['n'], r['k']))
for k, d in load(f'{sys.argv[4]}/fewtile-reductions-fp16.csv', key=lambda r: (r['m'], r['n'], r['k'])).items():
    for m, v in d.items():
        few[k][m] = min(few[k].get(m, v), v)
best = []
for k, d in few.items():
    ours = {m: v for m, v in d.items() if m != 'cublas'}
    bm = min(ours, key=ours.get)
    best.append((d['auto'] / ours[bm], d['cublas'] / ours[bm], d['cublas'] / d['auto'], k, bm))
print(f"few-tile shapes ({len(best)}, fp16, graphs): auto/best {g([b[0] for b in best]):.3f}, best/cuBLAS {g([b[1] for b in best]):.3f}, auto/cuBLAS {g([b[2] for b in best]):.3f}")
print("  best plan:", dict(collections.Counter(b[4] for b in best)))
for b in sorted(best, reverse=True)[:8]:
    print(f"  {'x'.join(b[3])}: auto {few[b[3]]['auto']:.1f} us, best {b[4]} {few[b[3]][b[4]]:.1f}, cuBLAS {few[b[3]]['cublas']:.1f}")
