#!/usr/bin/env python3
"""Session 55: time(old pick, its mode forced) / time(auto) per moved shape, per pass, from a run
over moved.txt (run 292) or moved3.txt (run 295); the old pick's mode is each shape's '# old'
comment. Old picks that copied an operand first are left out (bench forces no copies per mode).
With FINAL (rand_moved_final.txt and sets_moved3.txt's lines: planner M N K), only the shapes
whose pick moves in the final planner (all of them timed in run 295 as it picks them).
Usage: moved_check.py RUN_DIR MOVED_FILE [FINAL...]"""
import csv, glob, math, os, re, sys
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')
lo = lambda v: min(v) if v else float('nan')
old = {}
for l in open(sys.argv[2]):
    if l.startswith('# old '):
        f = l.split()
        if 'repacked' not in l:
            old[f[2]] = (f[3],)
if len(sys.argv) > 3:
    keep = set()
    for f in sys.argv[3:]:
        for l in open(f):
            x = re.match(r'\s*(\w+\s+)?(\d+) (\d+) (\d+) \(', l)
            if x:
                m, n, k = x.group(2), x.group(3), x.group(4)
                if x.group(1):  # run 258's CSV lines (sets_moved3.txt): bench M N K
                    m, n = n, m
                keep.add(f'w{n}.t{m}.k{k}')
    old = {n: v for n, v in old.items() if n.split('.', 1)[1] in keep}
paths = sorted(glob.glob(os.path.join(sys.argv[1], 'tn-*.csv')))
per = {}
for path in paths:
    t = {}
    for r in csv.DictReader(open(path)):
        if r['status'] == 'ok':
            t[(r['name'], r['mode'])] = float(r['time_us'])
    ratios = {n: t[(n, m)] / t[(n, 'auto')] for n, (m,) in old.items()
              if (n, m) in t and (n, 'auto') in t}
    cu = [t[(n, 'cublas')] / t[(n, 'auto')] for n in ratios if (n, 'cublas') in t]
    for n, v in ratios.items():
        per.setdefault(n, []).append(v)
    fromc = [v for n, v in ratios.items() if old[n][0].endswith('256x256x64')]
    rest = [v for n, v in ratios.items() if not old[n][0].endswith('256x256x64')]
    print(f"{os.path.basename(path):14} {len(ratios)} shapes: old pick / auto {gm(list(ratios.values())):.3f} "
          f"(min {min(ratios.values()):.3f}); from clusters {len(fromc)}: {gm(fromc):.3f} "
          f"(min {lo(fromc):.3f}); others {len(rest)}: {gm(rest):.3f} (min {lo(rest):.3f}); "
          f"cuBLAS / auto {gm(cu):.3f}")
print('\nshapes under 0.97 in the median of the passes (old pick faster):')
for n, v in sorted(per.items(), key=lambda x: sorted(x[1])[len(x[1]) // 2]):
    med = sorted(v)[len(v) // 2]
    if med < 0.97:
        print(f"  {n:28} {old[n][0]:20} {' '.join(f'{x:.3f}' for x in v)}")
