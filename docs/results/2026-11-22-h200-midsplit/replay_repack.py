#!/usr/bin/env python3
"""Run 142 replayed: which option auto's rule picks per misaligned shape (streamk-plan, H200
model, with the environment it is given), and that option's measured time: the rows as they
are or on clusters (acb26d6's auto, where its plan is the same), or the copies forced onto A,
B or both. Usage: replay_repack.py RUN_DIR STREAMK_PLAN"""
import csv, math, re, subprocess, sys, collections
d, tool = sys.argv[1], sys.argv[2]
t = collections.defaultdict(lambda: collections.defaultdict(list))
plan = {}
def load(f, tag):
    for r in csv.DictReader(open(f)):
        if r['status'] == 'ok' and r['mode'] == 'auto':
            key = (int(r['m']), int(r['n']), int(r['k']))
            t[key][tag].append(float(r['time_us']))
            if tag == 'base':
                plan[key] = r['tile_m'] == '256'  # on clusters
for p in (1, 2):
    load(f'{d}/auto-base-{p}.csv', 'base')
for r in ('a', 'b', 'on'):
    load(f'{d}/repack-{r}.csv', r)
gm = lambda l: math.exp(sum(map(math.log, l)) / len(l))
med = lambda l: sorted(l)[(len(l) - 1) // 2]
gain, oracle, unknown, picks = [], [], [], collections.Counter()
for (m, n, k), v in sorted(t.items()):
    T = {x: med(y) for x, y in v.items()}
    out = subprocess.run([tool, str(n), str(m), str(k), '--device', 'h200', '--misaligned', 'both'],
                         capture_output=True, text=True).stdout
    rep = re.search(r'^repack\s+(A and B|A|B):', out, re.M)
    cluster = '2-SM clusters that read B once' in out
    # The kernel's A is the bench's B.
    pick = {'A and B': 'on', 'A': 'b', 'B': 'a'}[rep.group(1)] if rep else 'base'
    if pick == 'base' and cluster != plan[(m, n, k)]:
        unknown.append((m, n, k))
    picks[pick] += 1
    gain.append(T['base'] / T[pick])
    oracle.append(T['base'] / min(T.values()))
    if T[pick] > 1.03 * min(T.values()) or T[pick] > 1.03 * T['base']:
        print('%-18s pick %-4s %6.1f  base %6.1f  best %6.1f (%s)' % (
            f'{m}x{n}x{k}', pick, T[pick], T['base'], min(T.values()), min(T, key=T.get)))
print('picks', dict(picks), 'unmeasured (cluster changed)', unknown)
print('base/pick geomean %.4f (min %.3f)   oracle %.4f' % (gm(gain), min(gain), gm(oracle)))
