#!/usr/bin/env python3
"""Session 52: run 277's moved picks, each against its old pick forced (the mode from the old
build's plan), per pass; with the old pick's and the new pick's predicted times.

  python3 docs/results/2026-11-24-h200-rows5/rows5.py RUN_DIR OLD_PLAN NEW_PLAN"""
import csv, collections, glob, json, math, os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
run, old_plan, new_plan = sys.argv[1:4]
def plan(b, m, n, k):
    return json.loads(subprocess.run([b, m, n, k, '--json', '--device', 'h200'],
                                     capture_output=True, text=True).stdout)
def forced(d):
    t = f"{d['tile'][0]}x{d['tile'][1]}x{d['tile'][2]}"
    return f"streamk:{d['sk_blocks']}/{t}" if d['mode'] == 'streamk' else f"dp/{t}"
rows = collections.defaultdict(dict)
tags = []
for f in sorted(glob.glob(f'{run}/moved-*.csv')):
    tag = os.path.basename(f)[6:-4]
    tags.append(tag)
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok':
            rows[r['name']].setdefault(tag, {})[r['mode']] = r
print(f"{'row':4s} {'plan M N K':18s} {'old pick':24s} {'pred old/new':>12s}  " +
      ' '.join(f'{t:>10s}' for t in tags) + '   (time old / new; new / dp)')
logs = collections.defaultdict(list)
for name, v in rows.items():
    r = next(iter(v.values()))['auto']
    m, n, k = r['n'], r['m'], r['k']  # the bench's M x N is the planner's N x M
    o, w = plan(old_plan, m, n, k), plan(new_plan, m, n, k)
    mode = forced(o)
    ratios = [float(v[t][mode]['time_us']) / float(v[t]['auto']['time_us']) for t in tags]
    dps = [float(v[t]['auto']['time_us']) / float(v[t]['dp']['time_us']) for t in tags]
    for t, x in zip(tags, ratios):
        logs[t].append(math.log(x))
    gain = o['predicted_us'] / w['predicted_us']
    print(f"{name:4s} {m+' '+n+' '+k:18s} {mode:24s} {gain:12.3f}  " +
          ' '.join(f'{x:10.3f}' for x in ratios) + f"   new/dp {max(dps):.3f} max")
for t in tags:
    x = logs[t]
    print(f'{t}: old/new geomean {math.exp(sum(x) / len(x)):.3f}, new slower than old by >3% on '
          f'{sum(math.exp(v) < 0.97 for v in x)} of {len(x)}')
