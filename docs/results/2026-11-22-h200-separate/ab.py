# A/B of runs 107-110 (and session 22's runs 120-121 in ../2026-11-22-h200-slices/, whose ab.txt it
# wrote): run `python3 ab.py` inside an unpacked run directory (r/T-SET-{old,new}-PASS.csv,
# T = graph or launch). Prints time(old) / time(new) per mode (the median over the passes of each
# build), with its geomean, min and max over the set's shapes; > 1: the new build is faster.
import csv, glob, math, re


def load(f):
    out = {}
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            out[(r['name'] or 'x'.join([r['m'], r['n'], r['k']]), r['mode'])] = float(r['time_us'])
    return out


runs = {}
for f in glob.glob('r/*-*-*-*.csv'):
    m = re.match(r'r/(graph|launch)-(\w+)-(old|new)-(\d)\.csv', f)
    if m:
        runs.setdefault((m[1], m[2]), {}).setdefault(m[3], []).append(load(f))
for (t, s), b in sorted(runs.items()):
    old, new = b['old'], b['new']
    print(f'== {t} {s}: {len(old)} + {len(new)} passes')
    for mode in dict.fromkeys(k[1] for k in old[0]):
        rs = []
        for k in old[0]:
            if k[1] != mode or not all(k in d for d in old + new):
                continue
            o = sorted(d[k] for d in old)[len(old) // 2]
            n = sorted(d[k] for d in new)[len(new) // 2]
            rs.append((o / n, k[0]))
        g = math.exp(sum(math.log(x) for x, _ in rs) / len(rs))
        rs.sort()
        print(f'  {mode:20s} n={len(rs):3d} geo {g:.3f} min {rs[0][0]:.3f} ({rs[0][1]}) '
              f'max {rs[-1][0]:.3f} ({rs[-1][1]})')
