# Run 173's A/B read for the final build: per shape, the time of whichever build's auto ran the
# final build's pick (streamk-fit's replay, FILE of "shape pick" lines), against the old build's.
#   python3 final_ab.py run173 PICKS [graph-]
import csv, glob, math, os, sys
d, picks, pre = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else '')
final = dict(l.split(None, 1) for l in open(picks) if l.strip())
final = {k: v.strip() for k, v in final.items()}
def gm(v): return math.exp(sum(map(math.log, v)) / len(v))
def plan(r):
    if r['plan_mode'] == 'dp': return f"dp {r['tile_m']}x{r['tile_n']}"
    return (f"{r['plan_mode']} {r['tile_m']}x{r['tile_n']} dp{r['dp_tiles']}+sk{r['sk_tiles']}/"
            f"{r['sk_blocks']}" + (' sep' if r['reduction'] == 'separate' else ''))
for s in ['deep-shapes', 'decode-shapes', 'separate-shapes', 'small-shapes']:
    t = {}
    for f in sorted(glob.glob(os.path.join(d, f'{pre}{s}-*-?.csv'))):
        b = 'old' if '-old-' in f else 'new'
        for r in csv.DictReader(open(f)):
            e = t.setdefault(f"{r['m']}x{r['n']}x{r['k']}", {'old': [], 'new': [], 'cublas': []})
            if r['mode'] == 'cublas': e['cublas'].append(float(r['time_us']))
            else: e[b].append(float(r['time_us'])); e[b + '_plan'] = plan(r)
    rat, fc, oc = [], [], []
    for shape, e in t.items():
        p = final[shape]
        b = 'old' if p == e['old_plan'] else 'new' if p == e['new_plan'] else None
        if b is None: print('unmeasured', shape, p); continue
        o, n, c = gm(e['old']), gm(e[b]), gm(e['cublas'])
        rat.append(o / n); fc.append(n / c); oc.append(o / c)
        if b == 'new' and e['old_plan'] != e['new_plan']:
            print(f"  {shape:18} {e['old_plan']:32} {o:6.1f} -> {p:32} {n:6.1f}  {o / n:.3f}")
    print(f"{pre}{s}: final/old {gm(rat):.3f} over {len(rat)} shapes (min {min(rat):.3f}); "
          f"auto/cuBLAS {1 / gm(oc):.3f} -> {1 / gm(fc):.3f}")
