# Run 173's A/B: per shape, auto's time on the build before (old) and after (new) the change, the
# geomean of the two alternating passes each, and cuBLAS's over all four; per set the geomean of
# old/new (> 1: the change is faster) and of auto/cuBLAS before and after.
#   python3 ab.py run173 [graph-]   (the prefix picks back-to-back or CUDA-graph timings)
import csv, glob, math, os, sys
d, pre = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else '')
def gm(v): return math.exp(sum(map(math.log, v)) / len(v))
def plan(r):
    if r['plan_mode'] == 'dp': return f"dp {r['tile_m']}x{r['tile_n']}"
    return (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} {r['sk_tiles']}/{r['sk_blocks']}"
            + (' sep' if r['reduction'] == 'separate' else ''))
for s in ['deep-shapes', 'decode-shapes', 'separate-shapes', 'small-shapes']:
    t = {}
    for f in sorted(glob.glob(os.path.join(d, f'{pre}{s}-*-?.csv'))):
        b = 'old' if '-old-' in f else 'new'
        for r in csv.DictReader(open(f)):
            key = (r['name'], f"{r['m']}x{r['n']}x{r['k']}")
            e = t.setdefault(key, {'old': [], 'new': [], 'cublas': []})
            if r['mode'] == 'cublas': e['cublas'].append(float(r['time_us']))
            else:
                e[b].append(float(r['time_us'])); e[b + '_plan'] = plan(r)
    print(f"# {pre}{s}: auto us, old build -> new build (geomean of 2 passes each), cuBLAS us")
    ratios, oc, nc = [], [], []
    for (name, shape), e in t.items():
        o, n, c = gm(e['old']), gm(e['new']), gm(e['cublas'])
        ratios.append(o / n); oc.append(o / c); nc.append(n / c)
        mark = '' if e['old_plan'] == e['new_plan'] else ' *'
        print(f"{name or '-':22} {shape:18} {e['old_plan']:28} {o:7.1f} -> {e['new_plan']:28} "
              f"{n:7.1f}  {o / n:5.3f}  cublas {c:6.1f}{mark}")
    moved = [r for (k, e), r in zip(t.items(), ratios) if e['old_plan'] != e['new_plan']]
    print(f"{s}: old/new geomean {gm(ratios):.3f} over {len(ratios)} shapes; moved {len(moved)}: "
          f"{gm(moved) if moved else 1:.3f} (min {min(moved) if moved else 1:.3f}); "
          f"cuBLAS/auto {1 / gm(oc):.3f} -> {1 / gm(nc):.3f}\n")
