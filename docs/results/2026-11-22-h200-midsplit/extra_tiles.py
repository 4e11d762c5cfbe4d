#!/usr/bin/env python3
"""Run 141: what auto would gain by weighing split-K and Stream-K on the third (128 x 192) and
fourth (192 x 192) tiles: per set, the best of auto and the four forced modes on those tiles
over auto (an oracle), and the shapes where one of them beats auto by 3% or more.
Usage: extra_tiles.py RUN_DIR"""
import csv, math, sys, collections
d = collections.defaultdict(dict)
for f in ('extra-waveq.csv', 'extra-paper.csv'):
    for r in csv.DictReader(open(f'{sys.argv[1]}/{f}')):
        if r['status'] == 'ok':
            d[(r['set'], r['name'], int(r['m']), int(r['n']), int(r['k']))][r['mode']] = (
                float(r['time_us']), r)
modes = ['auto/128x192x64', 'splitk/128x192x64', 'auto/192x192x64', 'splitk/192x192x64']
for s in ('waveq', 'llm', 'paper'):
    g, wins = [], []
    for key, v in d.items():
        if key[0] != s:
            continue
        a = v['auto'][0]
        m = min((x for x in modes if x in v), key=lambda x: v[x][0])
        b = min(a, v[m][0])
        g.append(math.log(a / b))
        if b < 0.97 * a:
            r = v[m][1]
            wins.append('  %dx%dx%d: auto %.1f us (%s %sx%s), %s %.1f us (%s)' % (
                key[2], key[3], key[4], a, v['auto'][1]['plan_mode'], v['auto'][1]['tile_m'],
                v['auto'][1]['tile_n'], m, v[m][0], r['plan_mode']))
    print('%s: oracle over auto %.4f; %d shapes 3%% or more under auto' % (
        s, math.exp(sum(g) / len(g)), len(wins)))
    print('\n'.join(wins))
