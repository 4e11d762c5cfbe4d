#!/usr/bin/env python3
"""Session 43: the planner's prediction against run 237's times (streamk-bench's predicted_us).

Reads run237/csv.tgz (bench-fp16.csv) and prints measured / predicted, geometric means, per mode
and tile, K-major rows aligned or not (bench K x 2 bytes a multiple of 32), and GEMM time.
    python3 prediction.py > prediction.txt
"""
import csv, io, math, os, tarfile
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
with tarfile.open(os.path.join(here, 'run237', 'csv.tgz')) as t:
    rows = list(csv.DictReader(io.TextIOWrapper(t.extractfile('bench-fp16.csv'))))

def band(us):
    return '20 us or more' if us >= 20 else ('9-20 us' if us >= 9 else 'under 9 us')

groups = defaultdict(list)
for r in rows:
    if r['status'] != 'ok' or not r['predicted_us']:
        continue
    t, p = float(r['time_us']), float(r['predicted_us'])
    rows_kind = 'aligned' if int(r['k']) * 2 % 32 == 0 else 'misaligned'
    tile = r['tile_m'] + 'x' + r['tile_n']
    groups[(r['mode'], band(t), rows_kind, '')].append(t / p)
    groups[(r['mode'], band(t), rows_kind, tile)].append(t / p)

def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v))

print('run 237 (fp16, paper + waveq + llm), measured / predicted: > 1 slower than predicted')
print('%-8s %-14s %-11s %-8s %5s %8s %6s %6s' % ('mode', 'GEMM time', 'K rows', 'tile', 'plans',
                                                  'geomean', 'min', 'max'))
order = {'20 us or more': 0, '9-20 us': 1, 'under 9 us': 2}
for key in sorted(groups, key=lambda k: (k[0], order[k[1]], k[2], k[3])):
    v = groups[key]
    if key[3] and len(v) < 4:
        continue
    print('%-8s %-14s %-11s %-8s %5d %8.3f %6.2f %6.2f' % (*key[:3], key[3] or 'all', len(v),
                                                          gm(v), min(v), max(v)))
