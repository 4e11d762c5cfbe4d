#!/usr/bin/env python3
"""Run 153: what D fp32 costs over D fp16 on the same plans, from passes fp32, fp16, fp16, fp32
(geomean of each pair). Per plan kind and tile, over shapes of 12 us or more (below that the host
sets the pace): the extra time per tile a block finishes (ceil(tiles / 132) for data-parallel,
tiles / 132 for Stream-K) per 128 x 128 of tile area, and the time ratio, by depth.
Usage: fp32cost.py RUN_DIR (with RUN_DIR/csv.tgz extracted in RUN_DIR)"""
import collections, csv, math, statistics, sys
d = sys.argv[1]
load = lambda f: {(r['set'], r['m'], r['n'], r['k'], r['mode']): r for r in csv.DictReader(open(f'{d}/{f}'))}
p = [load(f) for f in ('pass1-fp32.csv', 'pass2-fp16.csv', 'pass3-fp16.csv', 'pass4-fp32.csv')]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
T = lambda r: float(r['time_us'])
print('drift: pass 4 / pass 1 (fp32) %.3f, pass 3 / pass 2 (fp16) %.3f' % (
    g([T(p[3][k]) / T(p[0][k]) for k in p[0] if p[0][k]['status'] == 'ok']),
    g([T(p[2][k]) / T(p[1][k]) for k in p[1] if p[1][k]['status'] == 'ok'])))
pts = collections.defaultdict(list)
for k in p[0]:
    rs = [q[k] for q in p]
    if any(r['status'] != 'ok' for r in rs):
        continue
    if any(rs[0][f] != r[f] for r in rs for f in ('plan_mode', 'tile_m', 'tile_n', 'dp_tiles', 'sk_blocks', 'repack')):
        continue
    t32, t16 = (T(rs[0]) * T(rs[3])) ** .5, (T(rs[1]) * T(rs[2])) ** .5
    if t16 < 12:
        continue
    tiles = int(rs[0]['dp_tiles']) + int(rs[0]['sk_tiles'])
    area = int(rs[0]['tile_m']) * int(rs[0]['tile_n']) / 16384
    mode = rs[0]['plan_mode']
    per_block = math.ceil(tiles / 132) if mode == 'dp' else tiles / 132
    K = int(k[3])
    depth = 'K < 512' if K < 512 else 'K < 2048' if K < 2048 else 'K < 6000' if K < 6000 else 'K >= 6000'
    pts[(mode, rs[0]['tile_m'] + 'x' + rs[0]['tile_n'])].append(((t32 - t16) / (per_block * area), t32 / t16, depth))
for key, v in sorted(pts.items()):
    q = statistics.quantiles([x[0] for x in v], n=4)
    print(f"{key[0]:8} {key[1]:8} {len(v):4} shapes: extra per tile per 128x128 median {statistics.median(x[0] for x in v):.2f} us "
          f"(p25 {q[0]:.2f}, p75 {q[2]:.2f}); time fp32 / fp16 {g([x[1] for x in v]):.3f}")
    for depth in ('K < 512', 'K < 2048', 'K < 6000', 'K >= 6000'):
        w = [x for x in v if x[2] == depth]
        if len(w) > 2:
            print(f"    {depth:9} {len(w):4}: median {statistics.median(x[0] for x in w):.2f} us, ratio {g([x[1] for x in w]):.3f}")
